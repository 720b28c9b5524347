"""The extractor registry: adding an extractor is one module and one line here.

CONTRACT (used by the pipeline; keep these signatures):
- `extract_component(project, component, root) -> ComponentFacts`
- `extractors_code_version() -> str`  (changes when any extractor's code changes)

Order matters: later extractors read what earlier ones left in `ctx.shared`
(symbols and imports before routes, routes before HTTP calls).
"""

from __future__ import annotations

import gc
import hashlib
import importlib
import traceback
from pathlib import Path

from extractors.base import ComponentContext, collect_files
from extractors.facts import ComponentFacts

EXTRACTOR_MODULES: list[str] = [
    # one line per extractor, in run order
    "vue",
    "typescript",
    "express",
    "nextjs",
    "firebase",
    "python",
    "python_routes",
    # env_scan, http_calls last: they attribute reads/calls to symbols of every language
    "env_scan",
    "http_calls",
    "terraform",
    "packages",
    "contentful",
]


def extractors_code_version() -> str:
    """Hash of every extractor module's source, so a code change re-extracts everything."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(here.rglob("*.py")):
        digest.update(path.relative_to(here).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def extract_component(project: str, component: str, root: Path) -> ComponentFacts:
    """Every fact of one component's folder. One extractor failing never stops the others.

    The cyclic GC is paused meanwhile: extraction allocates millions of short-lived objects
    (tree-sitter nodes, match dicts) and the collector's passes over everything alive cost
    about a fifth of the run. What extraction keeps between extractors is dropped at the end
    (`ctx.shared`, the parsed files), so plain reference counting frees it.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _extract(project, component, root)
    finally:
        if enabled:
            gc.enable()


def _extract(project: str, component: str, root: Path) -> ComponentFacts:
    ctx = ComponentContext(project, component, Path(root))
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
    for name in EXTRACTOR_MODULES:
        module = importlib.import_module(f"extractors.{name}")
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
    ctx.shared.clear()
    ctx.files.clear()
    return ctx.facts
