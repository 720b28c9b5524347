"""The floors of the house: no package imports upward, and no module imports itself back.

Every `import` / `from ... import` of every project module is read from the source (AST,
imports inside functions and under TYPE_CHECKING included, so a lazy import is still an
arrow) and checked against LAYERS, the same map as docs/ARCHITECTURE.md. A forbidden
arrow fails with `file:line: a -> b`; a loop between modules fails with the loop.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parents[2]

# Package -> the project packages it may import (itself always). Read bottom-up: `vocab`
# is the floor every layer stands on; a package never imports one listed above it.
DOMAIN = {"vocab", "kb", "extractors", "warehouse"}
BROKERS = {"doc_context", "verification"}
LAYERS: dict[str, set[str]] = {
    "vocab": set(),
    "kb": {"vocab"},
    "extractors": {"vocab"},
    # storage and graph data: plus the fact types (`extractors.facts`, see ONLY_MODULES)
    "warehouse": {"vocab", "kb", "extractors"},
    "doc_context": {"vocab", "kb", "warehouse"},
    "verification": {"vocab", "kb", "warehouse"},
    "assets": DOMAIN | BROKERS,
    "pipeline": DOMAIN | BROKERS | {"assets"},
    "cli": DOMAIN | BROKERS | {"assets", "pipeline", "mcp_server", "viewer"},
    # readers of the published warehouse; `kb_context` asks the doc context broker
    "mcp_server": {"vocab", "kb", "warehouse", "doc_context"},
    "viewer": {"vocab", "kb", "warehouse"},
}
# Where a package may import only some modules of another.
ONLY_MODULES: dict[tuple[str, str], set[str]] = {("warehouse", "extractors"): {"extractors.facts"}}
# Third-party packages a layer must never import (Dagster stays in assets/pipeline/cli).
BANNED_THIRD_PARTY: dict[str, set[str]] = {
    package: {"dagster", "dagster_webserver"}
    for package in LAYERS
    if package not in {"assets", "pipeline", "cli"}
}

# Arrows that live in the other renovation branches (issue 10: the CLI moves out of
# pipeline/ into cli/, partitions/resources/schedules move into assets/). Each entry is
# (importing module, imported module). The integrator empties this list after merging;
# `test_known_until_merge_is_still_needed` says which entries went stale.
KNOWN_UNTIL_MERGE: set[tuple[str, str]] = set()
# Module loops in the extractors branch's area (http_calls <-> http_python).
KNOWN_CYCLES_UNTIL_MERGE: set[frozenset[str]] = set()


@dataclass(frozen=True)
class Arrow:
    src: str  # importing module, dotted
    dst: str  # imported project module (or package), dotted
    where: str  # path:line

    @property
    def src_pkg(self) -> str:
        return self.src.split(".")[0]

    @property
    def dst_pkg(self) -> str:
        return self.dst.split(".")[0]


def _modules() -> dict[str, Path]:
    """Dotted name -> file of every module of every project package."""
    out: dict[str, Path] = {}
    for package in LAYERS:
        base = ROOT / package
        if not (base / "__init__.py").is_file():
            continue  # a package of the map that does not exist (yet) on this branch
        for path in sorted(base.rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _resolve(name: str, known: dict[str, Path]) -> str | None:
    """The longest known module that `name` is or is inside of."""
    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        candidate = ".".join(parts[:i])
        if candidate in known:
            return candidate
    return None


def _imports(module: str, path: Path) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """(absolute names imported, line) and the third-party top-level names, of one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    is_pkg = path.name == "__init__.py"
    names: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: anchor on this module's package
                anchor = module.split(".")[: len(module.split(".")) - node.level + is_pkg]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            names.append((base, node.lineno))
            names += [(f"{base}.{alias.name}", node.lineno) for alias in node.names]
    return names, [(n.split(".")[0], line) for n, line in names]


