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


def utf8_name(name: str) -> bool:
    """False for a name the file system gave with bytes that are not UTF-8 (Python hands
    them over as lone surrogates, which no Parquet, JSON or hash of text can carry)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def shown(rel: str) -> str:
    """`rel` printable: each byte that is not UTF-8 as U+FFFD."""
    return rel.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


NOT_UTF8 = "file name is not valid UTF-8 — not read; rename it"
