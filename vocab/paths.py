"""The one check that a path, every symlink followed, stays below a folder.

Used where a repo's files are read (`extractors.base`: a symlink leaving the repo is never
opened) and where facts are stored (`warehouse.fact_guard`, via `kb.repo_paths`).
"""

from __future__ import annotations

import os
from pathlib import Path


def inside(root: Path | str, path: Path | str) -> bool:
    """True when `path`, with every symlink followed, is `root` or below it."""
    return below(os.path.realpath(root), os.path.realpath(path))


def below(real_root: str, real: str) -> bool:
    """`inside` for paths already resolved (`os.path.realpath`)."""
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)
