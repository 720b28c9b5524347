"""Extract one component into staging unless its staged facts are already current.

Plain Python (no Dagster): the `code_facts` asset calls it once per partition in its run.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from extractors import extract_component
from extractors.base import LANGUAGE_BY_SUFFIX
from kb import progress
from kb.model import Component
from kb.versions import component_version
from vocab import CODE_SKIP_DIRS
from vocab.memory import peak_rss_mb
from warehouse.catalog import component_frames
from warehouse.code_stage import read_stamp, restamp, write_component_facts
from warehouse.fact_guard import guard_facts

# Below this many components a worker's start-up (imports) costs more than it saves.
PARALLEL_FROM = 4


def extract_to_stage(
    data_dir: Path, comp: Component, code_version: str, force: bool = False
) -> dict:
    """Returns the component's stamp, with `reused` telling whether extraction was skipped."""
    version = component_version(comp.repo_path)
    stamp = {"version": version, "code_version": code_version, "repo": str(comp.repo_path)}
    old = read_stamp(data_dir, comp.key)
    if version == "missing":
        return _missing(data_dir, comp, stamp, old)
    if (
        not force
        and old
        and old.get("version") == version
        and old.get("code_version") == code_version
    ):
        return {**old, "reused": True}
    facts = extract_component(comp.project, comp.id, comp.repo_path) if comp.repo_path else None
    facts = guard_facts(facts, comp.repo_path) if facts is not None else None
    tables = component_frames(facts) if facts is not None else {}
    write_component_facts(data_dir, comp.key, tables, stamp)
    return {**stamp, "reused": False}


def _missing(data_dir: Path, comp: Component, stamp: dict, old: dict | None) -> dict:
    """A checkout that is not there: its last staged facts are kept (the stamp says from
    which version), or, never extracted, it is staged empty and marked unavailable."""
    if old is not None:
        kept = {**old, "version": "missing", "kept_from": old.get("kept_from") or old["version"]}
        restamp(data_dir, comp.key, kept)
        return {**kept, "reused": True}
    write_component_facts(data_dir, comp.key, {}, {**stamp, "unavailable": True})
    return {**stamp, "unavailable": True, "reused": False}


# The largest peak memory of an extraction worker process in this process's lifetime
# (`kb refresh` prints it in its cost line).
worker_peak_mb = 0.0


def _extract_one(args: tuple[Path, Component, str]) -> tuple[str, dict]:
    data_dir, comp, code_version = args
    return comp.key, extract_to_stage(data_dir, comp, code_version)


def _extract_in_worker(args: tuple[Path, Component, str]) -> tuple[str, dict, float]:
    key, stamp = _extract_one(args)
    return key, stamp, peak_rss_mb()


def extract_many(
    data_dir: Path, comps: list[Component], code_version: str, workers: int | None = None
) -> dict[str, dict]:
    """Stamps of many components. Components are independent, so several stale ones are
    extracted in parallel worker processes (spawned: the caller may hold threads)."""
    workers = min(workers or os.cpu_count() or 1, len(comps))
    jobs = [(data_dir, c, code_version) for c in comps]
    progress.report("extract", total=len(jobs))
    if workers < 2 or len(comps) < PARALLEL_FROM:
        return dict(_reported(map(_extract_one, jobs)))
    # Longest first: one component can be half the work (a bundled vendor folder); started
    # last, it leaves the other workers idle while it runs alone.
    jobs.sort(key=lambda job: source_bytes(job[1].repo_path), reverse=True)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(_extract_in_worker, job) for job in jobs]
        return dict(_reported(_peak_noted(f.result()) for f in as_completed(futures)))


def _peak_noted(result: tuple[str, dict, float]) -> tuple[str, dict]:
    global worker_peak_mb
    key, stamp, peak = result
    worker_peak_mb = max(worker_peak_mb, peak)
    return key, stamp


def source_bytes(root: Path) -> int:
    """Bytes of the source files under `root` (skipped folders left out): the estimate of
    a component's extraction cost that orders the parallel work."""
    total, stack = 0, [root]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except OSError:
            continue
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                if entry.name not in CODE_SKIP_DIRS:
                    stack.append(Path(entry.path))
            elif os.path.splitext(entry.name)[1].lower() in LANGUAGE_BY_SUFFIX:
                with contextlib.suppress(OSError):
                    total += entry.stat(follow_symlinks=False).st_size
    return total


def _reported(results):
    for key, stamp in results:
        progress.report("extracted", key=key, reused=stamp.get("reused", False))
        yield key, stamp
