"""The scorer on a real build: the fixture shop, its identity copy, one copy per family and
one deliberately non-preserving copy, all in one KB, built by the real `kb refresh` and
read back through `kb sql --json`. A scorer that cannot fail is a defect, so for every
family a broken extraction (a route's prefix dropped, a fact moved away) must lower its
invariance, and a rewrite that changes a route must show up."""

from __future__ import annotations

import fcntl
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from bench.metamorphic.edits import Alternative, Rendered
from bench.metamorphic.facts import KINDS, Fact, read_facts
from bench.metamorphic.families import FAMILIES
from bench.metamorphic.runner import build, git
from bench.metamorphic.scorer import ComponentRewrite, score_family
from tests.bench.meta_support import COMPONENTS, SHOP, read_component, rewrite, write_copy, write_kb

IDS = [f"{f.number:02d}-{f.key}" for f in FAMILIES]


def _build_shop(root: Path) -> list[str]:
    """Write the repos and the KB under `root` and build them; the projects built."""
    for c in COMPONENTS:
        for project in ("base", "f00", "broken"):
            shutil.copytree(SHOP / c, root / "repos" / project / c)
    routes = root / "repos" / "broken" / "api" / "src" / "routes" / "items.js"
    routes.write_text(routes.read_text().replace("router.post('/items'", "router.post('/goods'"))
    for family in FAMILIES:
        for c in COMPONENTS:
            write_copy(rewrite(family, c), root / "repos" / f"f{family.number:02d}" / c)
    projects = ["base", "f00", "broken", *(f"f{f.number:02d}" for f in FAMILIES)]
    kb = write_kb(root, projects)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "fixture")
    build(kb, root / "data")
    return projects


@pytest.fixture(scope="module")
def shop_build(tmp_path_factory):
    """Facts per project: `base` (the fixture as it is), `f00` (an identical copy), `fNN`
    (family NN's rewrite), `broken` (POST /items registered as /goods); and the rewrites.
    Built once per test run, also under pytest-xdist (the first worker builds, a file lock)."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    root = shared / "metamorphic-shop"
    root.mkdir(exist_ok=True)
    with (root / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (root / "built").exists():
            shutil.rmtree(root / "build", ignore_errors=True)
            (root / "build").mkdir()
            (root / "projects").write_text("\n".join(_build_shop(root / "build")))
            (root / "built").touch()
    projects = (root / "projects").read_text().split("\n")
    by_project: dict[str, list[Fact]] = {p: [] for p in projects}
    for f in read_facts(root / "build" / "kb", root / "build" / "data"):
        if f.project in by_project:
            by_project[f.project].append(replace(f, project="shop"))
    rewrites: dict[str, dict[str, ComponentRewrite]] = {}
    for family in FAMILIES:
        rewrites[f"f{family.number:02d}"] = {
            c: ComponentRewrite(rw.rendered, rw.plan.alternatives, rw.plan.equivalent_bases)
            for c in COMPONENTS
            if (rw := rewrite(family, c)).rendered.files
        }
    return by_project, rewrites


def identity() -> dict[tuple[str, str], ComponentRewrite]:
    return {
        ("shop", c): ComponentRewrite(Rendered(read_component(c).originals)) for c in COMPONENTS
    }


def family_score(shop_build, family, after=None):
    facts, rewrites = shop_build
    project = f"f{family.number:02d}"
    rws = {("shop", c): rw for c, rw in rewrites[project].items()}
    return score_family(facts["base"], facts[project] if after is None else after, rws)


def test_every_fact_kind_is_in_the_fixture(shop_build):
    facts, _ = shop_build
    kinds = {f.kind for f in facts["base"]}
    assert set(KINDS) <= kinds, f"the fixture builds no {set(KINDS) - kinds}"


def test_identical_copy_is_fully_invariant(shop_build):
    facts, _ = shop_build
    result = score_family(facts["base"], facts["f00"], identity())
    assert result["invariance"] == 1.0, result
    assert result["before"] == len(facts["base"])


def test_a_rewrite_that_changes_a_route_is_seen(shop_build):
    facts, _ = shop_build
    result = score_family(facts["base"], facts["broken"], identity())
    assert result["invariance"] < 1.0
    missed = [m["fact"] for m in result["kinds"]["routes"]["misses"]]
    assert any("POST /api/items @ src/routes/items.js" in m for m in missed), missed


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_family_is_scored(shop_build, family):
    result = family_score(shop_build, family)
    assert result["before"] > 0
    assert result["invariant"] == sum(t["invariant"] for t in result["kinds"].values())
    assert result["invariance"] == round(result["invariant"] / result["before"], 4)
    assert result["control_drift"]["count"] == 0
    if family.number == 12:
        assert result["alternatives"]["expected"] > 0


def _break(after: list[Fact], fact: Fact) -> list[Fact]:
    """The same facts with `fact` damaged: a route loses its mount prefix, anything else
    moves ten lines away."""
    out = []
    for g in after:
        if g == fact:
            if g.kind == "routes" and g.a.count("/") > 1:
                method, _, path = g.a.partition(" ")
                g = replace(g, a=f"{method} /{path.split('/', 2)[2]}")
            else:
                g = replace(g, line=g.line + 10)
        out.append(g)
    return out


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
def test_scorer_detects_a_broken_extraction(shop_build, family):
    facts, _ = shop_build
    after = facts[f"f{family.number:02d}"]
    good = family_score(shop_build, family)
    assert good["invariant"] > 0, "nothing invariant to break"
    # the after-fact the scorer matched for some invariant fact: break exactly that one
    broken_once = None
    for g in sorted(after, key=lambda f: (f.kind != "routes", f.kind, f.file, f.line)):
        result = family_score(shop_build, family, _break(after, g))
        if result["invariant"] < good["invariant"]:
            broken_once = (g, result)
            break
    assert broken_once is not None, "no damaged fact lowered the invariance"
    g, result = broken_once
    assert result["invariance"] < 1.0
    assert result["invariance"] < good["invariance"]
    assert result["kinds"][g.kind]["misses"], "the lost fact is not named"


def test_an_alternative_is_expected_of_its_own_registration_not_its_neighbour():
    """Two registrations on consecutive lines, the second's method made a ternary: only the
    second must gain the other method; the first (a line above) is not at that site."""
    src = b"r.post('/a', f);\nr[c ? 'put' : 'post']('/b', g);\n"
    rendered = Rendered({"routes.js": src})
    rendered.files["routes.js"] = src
    before = [
        Fact("routes", "p", "api", "POST /a", "", "routes.js", 1),
        Fact("routes", "p", "api", "POST /b", "", "routes.js", 2),
    ]
    alt = Alternative("routes.js", 2, "method", "POST", "PUT", 2)
    rws = {("p", "api"): ComponentRewrite(rendered, [alt])}
    both = [*before, Fact("routes", "p", "api", "PUT /b", "", "routes.js", 2)]
    assert score_family(before, both, rws)["alternatives"]["expected"] == 1
    assert score_family(before, both, rws)["invariance"] == 1.0
    assert score_family(before, before, rws)["alternatives"]["found"] == 0
