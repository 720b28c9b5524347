"""Repo folders stay inside repos_root; files inside a repo stay inside that repo.

A component's `repo:` is a path relative to `repos_root`. `../../etc` or `/etc`
would make refresh walk a system folder and store its files as code nodes, so
such a path resolves to nothing and validation names it. (A repo folder that is
itself a symlink placed in repos_root by the owner is followed: it is the owner's
choice, written outside the KB.) Inside a repo, a symlink whose target is outside
the repo is never read: `inside()` (from `vocab.paths`) is the one check for that.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath, PureWindowsPath

from vocab.paths import inside

__all__ = ["inside", "outside_reason", "resolve_repo"]


def outside_reason(repo: object) -> str | None:
    """Why `repo` (the frontmatter value) is not a path inside repos_root, or None."""
    text = str(repo)
    if "\0" in text:
        return "contains a NUL byte"
    if PurePosixPath(text).is_absolute() or PureWindowsPath(text).is_absolute():
        return "is an absolute path"
    parts = PurePosixPath(os.path.normpath(text.replace("\\", "/"))).parts
    if parts and parts[0] == "..":
        return "climbs out with '..'"
    return None


def resolve_repo(repos_root: Path, repo: object) -> Path | None:
    """The repo folder, or None when `repo` is empty or leaves repos_root."""
    if repo in (None, "") or outside_reason(repo):
        return None
    return (repos_root / str(repo)).resolve()
