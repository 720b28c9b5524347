"""The floors of the house: every first-party import points down, and nothing loops.

Walks every module's imports with `ast` (top-level and the lazy ones inside functions),
so a forbidden arrow fails here before it becomes a start-up cost or an import cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]
# Which first-party packages each layer may import (besides itself). Top floor first.
LOWER = {"kb", "extractors", "warehouse"}
ALLOWED: dict[str, set[str]] = {
    "cli": {"pipeline", "assets", "mcp_server", "viewer", *LOWER},
    "pipeline": {"assets", *LOWER},
    "assets": set(LOWER),
    "mcp_server": {"warehouse", "kb"},
    "viewer": {"warehouse", "kb"},
    "warehouse": {"kb", "extractors"},
    "extractors": set(),
    "kb": set(),
}
# Loops another change removes (issue 10: the HTTP-call core of extractors/ is being split).
PENDING_LOOPS = {frozenset({"extractors.http_calls", "extractors.http_python"})}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return found


def _graph() -> nx.DiGraph:
    """Module → first-party module it imports (only names that are modules of ours)."""
    files = {
        _module_name(p): p
        for layer in ALLOWED
        for p in (ROOT / layer).rglob("*.py")
        if "node_modules" not in p.parts
    }
    graph = nx.DiGraph()
    graph.add_nodes_from(files)
    for module, path in files.items():
        for name in _imports(path, module):
            if name in files and name != module:
                graph.add_edge(module, name)
    return graph


def test_no_layer_imports_upward_or_sideways():
    bad = sorted(
        f"{src} imports {dst}"
        for src, dst in _graph().edges
        if (a := src.split(".")[0]) != (b := dst.split(".")[0]) and b not in ALLOWED[a]
    )
    assert not bad, "forbidden imports:\n" + "\n".join(bad)


def test_no_import_loop_between_files_or_packages():
    graph = _graph()
    loops = [
        " -> ".join(c)
        for c in nx.simple_cycles(graph)
        if len(c) > 1 and frozenset(c) not in PENDING_LOOPS
    ]
    assert not loops, "file-level import loops:\n" + "\n".join(loops[:20])
    folders = nx.DiGraph()
    for src, dst in graph.edges:
        a, b = src.rpartition(".")[0] or src, dst.rpartition(".")[0] or dst
        # a package's __init__ counts as the package folder itself
        a = src if (ROOT / src.replace(".", "/")).is_dir() else a
        b = dst if (ROOT / dst.replace(".", "/")).is_dir() else b
        if a != b and not (a.startswith(b + ".") or b.startswith(a + ".")):
            folders.add_edge(a, b)
    loops = [" -> ".join(c) for c in nx.simple_cycles(folders)]
    assert not loops, "folder-level import loops:\n" + "\n".join(loops[:20])
