"""A component's version: what its code graph was built from.

`<commit12>` = the last commit touching the component's folder; `+dirty.<hash8>` is
added when the folder has uncommitted changes (hash of the changed paths and
contents). Outside git the version is `content.<hash12>` of the folder's files.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

SKIP = {".git", "node_modules", ".venv", "__pycache__", "dist", "build", ".next", ".kb"}


def _git(folder: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(folder), *args],
            capture_output=True,
            check=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.decode("utf-8", "surrogateescape")


def _hash_files(base: Path, rel_paths: list[str]) -> str:
    digest = hashlib.sha256()
    for rel in sorted(rel_paths):
        path = base / rel
        digest.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        try:
            if path.is_file():
                digest.update(path.read_bytes())
            else:
                digest.update(b"<deleted>")
        except OSError:
            digest.update(b"<unreadable>")
    return digest.hexdigest()


def content_version(folder: Path) -> str:
    files: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP)
        rel_dir = Path(dirpath).relative_to(folder)
        files.extend((rel_dir / f).as_posix() for f in filenames)
    return "content." + _hash_files(folder, files)[:12]


def component_version(folder: Path | None) -> str:
    """Version of a component folder; `missing` when the folder does not exist."""
    if folder is None or not folder.is_dir():
        return "missing"
    top = _git(folder, "rev-parse", "--show-toplevel")
    if top is None:
        return content_version(folder)
    commit = (_git(folder, "log", "-1", "--format=%H", "--", ".") or "").strip()
    status = (
        _git(folder, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ".") or ""
    )
    toplevel = Path(top.strip())
    changed = []
    for entry in status.split("\0"):
        if len(entry) > 3 and entry[2] == " ":
            changed.append(entry[3:])
    version = commit[:12] if commit else "uncommitted"
    if changed:
        version += ".dirty." + _hash_files(toplevel, changed)[:8]
    return version
