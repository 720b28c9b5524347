"""The extractor registry: adding an extractor is one module and one line here.

CONTRACT (used by the pipeline; keep these signatures):
- `extract_component(project, component, root) -> ComponentFacts`
- `extractors_code_version() -> str`  (changes when any extractor's code changes)

Each extractor module declares `PROVIDES` and `REQUIRES`: tuples of the index classes of
`extractors.shared`. The run order is a topological sort of those declarations (an
extractor runs after every extractor that provides something it requires); between
extractors that do not depend on each other, the order of `EXTRACTORS` decides.
"""

from __future__ import annotations

import gc
import heapq
import importlib
import traceback
from functools import cache
from pathlib import Path
from types import ModuleType

from extractors.base import ComponentContext, collect_files
from extractors.facts import ComponentFacts
from extractors.shared import Shared
from vocab.code_digest import source_digest

EXTRACTORS: list[str] = [
    # one line per extractor module (under extractors/); order only breaks ties
    "js.vue",
    "js.typescript",
    "engine.run",
    "engine.routes",
    "js.calls",  # CALLS_FN through the engine's evaluator: before what reads CALLS_FN
    "python.calls",
    "infra.gateways",
    "infra.codegen",
    "js.buildconsts",
    "js.server_actions",
    "js.cookies",
    "python.symbols",
    "infra.env",
    "infra.constants",
    "engine.env",
    "python.sdk_calls",
    "engine.requests",
    "js.sdk_calls",
    "infra.terraform",
    "infra.packages",
    "infra.contentful",
    "infra.deploy",
    "js.uncalled",  # AFTER_ALL: calls in a function nothing calls
    "parts",  # AFTER_ALL: every route and http_call typed (segments)
    "coverage",  # AFTER_ALL: counts what the others found
]


class RegistryError(Exception):
    """The declared dependencies cannot be satisfied (a cycle, or nobody provides one)."""


def extractors_code_version() -> str:
    """Hash of every extractor module's source (all sub-packages), so a code change
    re-extracts everything."""
    return source_digest(Path(__file__).parent)


def run_order(names: tuple[str, ...], modules: dict[str, ModuleType]) -> list[str]:
    """`names` sorted so every provider of a requirement runs before who requires it;
    ties go to the earlier name in `names` (Kahn's algorithm with a position heap). An
    extractor that declares `AFTER_ALL = True` (coverage: it counts the others' facts)
    runs after every other one."""
    last = [name for name in names if getattr(modules[name], "AFTER_ALL", False)]
    if last:
        first = tuple(name for name in names if name not in last)
        return run_order(first, {n: modules[n] for n in first}) + last
    providers: dict[type, list[str]] = {}
    for name in names:
        for index in modules[name].PROVIDES:
            providers.setdefault(index, []).append(name)
    after: dict[str, set[str]] = {name: set() for name in names}
    for name in names:
        for index in modules[name].REQUIRES:
            if index not in providers:
                raise RegistryError(
                    f"extractor {name} requires {index.__name__}: nobody provides it"
                )
            after[name].update(p for p in providers[index] if p != name)
    position = {name: i for i, name in enumerate(names)}
    waiting = {name: len(deps) for name, deps in after.items()}
    unblocks: dict[str, list[str]] = {name: [] for name in names}
    for name, deps in after.items():
        for dep in deps:
            unblocks[dep].append(name)
    ready = [position[name] for name in names if waiting[name] == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        name = names[heapq.heappop(ready)]
        order.append(name)
        for later in unblocks[name]:
            waiting[later] -= 1
            if waiting[later] == 0:
                heapq.heappush(ready, position[later])
    if len(order) != len(names):
        stuck = sorted(name for name in names if name not in order)
        raise RegistryError(f"extractors depend on each other in a cycle: {', '.join(stuck)}")
    return order


@cache
def _plan(names: tuple[str, ...]) -> list[tuple[str, ModuleType]]:
    modules = {name: importlib.import_module(f"extractors.{name}") for name in names}
    return [(name, modules[name]) for name in run_order(names, modules)]


def plan() -> list[tuple[str, ModuleType]]:
    """(registry name, module) of every extractor, in run order."""
    return _plan(tuple(EXTRACTORS))


def extract_only(project: str, component: str, root: Path, names: set[str]) -> ComponentFacts:
    """The facts of the extractors named (`extractors.<name>` modules) and of those they
    need, nothing else: how the model fixtures run the engine on its own."""
    modules = {n: m for n, m in plan()}
    for name in names:
        modules.setdefault(name, importlib.import_module(f"extractors.{name}"))
    needed = set(names)
    while True:  # every provider of what a needed extractor requires
        wants = {r for n in needed for r in modules[n].REQUIRES}
        more = {n for n, m in modules.items() if set(m.PROVIDES) & wants} - needed
        if not more:
            break
        needed |= more
    ctx = ComponentContext(project, component, Path(root))
    collect_files(ctx)
    for name in run_order(tuple(n for n in modules if n in needed), modules):
        modules[name].extract(ctx)
    ctx.shared = Shared()
    ctx.files.clear()
    return ctx.facts


def extract_component(
    project: str, component: str, root: Path, skip_dirs: tuple[str, ...] = ()
) -> ComponentFacts:
    """Every fact of one component's folder. One extractor failing never stops the others.

    The cyclic GC is paused meanwhile: extraction allocates millions of short-lived objects
    (tree-sitter nodes, match dicts) and the collector's passes over everything alive cost
    about a fifth of the run. What extraction keeps between extractors is dropped at the end
    (`ctx.shared`, the parsed files), so plain reference counting frees it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _extract(project, component, root, skip_dirs)
    finally:
        if enabled:
            gc.enable()


def _extract(project: str, component: str, root: Path, skip_dirs=()) -> ComponentFacts:
    ctx = ComponentContext(project, component, Path(root), frozenset(skip_dirs))
    if not ctx.root.is_dir():
        ctx.problem(
            "error",
            str(root),
            None,
            "missing-repo",
            f"component folder {root} does not exist — check `repo:` in component.md",
        )
        return ctx.facts
    collect_files(ctx)
    for _, module in plan():
        name = module.NAME
        try:
            module.extract(ctx)
        except Exception as exc:  # one broken extractor must not lose the rest
            where = traceback.extract_tb(exc.__traceback__)[-1]
            ctx.problem(
                "error",
                f"{project}/{component}",
                None,
                f"extractor-{name}",
                f"extractor {name} failed: {type(exc).__name__}: {exc} "
                f"(at {Path(where.filename).name}:{where.lineno})",
            )
    ctx.shared = Shared()
    ctx.files.clear()
    return ctx.facts
