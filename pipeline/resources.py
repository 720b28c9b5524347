"""Resources: where the KB and the warehouse live."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import dagster as dg

from kb.loader import load_config, load_kb
from kb.model import KnowledgeBase
from vocab import DEFAULT_KB, KB_SKIP_DIRS


class KbResource(dg.ConfigurableResource):
    """The KB root and its data dir. Empty `data_dir` means kb.yaml's, else `<kb>/.kb`."""

    kb_root: str
    data_dir: str = ""

    def kb(self) -> KnowledgeBase:
        """The parsed KB; re-parsed only when a file under the KB changed (stat check)."""
        root = Path(self.kb_root)
        return _cached_kb(root, self._data_dir_override(), _fingerprint(root))

    def data_path(self) -> Path:
        config, _ = load_config(Path(self.kb_root), self._data_dir_override())
        return config.data_dir

    def _data_dir_override(self) -> Path | None:
        return Path(self.data_dir) if self.data_dir else None


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


def kb_resource_from_env() -> KbResource:
    """`KB_ROOT` / `KB_DATA_DIR` select the KB for `dagster dev`; the example otherwise."""
    return KbResource(
        kb_root=os.environ.get("KB_ROOT", str(DEFAULT_KB)),
        data_dir=os.environ.get("KB_DATA_DIR", ""),
    )
