"""The registry runs extractors in an order their declared PROVIDES/REQUIRES allow, and the
facts do not depend on how ties between independent extractors are broken."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from types import SimpleNamespace

import pytest

from extractors import registry
from extractors.registry import RegistryError, extract_component, run_order, source_digest
from extractors.shared import CodeSymbols, JsSymbols, PyModules, VueComponents

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "repos"


def _module(provides=(), requires=()):
    return SimpleNamespace(PROVIDES=provides, REQUIRES=requires)


def test_every_requirement_runs_after_all_its_providers():
    order = [name for name, _ in registry.plan()]
    assert sorted(order) == sorted(registry.EXTRACTORS)
    modules = dict(registry.plan())
    for i, name in enumerate(order):
        for index in modules[name].REQUIRES:
            providers = [n for n in order if index in modules[n].PROVIDES]
            assert providers, f"{name} requires {index.__name__}, which nobody provides"
            assert all(order.index(p) < i for p in providers if p != name), (name, index)


def test_order_follows_declarations_not_the_list():
    modules = {
        "routes": _module(requires=(PyModules, CodeSymbols)),
        "symbols": _module(provides=(PyModules, CodeSymbols)),
        "vue": _module(provides=(VueComponents, CodeSymbols)),
        "ts": _module(provides=(JsSymbols, CodeSymbols), requires=(VueComponents,)),
        "alone": _module(),
    }
    names = ("routes", "ts", "alone", "symbols", "vue")
    assert run_order(names, modules) == ["alone", "symbols", "vue", "ts", "routes"]


def test_a_cycle_or_a_missing_provider_is_named():
    cycle = {
        "a": _module(provides=(JsSymbols,), requires=(PyModules,)),
        "b": _module(provides=(PyModules,), requires=(JsSymbols,)),
    }
    with pytest.raises(RegistryError, match="cycle: a, b"):
        run_order(("a", "b"), cycle)
    with pytest.raises(RegistryError, match="requires VueComponents: nobody provides it"):
        run_order(("a",), {"a": _module(requires=(VueComponents,))})


def _facts(root: Path) -> list[str]:
    facts = extract_component(root.parent.name, root.name, root)
    rows = [
        f"{table}\t{json.dumps(asdict(row), sort_keys=True, default=str)}"
        for table in ("nodes", "edges", "unresolved", "catalog", "problems")
        for row in getattr(facts, table)
    ]
    return sorted(rows)


@pytest.mark.slow
def test_reversed_tie_break_gives_the_same_facts(monkeypatch):
    """If a dependency were undeclared, running independent extractors the other way round
    would change some fact of the example portfolio."""
    roots = sorted(p for p in EXAMPLES.glob("*/*") if p.is_dir())
    assert roots
    before = {root: _facts(root) for root in roots}
    order = [name for name, _ in registry.plan()]
    monkeypatch.setattr(registry, "EXTRACTORS", list(reversed(registry.EXTRACTORS)))
    assert [name for name, _ in registry.plan()] != order
    for root in roots:
        assert _facts(root) == before[root], root


def test_code_version_covers_files_in_sub_packages(tmp_path):
    (tmp_path / "js").mkdir()
    (tmp_path / "base.py").write_text("A = 1\n")
    (tmp_path / "js" / "vue.py").write_text("B = 1\n")
    first = source_digest(tmp_path)
    (tmp_path / "js" / "vue.py").write_text("B = 2\n")
    assert source_digest(tmp_path) != first
    assert len(registry.extractors_code_version()) == 12
