"""What the server holds between calls: the warehouse, cached graphs, version checks.

Everything is keyed by the manifest's build id, so a republish (`Warehouse.refresh()`
sees the manifest's mtime move) swaps every cache at the next call. Only the published
Parquet is read — kb.duckdb is never opened, so a running build is never blocked.
"""

from __future__ import annotations

import difflib
import importlib
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

from kb.loader import KbNotFound, load_config
from mcp_server.budget import Answer, clamp_budget, fit
from mcp_server.graph import ProjectGraph, build_graph
from mcp_server.staleness import VersionWatch
from warehouse.integrity import damaged_files
from warehouse.query_guard import sandbox
from warehouse.reader import GLOBAL, Warehouse, WarehouseMissing
from warehouse.sql_worker import shared_worker

DEFAULT_BUDGET = 2000


class ToolFailure(Exception):
    """An answer that is one line of error text (unknown project, bad argument, ...)."""


@dataclass
class State:
    kb_root: Path
    data_dir: Path | None = None
    default_budget: int = DEFAULT_BUDGET
    adr_proposed_days: int = 30
    verified_max_days: int = 90
    config_error: str | None = None
    warehouse: Warehouse | None = None
    lock: threading.RLock = field(default_factory=threading.RLock)
    _build: str | None = None
    _graphs: dict[str, ProjectGraph] = field(default_factory=dict)
    _shared: dict[str, pl.DataFrame] | None = None
    _cons: dict[str, duckdb.DuckDBPyConnection] = field(default_factory=dict)
    versions: VersionWatch = field(default_factory=VersionWatch)
    _small: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    _derived: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def open(cls, kb_root: Path, data_dir: Path | None = None) -> State:
        state = cls(kb_root=kb_root, data_dir=data_dir)
        try:
            config, _ = load_config(kb_root, data_dir)
        except KbNotFound as exc:
            state.config_error = str(exc)
            if data_dir is not None:
                state.warehouse = Warehouse(data_dir)
            return state
        state.default_budget = config.token_budget
        state.adr_proposed_days = config.adr_proposed_days
        state.verified_max_days = config.verified_max_days
        state.warehouse = Warehouse(config.data_dir)
        return state

    # -- warehouse ---------------------------------------------------------------
    def manifest(self) -> dict[str, Any]:
        if self.warehouse is None:
            raise ToolFailure(self.config_error or "no KB configured — pass --kb DIR")
        try:
            manifest = self.warehouse.manifest()
        except WarehouseMissing as exc:
            raise ToolFailure(str(exc)) from None
        except ValueError:
            raise ToolFailure("warehouse manifest is unreadable — run `kb refresh`") from None
        build = manifest.get("build_id")
        if build != self._build:
            self._drop_caches()
            self._build = build
        if not (self.warehouse.data_dir / manifest["path"]).is_dir():
            raise ToolFailure(
                f"warehouse build {build} is missing (publish in progress or pruned) — "
                "retry in a moment or run `kb refresh`"
            )
        return manifest

    def close(self) -> None:
        """Close every DuckDB connection (at server exit)."""
        self._drop_caches()

    def _drop_caches(self) -> None:
        for con in self._cons.values():
            con.close()
        self._graphs.clear()
        self._cons.clear()
        self._small.clear()
        self._derived.clear()
        self._shared = None

    def projects(self) -> list[str]:
        return [p for p in self.manifest().get("partitions", {}) if p != GLOBAL]

    def check_project(self, project: str | None, allow_all: bool = False) -> str | None:
        """The project to scope to; None means all (only where allowed)."""
        known = self.projects()
        if project in (None, "", "*"):
            if allow_all:
                return None
            if len(known) == 1:
                return known[0]
            raise ToolFailure(
                f"pass project= (one of: {', '.join(sorted(known)[:20])})"
                if known
                else "the warehouse has no projects — check the KB and run `kb refresh`"
            )
        if project not in known:
            near = difflib.get_close_matches(project, known, n=3, cutoff=0.4)
            hint = f" — did you mean {', '.join(near)}?" if near else ""
            listing = ", ".join(sorted(known)[:20])
            raise ToolFailure(f"unknown project '{project}'{hint} (known: {listing})")
        return project

    def read(self, partition: str, table: str) -> pl.DataFrame:
        assert self.warehouse is not None
        try:
            return self.warehouse.read(partition, table)
        except Exception as exc:
            damage = self.damage()
            if damage:
                raise ToolFailure(damage) from None
            if isinstance(exc, OSError):
                raise ToolFailure(
                    f"warehouse changed while reading ({exc.__class__.__name__}) — retry"
                ) from None
            raise

    def damage(self) -> str | None:
        """One line naming a damaged or missing published file, or None."""
        try:
            assert self.warehouse is not None
            found = damaged_files(self.warehouse.data_dir, self.warehouse.manifest(), False)
        except Exception:  # noqa: BLE001 — no manifest: nothing to compare with
            return None
        if not found:
            return None
        more = f" (+{len(found) - 1} more)" if len(found) > 1 else ""
        return f"warehouse file {found[0]}{more} — run `kb refresh` to rebuild it"

    def shared(self) -> dict[str, pl.DataFrame]:
        if self._shared is None:
            self._shared = {t: self.read(GLOBAL, t) for t in ("nodes", "edges")}
        return self._shared

    def rows(self, table: str, partition: str = GLOBAL) -> list[dict[str, Any]]:
        """A small table (docs, adrs, problems) as dicts, cached per build."""
        self.manifest()
        key = f"{partition}/{table}"
        cached = self._small.get(key)
        if cached is None:
            df = self.read(partition, table)
            cached = df.to_dicts() if df.height else []
            self._small[key] = cached
        return cached

    def graph(self, project: str) -> ProjectGraph:
        self.manifest()
        pg = self._graphs.get(project)
        if pg is None:
            own = {t: self.read(project, t) for t in ("nodes", "edges", "unresolved")}
            pg = build_graph(project, own, self.shared())
            self._graphs[project] = pg
        return pg

    def connection(self, project: str | None) -> duckdb.DuckDBPyConnection:
        """Sandboxed in-memory DuckDB over [project, _global] (or _global alone)."""
        manifest = self.manifest()
        key = project or GLOBAL
        con = self._cons.get(key)
        if con is None:
            assert self.warehouse is not None
            parts = [project, GLOBAL] if project else [GLOBAL]
            build = self.warehouse.data_dir / manifest["path"]  # the build the caches are of
            con = self.warehouse.connect(parts, build)
            paths = [
                p.as_posix()
                for part in parts
                for p in (build / f"partition={part}").glob("*.parquet")
            ]
            sandbox(con, paths)
            self._cons[key] = con
        return con

    def stale_lines(self, components: set[str]) -> list[str]:
        return self.versions.stale_lines(self.manifest(), components)

    def cached(self, key: str, make: Callable[[], Any]) -> Any:
        """A value derived from the current build (e.g. every project's settings), made once."""
        self.manifest()
        key = f"derived:{key}"
        if key not in self._derived:
            self._derived[key] = make()
        return self._derived[key]

    # -- answering ---------------------------------------------------------------
    def answer(self, build: Any, budget: int | None) -> str:
        """Run `build(answer)` under the lock and fit its lines into the budget."""
        limit, note = clamp_budget(budget, self.default_budget)
        with self.lock:
            answer = Answer(budget=limit)
            try:
                build(answer)
            except (duckdb.IOException, FileNotFoundError):
                self._drop_caches()
                self._build = None
                raise ToolFailure(
                    "warehouse changed while reading (a build was republished) — retry"
                ) from None
            stale = self.stale_lines(answer.components) if answer.components else []
        answer.notes = stale + ([note] if note else []) + answer.notes
        return fit(answer, limit)


def prewarm(state: State) -> None:
    """Load what every first answer needs (manifest, shared layer, catalog connection),
    start the kb_sql worker, then take each component's version once, so the first
    answer on a big project neither starts git per component nor a DuckDB process."""
    try:
        with state.lock:
            manifest = state.manifest()
            state.shared()
            state.rows("docs")
            state.rows("adrs")
            state.connection(None)
            projects = state.projects()
            if len(projects) == 1:
                state.graph(projects[0])
    except Exception:  # noqa: BLE001 — a missing warehouse is reported per call
        return
    shared_worker().start()
    importlib.import_module("doc_context.search")  # kb_context's (secret scanner: ~1 s)
    repos = {
        str(info["repo"])
        for info in (manifest.get("components") or {}).values()
        if isinstance(info, dict) and info.get("repo")
    }
    for repo in sorted(repos):
        state.versions.current(repo)
