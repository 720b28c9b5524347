"""Extract one component into staging unless its staged facts are already current.

Plain Python (no Dagster): the `code_facts` asset calls it for the partitions of its
run; a cold `kb refresh` may start it earlier (`extract_ahead`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from extractors import extract_component
from extractors.base import LANGUAGE_BY_SUFFIX
from kb import progress
from kb.model import Component
from kb.versions import component_version, component_versions, versions_cache
from vocab import CODE_SKIP_DIRS
from vocab.memory import peak_rss_mb
from warehouse.catalog import component_frames
from warehouse.code_stage import read_stamp, restamp, write_component_facts
from warehouse.fact_guard import guard_facts

# Below this many components a worker's start-up (imports) costs more than it saves.
PARALLEL_FROM = 4
# Fewer components are worth extracting ahead of the run (`extract_ahead`) from this much
# source (~0.5 s of parsing): a worker's start-up then hides behind Dagster's.
AHEAD_FROM_BYTES = 4_000_000


def extract_to_stage(
    data_dir: Path,
    comp: Component,
    code_version: str,
    force: bool = False,
    version: str | None = None,
) -> dict:
    """Returns the component's stamp, with `reused` telling whether extraction was skipped.
    `version` is the component's version when the caller already knows it."""
    version = version or component_version(comp.repo_path)
    stamp = {"version": version, "code_version": code_version, "repo": str(comp.repo_path)}
    if comp.nested:  # monorepo: other components' folders inside this one are theirs
        stamp["nested"] = list(comp.nested)
    old = read_stamp(data_dir, comp.key)
    if version == "missing":
        return _missing(data_dir, comp, stamp, old)
    if not force and _current(old, version, code_version, comp.nested):
        return {**old, "reused": True}
    facts = (
        extract_component(comp.project, comp.id, comp.repo_path, comp.nested)
        if comp.repo_path
        else None
    )
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


Job = tuple[Path, Component, str, str | None]  # data dir, component, code, version (None: read it)


def _extract_one(args: Job) -> tuple[str, dict]:
    data_dir, comp, code_version, version = args
    return comp.key, extract_to_stage(data_dir, comp, code_version, version=version)


def _extract_in_worker(args: Job) -> tuple[str, dict, float]:
    key, stamp = _extract_one(args)
    return key, stamp, peak_rss_mb()


def extract_many(
    data_dir: Path, comps: list[Component], code_version: str, workers: int | None = None
) -> dict[str, dict]:
    """Stamps of many components. Components are independent, so several stale ones are
    extracted in parallel worker processes (spawned: the caller may hold threads).

    Their versions are read here in one batch (a few git calls per repo, through the
    cache the observation just filled), not per component (three git processes each).
    Components whose staged facts are current are not sent to a worker; those extracted
    ahead of the run (`extract_ahead`) are taken from there."""
    folders = {c.key: c.repo_path for c in comps}
    versions = component_versions(folders, versions_cache(data_dir))
    progress.report("extract", total=len(comps))
    done = dict(_reported(_taken_from_ahead(data_dir, code_version, comps, versions)))
    stamps = {c.key: read_stamp(data_dir, c.key) for c in comps if c.key not in done}
    nested = {c.key: c.nested for c in comps}
    current = [
        k for k, old in stamps.items() if _current(old, versions[k], code_version, nested[k])
    ]
    done |= dict(_reported((k, {**stamps[k], "reused": True}) for k in current))
    jobs = [(data_dir, c, code_version, versions[c.key]) for c in comps if c.key not in done]
    workers = min(workers or os.cpu_count() or 1, len(jobs))
    if workers < 2 or len(jobs) < PARALLEL_FROM:
        return done | dict(_reported(map(_extract_one, jobs)))
    with _pool(workers) as pool:
        futures = [pool.submit(_extract_in_worker, job) for job in _longest_first(jobs)]
        return done | dict(_reported(_peak_noted(f.result()) for f in as_completed(futures)))


def _current(
    stamp: dict | None, version: str | None, code_version: str, nested: tuple[str, ...] = ()
) -> bool:
    return bool(
        stamp
        and version
        and stamp.get("version") == version
        and stamp.get("code_version") == code_version
        and stamp.get("nested", []) == list(nested)
    )


