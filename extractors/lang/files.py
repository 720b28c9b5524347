"""One adapter per source file for a component's whole extraction: the engine and every
extractor that reads a file's calls, functions or syntax errors ask here, so each file's
tree is indexed by one query walk (`queries/*.scm`) however many passes read it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.lang.js import JsFile
from extractors.lang.python import PyFile

if TYPE_CHECKING:
    from extractors.base import ComponentContext
    from extractors.lang.base import FileAdapter
    from extractors.source import SourceFile


def adapter_of(ctx: ComponentContext, sf: SourceFile) -> FileAdapter:
    """The file's adapter, made on first use and kept in `ctx.shared.adapters`."""
    cache = ctx.shared.adapters
    found = cache.get(sf.rel)
    if found is None:
        found = cache[sf.rel] = PyFile(sf) if sf.language == "python" else JsFile(sf)
    return found


def js_adapter_of(ctx: ComponentContext, sf: SourceFile) -> JsFile:
    """`adapter_of` for a JS-family file (a Vue or Svelte script block included)."""
    found = adapter_of(ctx, sf)
    assert isinstance(found, JsFile), sf.rel
    return found
