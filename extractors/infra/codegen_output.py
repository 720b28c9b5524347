"""Where a client generator writes: a generator config entry (infra/codegen.py reads them)
and the module path its output is imported by (infra/codegen_calls.py matches imports)."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

SOURCE_EXT = re.compile(r"\.(gen\.)?[cm]?[jt]sx?$")


@dataclass(frozen=True)
class Generator:
    tool: str
    where: str  # `file:line` of the config entry
    input: str
    output: str  # repo-relative folder or module, no extension


def module_path(output: str, base: str) -> str:
    """`output` as written in file `base`, as a repo-relative module path: joined, without
    its source extension or a trailing `/index`."""
    path = posixpath.normpath(posixpath.join(posixpath.dirname(base), output.strip()))
    path = SOURCE_EXT.sub("", path)
    return path.removesuffix("/index") if path != "index" else ""
