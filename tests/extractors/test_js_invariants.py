"""Whole-pipeline guarantees for the JS-family extractors: ids unique, edges attached,
byte-identical reruns, and extraction cost within a small multiple of tree-sitter's parse."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from jsrepo import extract

from extractors.base import ComponentContext, collect_files
from extractors.http import calls as http_calls
from extractors.infra import env as env_scan
from extractors.js import express, firebase, nextjs, typescript, vue
from extractors.registry import extract_component
from extractors.source import parser_for

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


def _corpus(root: Path, files: int = 60, functions: int = 40) -> None:
    src = root / "src"
    src.mkdir(parents=True)
    for i in range(files):
        out = [
            "import axios from 'axios';",
            f"import {{ f{(i + 1) % files} }} from './m{(i + 1) % files}';",
            f"const BASE = process.env.API_{i} ?? '';",
        ]
        for j in range(functions):
            out.append(
                f"export async function f{i}_{j}(id: string, body: unknown): Promise<number> {{\n"
                f"  const url = `${{BASE}}/items/${{encodeURIComponent(id)}}`;\n"
                "  const res = await axios.post(url, body, { headers: { 'X-Id': id } });\n"
                f"  const list = [1, 2, 3].map((n) => n * {j}).filter(Boolean);\n"
                f"  return list.length + res.status + f{(i + 1) % files}();\n"
                "}"
            )
        out.append(f"export function f{i}() {{ return 1; }}")
        (src / f"m{i}.ts").write_text("\n".join(out) + "\n")


@pytest.mark.slow
def test_extraction_stays_within_a_small_multiple_of_parse_time(tmp_path):
    _corpus(tmp_path)
    ctx = ComponentContext("p", "c", tmp_path)
    collect_files(ctx)
    parser = parser_for("typescript")
    start = time.process_time()
    for sf in ctx.files.values():
        sf._tree = parser.parse(sf.data)
    parse = time.process_time() - start
    start = time.process_time()
    for module in (vue, typescript, express, nextjs, firebase, env_scan, http_calls):
        module.extract(ctx)
    extraction = time.process_time() - start
    assert len([n for n in ctx.facts.nodes if n.kind == "http_call"]) == 60 * 40
    assert extraction < 3 * parse + 0.3, (extraction, parse)  # CPU time: robust to load
