"""Is a component's code newer than the build an answer was drawn from?

`component_version` (git: last commit touching the folder plus a hash of uncommitted
changes) is checked at most every ~2 s per repo; an expired check is refreshed in the
background by one checker thread (the answer uses the last one), so git never sits in
a call and a call on a 40-component project starts no threads.
"""

from __future__ import annotations

import queue
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.versions import component_version

VERSION_TTL_S = 2.0


@dataclass
class VersionWatch:
    _versions: dict[str, tuple[float, str]] = field(default_factory=dict)
    _checking: set[str] = field(default_factory=set)
    _queue: queue.SimpleQueue[str] = field(default_factory=queue.SimpleQueue)
    _checker: threading.Thread | None = None

    def current(self, repo: str) -> str:
        now = time.monotonic()
        hit = self._versions.get(repo)
        if hit is None:
            version = component_version(Path(repo))
            self._versions[repo] = (time.monotonic(), version)
            return version
        if now - hit[0] >= VERSION_TTL_S and repo not in self._checking:
            self._checking.add(repo)
            self._queue.put(repo)
            if self._checker is None or not self._checker.is_alive():
                self._checker = threading.Thread(
                    target=self._recheck, daemon=True, name="kb-versions"
                )
                self._checker.start()
        return hit[1]

    def _recheck(self) -> None:
        while True:
            repo = self._queue.get()
            try:
                self._versions[repo] = (time.monotonic(), component_version(Path(repo)))
            finally:
                self._checking.discard(repo)

    def stale_lines(self, manifest: dict[str, Any], components: set[str]) -> list[str]:
        """`code_graph_stale: <component> built <v> now <v>` for each component that moved."""
        comps = manifest.get("components") or {}
        out = []
        for key in sorted(components):
            info = comps.get(key)
            if not isinstance(info, dict) or not info.get("repo") or not info.get("version"):
                continue
            now = self.current(str(info["repo"]))
            if now != info["version"]:
                out.append(f"code_graph_stale: {key} built {info['version']} now {now}")
        return out