@cache
def import_graph() -> tuple[list[Arrow], list[str]]:
    """Arrows between project modules, and banned third-party imports as `path:line: ...`."""
    known = _modules()
    arrows: set[Arrow] = set()
    banned: list[str] = []
    for module, path in known.items():
        names, tops = _imports(module, path)
        rel = path.relative_to(ROOT).as_posix()
        pkg = module.split(".")[0]
        for name, line in names:
            target = _resolve(name, known)
            # `from pkg import name`: both `pkg` and `pkg.name` are tried; keep the deepest
            if target is not None and target != module:
                arrows.add(Arrow(module, target, f"{rel}:{line}"))
        for top, line in tops:
            if top in BANNED_THIRD_PARTY.get(pkg, ()):
                banned.append(f"{rel}:{line}: {module} imports {top}")
    # drop `from a import b` giving both a and a.b when a.b is the module really meant
    deepest = {
        a
        for a in arrows
        if not any(
            b.src == a.src and b.where == a.where and b.dst.startswith(a.dst + ".") for b in arrows
        )
    }
    return sorted(deepest, key=lambda a: (a.src, a.dst, a.where)), sorted(set(banned))


def _allowed(arrow: Arrow) -> bool:
    src, dst = arrow.src_pkg, arrow.dst_pkg
    if src == dst:
        return True
    if dst not in LAYERS.get(src, set()):
        return False
    only = ONLY_MODULES.get((src, dst))
    return only is None or any(arrow.dst == m or arrow.dst.startswith(m + ".") for m in only)


def forbidden_arrows() -> list[Arrow]:
    arrows, _ = import_graph()
    return [a for a in arrows if not _allowed(a) and (a.src, a.dst) not in KNOWN_UNTIL_MERGE]


def module_cycles() -> list[list[str]]:
    arrows, _ = import_graph()
    graph = nx.DiGraph((a.src, a.dst) for a in arrows)
    cycles = [sorted(c) for c in nx.simple_cycles(graph)]
    return sorted(c for c in cycles if frozenset(c) not in KNOWN_CYCLES_UNTIL_MERGE)


def test_every_layer_imports_only_downward():
    bad = forbidden_arrows()
    assert not bad, "forbidden imports (see docs/ARCHITECTURE.md, 'Layers'):\n" + "\n".join(
        f"{a.where}: {a.src} -> {a.dst}" for a in bad
    )


def test_dagster_stays_in_assets_pipeline_and_cli():
    _, banned = import_graph()
    assert not banned, "\n".join(banned)


def test_no_import_loop_between_modules():
    loops = module_cycles()
    assert not loops, "import loops:\n" + "\n".join(" -> ".join(c) for c in loops)


def test_no_loop_between_packages():
    arrows, _ = import_graph()
    graph = nx.DiGraph(
        (a.src_pkg, a.dst_pkg)
        for a in arrows
        if a.src_pkg != a.dst_pkg and (a.src, a.dst) not in KNOWN_UNTIL_MERGE
    )
    assert not list(nx.simple_cycles(graph))


def test_known_until_merge_is_still_needed():
    """An entry that no longer happens is done: delete it, so the lists only shrink."""
    arrows, _ = import_graph()
    seen = {(a.src, a.dst) for a in arrows if not _allowed(a)}
    stale = sorted(KNOWN_UNTIL_MERGE - seen)
    assert not stale, f"remove from KNOWN_UNTIL_MERGE (fixed by the merge): {stale}"
    graph = nx.DiGraph((a.src, a.dst) for a in arrows)
    loops = {frozenset(c) for c in nx.simple_cycles(graph)}
    gone = sorted(sorted(c) for c in KNOWN_CYCLES_UNTIL_MERGE - loops)
    assert not gone, f"remove from KNOWN_CYCLES_UNTIL_MERGE (fixed by the merge): {gone}"


def test_the_check_sees_a_lazy_upward_import(tmp_path):
    """The walker reads imports inside functions: the test would catch a hidden arrow."""
    path = tmp_path / "mod.py"
    path.write_text("def f():\n    from assets.code import x\n    import dagster\n")
    names, tops = _imports("viewer.mod", path)
    assert ("assets.code", 2) in names and ("dagster", 3) in tops
    assert not _allowed(Arrow("viewer.mod", "assets.code", "mod.py:2"))
    assert not _allowed(Arrow("warehouse.x", "extractors.base", "x.py:1"))
    assert _allowed(Arrow("warehouse.x", "extractors.facts", "x.py:1"))
