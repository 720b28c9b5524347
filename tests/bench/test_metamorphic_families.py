"""Each rewrite family, on the fixture shop: it applies, the rewritten program is still a
program (tree-sitter parses it without ERROR, Python compiles it, node checks the JS), and
it does what the original did (the oracle's trace of routes, handler answers and HTTP
requests is the same). Family 12 adds a choice on purpose: with its condition set, the
trace must differ — the other alternative is real."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from tree_sitter_language_pack import get_parser

from bench.metamorphic.families import FAMILIES, IDENTITY
from bench.metamorphic.syntax import language_of
from tests.bench.meta_support import COMPONENTS, SHOP, behaviour, rewrite, write_copy

IDS = [f"{f.number:02d}-{f.key}" for f in FAMILIES]


@pytest.fixture(scope="module")
def original_behaviour(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("oracle")
    return {c: behaviour(c, SHOP / c, tmp) for c in COMPONENTS}


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_family_rewrites_the_fixture(family):
    rewritten = {c: rewrite(family, c) for c in COMPONENTS}
    again = {c: rewrite(family, c) for c in COMPONENTS}
    assert all(rewritten[c].rendered.files == again[c].rendered.files for c in COMPONENTS), (
        "not deterministic"
    )
    sites = {c: len(rw.plan.sites) for c, rw in rewritten.items()}
    assert sum(sites.values()) > 0, (
        f"family {family.key} found nothing to rewrite in the fixture: {sites}"
    )
    for rw in rewritten.values():
        if rw.plan.sites:
            assert rw.rendered.files, "sites were counted but no file changed"
            assert all(rw.rendered.files[f] != rw.originals.get(f) for f in rw.rendered.files)


def _tree_errors(rel: str, data: bytes) -> bool:
    lang = language_of(rel)
    if lang in (None, "vue"):
        return False
    return get_parser(lang).parse(data).root_node.has_error


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_rewritten_fixture_is_valid(family, tmp_path):
    unchecked = []
    for c in COMPONENTS:
        rw = rewrite(family, c)
        if not rw.rendered.files:
            continue
        root = write_copy(rw, tmp_path / c)
        for rel, data in rw.rendered.files.items():
            assert not _tree_errors(rel, data), f"{family.key}: {c}/{rel} does not parse"
            if rel.endswith(".py"):
                compile(data, rel, "exec")
            if rel.endswith((".js", ".cjs", ".mjs")):
                if shutil.which("node") is None:
                    unchecked.append(rel)
                    continue
                cmd = ["node", "--check", str(root / rel)]
                done = subprocess.run(cmd, capture_output=True, text=True)
                assert done.returncode == 0, f"{family.key}: {c}/{rel}: {done.stderr[-500:]}"
    if unchecked:
        pytest.skip(f"node (Node.js) is not installed: node --check not run on {unchecked}")


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_rewrite_preserves_behaviour(family, original_behaviour, tmp_path):
    ran = 0
    for c in COMPONENTS:
        rw = rewrite(family, c)
        if not rw.plan.sites:
            continue
        root = write_copy(rw, tmp_path / c)
        assert behaviour(c, root, tmp_path) == original_behaviour[c], (
            f"{family.key} changed what {c} does"
        )
        ran += 1
        if family.number == 12 and rw.plan.alternatives:
            other = behaviour(c, root, tmp_path, env={"KB_META_ALT": "1"})
            assert other != original_behaviour[c], f"the alternatives in {c} are never taken"
    assert ran


def test_oracle_sees_a_change_in_behaviour(original_behaviour, tmp_path):
    """The trace comparison can fail: a route path changed by hand is a different program."""
    root = shutil.copytree(SHOP / "api", tmp_path / "api")
    routes = root / "src" / "routes" / "items.js"
    routes.write_text(routes.read_text().replace("router.post('/items'", "router.post('/goods'"))
    assert behaviour("api", root, tmp_path) != original_behaviour["api"]


def test_identity_rewrites_nothing():
    assert all(not rewrite(IDENTITY, c).rendered.files for c in COMPONENTS)
