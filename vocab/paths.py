"""The one check that a path, every symlink followed, stays below a folder.

Used where a repo's files are read (`extractors.base`: a symlink leaving the repo is never
opened) and where facts are stored (`warehouse.fact_guard`, via `kb.repo_paths`).
"""

from __future__ import annotations

import os
from pathlib import Path


def inside(root: Path | str, path: Path | str) -> bool:
    """True when `path`, with every symlink followed, is `root` or below it."""
    real_root = os.path.realpath(root)
    real = os.path.realpath(path)
    return real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)
