"""The no-op check of `kb refresh` and its build lock, without importing Dagster.

The published manifest records what the warehouse was built from: the KB content
hash, each component's version and the assets' code versions. When all of them
still hold, nothing is stale. A test checks that this answer agrees with Dagster's
own automation-condition evaluation.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from assets.code_versions import current_code_versions
from kb.model import KnowledgeBase
from kb.versions import component_versions
from warehouse.integrity import damaged_files
from warehouse.reader import MANIFEST


@dataclass
class Staleness:
    reasons: list[str] = field(default_factory=list)
    stale_components: list[str] = field(default_factory=list)

    @property
    def up_to_date(self) -> bool:
        return not self.reasons


@contextlib.contextmanager
def build_lock(data_dir: Path) -> Iterator[None]:
    """One build at a time per data dir (post-commit hooks can fire together)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / "refresh.lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("waiting for another kb refresh on this warehouse …", flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def versions_cache(data_dir: Path) -> Path:
    """Where the last commit per component folder is remembered between runs."""
    return data_dir / "versions-cache.json"


def staleness(kb: KnowledgeBase, data_dir: Path) -> Staleness:
    """What changed since the published build (empty when nothing did)."""
    result = Staleness()
    try:
        manifest = json.loads((data_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        result.reasons.append("no warehouse published yet")
        return result
    for damaged in damaged_files(data_dir, manifest):
        result.reasons.append(f"warehouse file {damaged} — `kb refresh` rebuilds it")
    if manifest.get("kb_hash") != kb.content_hash:
        result.reasons.append(f"KB edited (built {manifest.get('kb_hash')}, now {kb.content_hash})")
    built = manifest.get("components") or {}
    current = component_versions(
        {c.key: c.repo_path for c in kb.components()}, versions_cache(data_dir)
    )
    for comp in kb.components():
        now = current[comp.key]
        was = (built.get(comp.key) or {}).get("version")
        if was != now:
            result.stale_components.append(comp.key)
            result.reasons.append(f"{comp.key}: built {was or 'never'}, now {now}")
    for gone in sorted(set(built) - {c.key for c in kb.components()}):
        result.reasons.append(f"{gone}: removed from the KB")
    built_code = manifest.get("code_versions") or {}
    for name, version in sorted(current_code_versions().items()):
        if built_code.get(name) != version:
            result.reasons.append(f"code of {name} changed ({built_code.get(name)} -> {version})")
    return result
