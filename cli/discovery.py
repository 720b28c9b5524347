"""Which KB a `kb` command acts on, found like git finds its repository.

Order: `--kb DIR`, else `KB_ROOT`, else the nearest `kb.yaml` from the current folder
upwards, else a `.kb-graph` pointer file found upwards (a code repo's line naming its KB),
else the bundled example — only with `--example`, or with a one-line notice for commands
that only read (commands that write into repos refuse instead).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from vocab import DEFAULT_KB

POINTER_FILE = ".kb-graph"
HOW_TO_POINT = (
    "pass --kb DIR, set KB_ROOT, run inside your KB, or put a .kb-graph file "
    "(one line: the KB path) in your code repo"
)


class NoKbFound(Exception):
    """No KB given or found; the message says how to point at one."""


@dataclass(frozen=True)
class Found:
    root: Path
    how: str  # "--kb", "KB_ROOT", "kb.yaml", ".kb-graph", "--example", "fallback"


def _upwards(start: Path):
    here = start.resolve()
    yield here
    yield from here.parents


def read_pointer(path: Path) -> Path:
    """The KB path a `.kb-graph` file names (first non-comment line, relative to the file)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            target = Path(os.path.expanduser(line))
            return (path.parent / target).resolve() if not target.is_absolute() else target
    raise NoKbFound(f"{path}:1: empty pointer file — write the KB folder's path on one line")


def discover(
    kb: Path | None,
    example: bool = False,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> Found | None:
    """The KB to use, or None when nothing points at one (the caller decides on the example)."""
    env = os.environ if env is None else env
    if kb is not None:
        return Found(Path(kb), "--kb")
    if example:
        return Found(DEFAULT_KB, "--example")
    if env.get("KB_ROOT"):
        return Found(Path(env["KB_ROOT"]), "KB_ROOT")
    start = Path.cwd() if cwd is None else cwd
    for folder in _upwards(start):
        if (folder / "kb.yaml").is_file():
            return Found(folder, "kb.yaml")
    for folder in _upwards(start):
        pointer = folder / POINTER_FILE
        if pointer.is_file():
            target = read_pointer(pointer)
            if not (target / "kb.yaml").is_file():
                raise NoKbFound(
                    f"{pointer}:1: {target} has no kb.yaml — write the KB folder's path there"
                )
            return Found(target, POINTER_FILE)
    return None


def resolve_kb(kb: Path | None, example: bool, writes: bool, quiet: bool = False) -> Path:
    """The KB root for a command; prints the one-line notice when falling back to the example."""
    found = discover(kb, example)
    if found is not None:
        return found.root
    if writes:
        raise NoKbFound(f"no KB found from {Path.cwd()} — {HOW_TO_POINT} (or --example)")
    if not quiet:
        print(
            f"kb: no KB found from here — using the bundled example; {HOW_TO_POINT}",
            file=sys.stderr,
        )
    return DEFAULT_KB
