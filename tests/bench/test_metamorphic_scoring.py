"""The scorer on a real build: the fixture shop, its identity copy, one copy per family and
one deliberately non-preserving copy, all in one KB, built by the real `kb refresh` and
read back through `kb sql --json`. A scorer that cannot fail is a defect, so for every
family a broken extraction (a route's prefix dropped, a fact moved away) must lower its
invariance, and a rewrite that changes a route must show up."""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from bench.metamorphic.edits import Rendered
from bench.metamorphic.facts import KINDS, Fact, read_facts
from bench.metamorphic.families import FAMILIES
from bench.metamorphic.runner import build, git
from bench.metamorphic.scorer import ComponentRewrite, score_family
from tests.bench.meta_support import COMPONENTS, SHOP, read_component, rewrite, write_copy, write_kb

IDS = [f"{f.number:02d}-{f.key}" for f in FAMILIES]


@pytest.fixture(scope="module")
def shop_build(tmp_path_factory):
    """Facts per project: `base` (the fixture as it is), `f00` (an identical copy), `fNN`
    (family NN's rewrite), `broken` (POST /items registered as /goods); and the rewrites."""
    root = tmp_path_factory.mktemp("shop-build")
    rewrites: dict[str, dict[str, ComponentRewrite]] = {}
    for c in COMPONENTS:
        shutil.copytree(SHOP / c, root / "repos" / "base" / c)
        shutil.copytree(SHOP / c, root / "repos" / "f00" / c)
        shutil.copytree(SHOP / c, root / "repos" / "broken" / c)
    routes = root / "repos" / "broken" / "api" / "src" / "routes" / "items.js"
    routes.write_text(routes.read_text().replace("router.post('/items'", "router.post('/goods'"))
    for family in FAMILIES:
        project = f"f{family.number:02d}"
        rewrites[project] = {}
        for c in COMPONENTS:
            rw = rewrite(family, c)
            write_copy(rw, root / "repos" / project / c)
            if rw.rendered.files:
                rewrites[project][c] = ComponentRewrite(
                    rw.rendered, rw.plan.alternatives, rw.plan.equivalent_bases
                )
    projects = ["base", "f00", "broken", *rewrites]
    kb = write_kb(root, projects)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "fixture")
    build(kb, root / "data")
    by_project: dict[str, list[Fact]] = {p: [] for p in projects}
    for f in read_facts(kb, root / "data"):
        if f.project in by_project:
            by_project[f.project].append(replace(f, project="shop"))
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
