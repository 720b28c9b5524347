"""Resources: where the KB and the warehouse live, and the IO manager over staging.

`StagingIOManager` lets the asset graph carry the data: an asset returns its tables
(`{table: DataFrame}`), or its tables per key (`{key: {table: DataFrame}}`) when it is
partitioned by component or keeps one output per project (told apart by shape: the
values are frames, or dicts of frames); a downstream asset receives
the same shape as a parameter. A partitioned upstream arrives as `{partition key:
tables}` for the partitions the input maps to. Storage is `warehouse.staging` (Parquet
under `<data_dir>/staging/<asset>/<key>/`), so the publish step and `kb refresh` read
plain Parquet, never pickles.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import dagster as dg
import polars as pl

from kb.loader import load_config, load_kb
from kb.model import KnowledgeBase
from vocab import DEFAULT_KB, KB_SKIP_DIRS
from warehouse.staging import (
    ALL,
    Tables,
    read_keyed,
    read_stage,
    stage_dir,
    write_keyed,
    write_stage,
)

STAGING = "staging"  # the IO manager's resource key; every asset with tables uses it
# Output metadata `signature <key>`: what that key's tables were computed from, staged
# with them (`warehouse.staging.write_stage`) so a later process can reuse them.
SIGNATURE_META = "signature "


class KbResource(dg.ConfigurableResource):
    """The KB root and its data dir. Empty `data_dir` means kb.yaml's, else `<kb>/.kb`."""

    kb_root: str
    data_dir: str = ""

    def kb(self) -> KnowledgeBase:
        """The parsed KB; re-parsed only when a file under the KB changed (stat check)."""
        root = Path(self.kb_root)
        return _cached_kb(root, self._data_dir_override(), _fingerprint(root))

    def data_path(self) -> Path:
        root = Path(self.kb_root)
        try:
            mtime = (root / "kb.yaml").stat().st_mtime_ns
        except OSError:
            mtime = None
        return _data_path(root, self._data_dir_override(), mtime)

    def _data_dir_override(self) -> Path | None:
        return Path(self.data_dir) if self.data_dir else None


class StagingIOManager(dg.ConfigurableIOManager):
    """Asset outputs as staged Parquet under the KB's data dir (see the module docstring)."""

    kb: KbResource

    def handle_output(self, context: dg.OutputContext, obj) -> None:
        if obj is None:
            return
        data_dir, asset = self.kb.data_path(), _asset(context)
        if context.has_asset_partitions:
            signatures = _signatures(context)
            for key in context.asset_partition_keys:
                write_stage(data_dir, asset, key, obj.get(key, {}), signatures.get(key))
        elif obj and all(isinstance(v, pl.DataFrame) for v in obj.values()):
            write_stage(data_dir, asset, ALL, obj)
        else:  # tables per key (project); also drops keys no longer returned
            write_keyed(data_dir, asset, obj, _signatures(context))

    def load_input(self, context: dg.InputContext):
        data_dir, asset = self.kb.data_path(), _asset(context)
        if context.has_asset_partitions:
            keys = list(context.asset_partition_keys)
            # an input typed Any takes read-on-use tables (`assets.graph.STAGED_FACTS`)
            return read_keyed(data_dir, asset, keys, lazy=context.dagster_type.is_any)
        return self.stored(asset, lazy=context.dagster_type.is_any)

    def stored(self, asset: str, lazy: bool = False) -> Tables | dict[str, Mapping]:
        """The last staged output of `asset`, outside a run too (`kb refresh` reports);
        `lazy`: tables kept per key are read on use."""
        data_dir = self.kb.data_path()
        if stage_dir(data_dir, asset, ALL).is_dir():
            return read_stage(data_dir, asset, ALL)
        return read_keyed(data_dir, asset, lazy=lazy)


def _signatures(context: dg.OutputContext) -> dict[str, str]:
    try:
        meta = context.output_metadata or {}
    except Exception:  # not available outside a step
        return {}
    return {
        name[len(SIGNATURE_META) :]: str(getattr(value, "value", value))
        for name, value in meta.items()
        if name.startswith(SIGNATURE_META)
    }


def _asset(context: dg.OutputContext | dg.InputContext) -> str:
    return context.asset_key.to_python_identifier()


def _fingerprint(root: Path) -> tuple:
    """(path, size, mtime) of every file the loader could read: cheap next to parsing."""
    entries = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d not in KB_SKIP_DIRS or d == "_imports"]
        for name in filenames:
            try:
                st = os.stat(os.path.join(dirpath, name))
            except OSError:
                continue
            entries.append((dirpath, name, st.st_size, st.st_mtime_ns))
    return tuple(sorted(entries))


@lru_cache(maxsize=4)
def _cached_kb(root: Path, data_dir: Path | None, fingerprint: tuple) -> KnowledgeBase:
    return load_kb(root, data_dir)


@lru_cache(maxsize=16)
def _data_path(root: Path, data_dir: Path | None, kb_yaml_mtime: int | None) -> Path:
    """kb.yaml parsed once per edit, not once per asset, output and input."""
    config, _ = load_config(root, data_dir)
    return config.data_dir


def kb_resources(kb_root: str | Path, data_dir: str | Path | None = None) -> dict:
    """The resources every asset needs: the KB and the staging IO manager over it."""
    kb = KbResource(kb_root=str(kb_root), data_dir=str(data_dir) if data_dir else "")
    return {"kb": kb, STAGING: StagingIOManager(kb=kb)}


def kb_resources_from_env() -> dict:
    """`KB_ROOT` / `KB_DATA_DIR` select the KB for `dagster dev`; the example otherwise."""
    return kb_resources(
        os.environ.get("KB_ROOT") or str(DEFAULT_KB), os.environ.get("KB_DATA_DIR") or None
    )
