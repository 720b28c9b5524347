"""Confluence / Google Drive import into `<kb>/_imports/raw/` (kb-format.md "Imports").

A *source* is one configured hub or folder: `confluence:<page id>` or `drive:<folder id>`.
It is the unit of scheduling (a Dagster partition) and of failure: one source failing
never stops the others.

The HTTP clients (httpx, requests, markdownify) load only when an import runs, so
`kb validate` (which reads `import_problems`) starts without them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from kb.imports.store import import_problems, read_sources

if TYPE_CHECKING:
    from kb.imports.confluence import ImportConfigError, ImportResult

__all__ = [
    "ImportConfigError",
    "ImportResult",
    "import_problems",
    "import_sources",
    "read_sources",
    "run_source",
    "run_imports",
]


def __getattr__(name: str) -> Any:
    """The Confluence client (httpx, markdownify, bs4: ~0.5 s of imports) loads only when
    an import runs, not for every build that merely reads `_imports/raw/`."""
    if name in ("ImportConfigError", "ImportResult"):
        from kb.imports import confluence

        return getattr(confluence, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def import_sources(imports: dict[str, Any] | None) -> list[str]:
    """Every configured source key, in kb.yaml order."""
    imports = imports or {}
    keys = []
    confluence = imports.get("confluence") if isinstance(imports.get("confluence"), dict) else {}
    keys += [f"confluence:{hub}" for hub in confluence.get("hubs") or []]
    drive = imports.get("drive") if isinstance(imports.get("drive"), dict) else {}
    keys += [f"drive:{folder}" for folder in drive.get("folders") or []]
    return keys


def run_source(kb_root: Path, imports: dict[str, Any], key: str) -> ImportResult:
    """Import one source; raises ImportConfigError for config/credential problems."""
    from kb.imports.confluence import ImportConfigError

    system, _, ident = key.partition(":")
    if key not in import_sources(imports):
        raise ImportConfigError(f"{key}: not a configured import source")
    if system == "confluence":
        from kb.imports.confluence import run_confluence

        return run_confluence(Path(kb_root), imports["confluence"], [ident])[0]
    from kb.imports.drive import run_drive

    return run_drive(Path(kb_root), imports["drive"], [ident])[0]


def run_imports(
    kb_root: Path, imports: dict[str, Any], only: str | None = None
) -> list[ImportResult]:
    """Run every source (or those whose key/system matches `only`); failures are results."""
    from kb.imports.confluence import ImportConfigError, ImportResult

    results = []
    for key in import_sources(imports):
        if only and only not in (key, key.partition(":")[0]):
            continue
        try:
            results.append(run_source(kb_root, imports, key))
        except ImportConfigError as exc:
            result = ImportResult(key.partition(":")[0], key.partition(":")[2])
            result.failed.append(str(exc))
            results.append(result)
        except Exception as exc:  # noqa: BLE001 - one source never blocks the others
            result = ImportResult(key.partition(":")[0], key.partition(":")[2])
            result.failed.append(f"{type(exc).__name__}")
            results.append(result)
    return results
