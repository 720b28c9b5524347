"""Resources: where the KB and the warehouse live."""

from __future__ import annotations

import os
from pathlib import Path

import dagster as dg

from kb.loader import load_config, load_kb
from kb.model import KnowledgeBase

DEFAULT_KB = Path(__file__).resolve().parents[1] / "examples" / "kb"


class KbResource(dg.ConfigurableResource):
    """The KB root and its data dir. Empty `data_dir` means kb.yaml's, else `<kb>/.kb`."""

    kb_root: str
    data_dir: str = ""

    def kb(self) -> KnowledgeBase:
        return load_kb(Path(self.kb_root), self._data_dir_override())

    def data_path(self) -> Path:
        config, _ = load_config(Path(self.kb_root), self._data_dir_override())
        return config.data_dir

    def _data_dir_override(self) -> Path | None:
        return Path(self.data_dir) if self.data_dir else None


def kb_resource_from_env() -> KbResource:
    """`KB_ROOT` / `KB_DATA_DIR` select the KB for `dagster dev`; the example otherwise."""
    return KbResource(
        kb_root=os.environ.get("KB_ROOT", str(DEFAULT_KB)),
        data_dir=os.environ.get("KB_DATA_DIR", ""),
    )
