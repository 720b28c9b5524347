"""Whole-pipeline guarantees for the JS-family extractors: ids unique, edges attached,
byte-identical reruns, and no call lost on a large component."""

from __future__ import annotations

from pathlib import Path

import pytest
from jsrepo import extract

from bench.extraction import measure, write_component
from extractors.registry import extract_component

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "repos"


def _component_roots() -> list[Path]:
    return sorted(p for p in EXAMPLES.glob("*/*") if p.is_dir()) if EXAMPLES.is_dir() else []


@pytest.mark.parametrize("root", _component_roots(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_example_components_have_unique_ids_and_attached_edges(root):
    facts = extract_component(root.parent.name, root.name, root)
    ids = [n.id for n in facts.nodes]
    assert len(ids) == len(set(ids))
    known = set(ids)
    assert [e for e in facts.edges if e.src not in known or e.dst not in known] == []
    assert not [p for p in facts.problems if p.rule.startswith("extractor-")]


def test_reruns_are_identical(tmp_path):
    files = {
        "src/a.ts": "import { b } from './b';\nexport const a = () => fetch(`${process.env.API}/x/${b()}`);\n",
        "src/b.ts": "export function b() { return process.env.B ?? 'x'; }\n",
        ".env": "API=https://api.example.com\n",
    }
    first = extract(tmp_path, files).raw
    second = extract_component("p", "c", tmp_path)
    assert first == second


@pytest.mark.slow
def test_a_large_component_yields_every_call(tmp_path):
    """2,400 axios calls over 60 modules: none lost. Its cost is bench/extraction.py's."""
    expected = write_component(tmp_path)
    _, _, calls = measure(tmp_path)
    assert calls == expected == 60 * 40
