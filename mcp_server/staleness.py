"""Staleness of an answer: is a component's repo still at the version that was built?

A mixin of `mcp_server.state.State` (it reads the manifest through `State.manifest`).
Versions are checked at most every ~2 s and re-checked in a background thread, so git
never sits in a tool call.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from kb.versions import component_version

VERSION_TTL_S = 2.0


class Staleness:
    """`code_graph_stale` lines for the components an answer used."""

    _versions: dict[str, tuple[float, str]]
    _checking: set[str]

    def manifest(self) -> dict[str, Any]:  # provided by State
        raise NotImplementedError

    def current_version(self, repo: str) -> str:
        """The repo's version, checked at most every ~2 s; an expired check is refreshed
        in the background (the answer uses the last one), so git never sits in a call."""
        now = time.monotonic()
        hit = self._versions.get(repo)
        if hit is None:
            version = component_version(Path(repo))
            self._versions[repo] = (time.monotonic(), version)
            return version
        if now - hit[0] >= VERSION_TTL_S and repo not in self._checking:
            self._checking.add(repo)
            threading.Thread(target=self._recheck, args=(repo,), daemon=True).start()
        return hit[1]

    def _recheck(self, repo: str) -> None:
        try:
            self._versions[repo] = (time.monotonic(), component_version(Path(repo)))
        finally:
            self._checking.discard(repo)

    def stale_lines(self, components: set[str]) -> list[str]:
        comps = self.manifest().get("components") or {}
        out = []
        for key in sorted(components):
            info = comps.get(key)
            if not isinstance(info, dict) or not info.get("repo") or not info.get("version"):
                continue
            now = self.current_version(str(info["repo"]))
            if now != info["version"]:
                out.append(f"code_graph_stale: {key} built {info['version']} now {now}")
        return out
