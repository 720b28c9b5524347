"""List house-rule size violations: .py files over 400 lines, classes over 200 lines.

Usage: `uv run python scripts/sizes.py [path ...]` (default: the whole repo). Prints one
`path:line: what` per violation and exits 1 when there is any, so CI can run it too.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_FILE = 400
MAX_CLASS = 200
SKIP = {".venv", "node_modules", ".git", ".kb", "__pycache__", "corpus", "examples"}


def python_files(paths: list[Path]) -> list[Path]:
    found = []
    for base in paths:
        files = [base] if base.is_file() else base.rglob("*.py")
        found += [f for f in files if not SKIP & set(f.relative_to(ROOT).parts)]
    return sorted(found)


def violations(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(ROOT)
    found = []
    lines = len(text.splitlines())
    if lines > MAX_FILE:
        found.append(f"{rel}:1: file has {lines} lines (max {MAX_FILE}) — split by responsibility")
    for node in ast.walk(ast.parse(text, str(rel))):
        if isinstance(node, ast.ClassDef):
            size = node.end_lineno - node.lineno + 1
            if size > MAX_CLASS:
                found.append(
                    f"{rel}:{node.lineno}: class {node.name} has {size} lines (max {MAX_CLASS})"
                )
    return found


def main(argv: list[str]) -> int:
    paths = [Path(a).resolve() for a in argv] or [ROOT]
    found = [v for f in python_files(paths) for v in violations(f)]
    print("\n".join(found) if found else "sizes: every file and class within the limits")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
