"""Extraction ahead of Dagster for a cold `kb refresh`, without importing Dagster.

Loading Dagster, opening the instance and evaluating the automation conditions take a
cold refresh ~1.5 s of one core before its run starts. The stale components' extraction
does not wait for them: it starts first, in worker processes, and the run's `code_facts`
step takes what they staged (`assets.extraction.extract_ahead`). Only in the plain
in-process refresh: with a scale-out executor other processes extract.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

from kb.model import KnowledgeBase
from pipeline.settings import selected_executor
from vocab.memory import imports_without_gc


@contextlib.contextmanager
def extraction_ahead(kb: KnowledgeBase, data_dir: Path) -> Iterator[list[str]]:
    """Start the stale components' extraction (their keys are yielded, empty when not
    worth it); on leaving, wait for what is still running and stop the workers."""
    if selected_executor() is not None:
        yield []
        return
    with imports_without_gc():  # the extractors, tree-sitter, polars: imported here first
        from assets.extraction import extract_ahead, settle_ahead
        from extractors import extractors_code_version

    try:
        yield extract_ahead(data_dir, kb.components(), extractors_code_version())
    finally:
        settle_ahead()