def _pool(workers: int) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_exit_with_parent,
        initargs=(os.getpid(),),
    )


def _exit_with_parent(parent: int) -> None:
    """A worker ends when the process that started it is gone (a killed `kb refresh`):
    otherwise it waits forever, holding its memory, on a queue nobody feeds any more.
    `parent` comes from the parent itself: it may be gone before this runs."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _longest_first(jobs: list[Job], sizes: dict[str, int] | None = None) -> list[Job]:
    """Longest first: one component can be half the work (a bundled vendor folder); started
    last, it leaves the other workers idle while it runs alone. `sizes`: source bytes by
    component key, when the caller has read them already."""
    sizes = sizes or {job[1].key: source_bytes(job[1].repo_path) for job in jobs}
    return sorted(jobs, key=lambda job: sizes[job[1].key], reverse=True)


@dataclass
class _Ahead:
    data_dir: Path
    code_version: str
    pool: ProcessPoolExecutor
    futures: dict[str, Future]


# The extraction a cold `kb refresh` started before loading Dagster (`extract_ahead`).
_ahead: _Ahead | None = None


def extract_ahead(data_dir: Path, comps: list[Component], code_version: str) -> list[str]:
    """Start extracting, in worker processes, the components whose staged facts are not
    current, and return their keys. A cold `kb refresh` calls this before it spends ~1.5 s
    of one core loading Dagster, opening the instance and evaluating the conditions; the
    `code_facts` step of its run then takes the results (`extract_many`), checking each
    against the version it sees then. Dagster still decides what is stale: a component
    it does not ask for was only staged early, as the run would have staged it.

    Worth it from `PARALLEL_FROM` components or `AHEAD_FROM_BYTES` of source; less is
    extracted in the run itself, in process."""
    global _ahead
    if _ahead is not None:
        return []
    stamps = {c.key: read_stamp(data_dir, c.key) for c in comps}
    known = {c.key: c.repo_path for c in comps if stamps[c.key]}
    # A component never staged needs extracting whatever its version: its worker reads it
    # (in parallel), sparing a first build ~15 ms of git per component here.
    versions = component_versions(known, versions_cache(data_dir)) if known else {}
    jobs: list[Job] = [
        (data_dir, c, code_version, versions.get(c.key))
        for c in comps
        if c.repo_path is not None
        and c.repo_path.is_dir()
        and not _current(stamps[c.key], versions.get(c.key), code_version, c.nested)
    ]
    cores = os.cpu_count() or 1
    if not jobs or cores < 2:  # one core: nothing for the workers to overlap with
        return []
    sizes = {job[1].key: source_bytes(job[1].repo_path) for job in jobs}
    if len(jobs) < PARALLEL_FROM and sum(sizes.values()) < AHEAD_FROM_BYTES:
        return []
    pool = _pool(min(cores, len(jobs)))
    futures = {j[1].key: pool.submit(_extract_in_worker, j) for j in _longest_first(jobs, sizes)}
    _ahead = _Ahead(data_dir.resolve(), code_version, pool, futures)
    return list(futures)


def _taken_from_ahead(
    data_dir: Path, code_version: str, comps: list[Component], versions: dict[str, str]
) -> Iterator[tuple[str, dict]]:
    """The stamps of `comps` extracted ahead, as they finish, of the version seen now. A
    component committed to since, or whose worker failed, is left to the run."""
    global _ahead
    ahead = _ahead
    if ahead is None or ahead.data_dir != data_dir.resolve() or ahead.code_version != code_version:
        return
    wanted = {f: c.key for c in comps if (f := ahead.futures.pop(c.key, None)) is not None}
    for future in as_completed(wanted):
        try:
            key, stamp = _peak_noted(future.result())
        except Exception:  # raised again, as a step failure, when the run extracts it
            continue
        if stamp.get("version") == versions[key]:
            yield key, stamp
    if not ahead.futures:
        settle_ahead()


def settle_ahead() -> None:
    """Wait for the extraction started ahead (what it has not begun is dropped) and stop
    its workers: staged folders are only ever replaced whole."""
    global _ahead
    if _ahead is not None:
        ahead, _ahead = _ahead, None
        ahead.pool.shutdown(wait=True, cancel_futures=True)


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
