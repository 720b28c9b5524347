"""Where a client generator writes: a generator config entry (infra/codegen.py reads them)
and the module path its output is imported by (infra/codegen_calls.py matches imports)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

_EXT = re.compile(r"\.(gen\.)?[cm]?[jt]sx?$")


@dataclass(frozen=True)
class Generator:
    tool: str
    where: str  # `file:line` of the config entry
    input: str
    output: str  # repo-relative folder or module, no extension


def _norm(output: str, base: str) -> str:
    path = posixpath.normpath(posixpath.join(posixpath.dirname(base), output.strip()))
    path = _EXT.sub("", path)
    return path.removesuffix("/index") if path != "index" else ""
