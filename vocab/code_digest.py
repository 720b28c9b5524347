"""Digests of kb-graph's own source, by path: no module is imported to find its files.

The code versions of the assets (and the no-op check of `kb refresh`, which compares
them with the published manifest) hash source files; finding them through
`importlib.util.find_spec` would import each parent package — Dagster-free, but seconds
of imports (secret scanners, DuckDB) for an answer that only needs file bytes.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


DATA_SUFFIXES = (".yaml", ".scm")  # extraction models and tree-sitter queries are code too


def source_digest(root: Path) -> str:
    """12 hex digits over every `*.py` under `root` (recursively) and every model or query
    file (`*.yaml`, `*.scm`) outside a `fixtures` folder: relative path and bytes."""
    digest = hashlib.sha256()
    files = list(root.rglob("*.py")) + [
        p for suffix in DATA_SUFFIXES for p in root.rglob("*" + suffix) if "fixtures" not in p.parts
    ]
    for path in sorted(files):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def module_files(name: str) -> list[Path]:
    """The source files of a module of ours (`pkg` -> every .py under it, `pkg.mod` -> one)."""
    path = ROOT.joinpath(*name.split("."))
    if path.is_dir():
        return sorted(path.rglob("*.py"))
    file = path.with_suffix(".py")
    return [file] if file.is_file() else []
