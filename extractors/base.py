"""Shared machinery for extractors: the file walk and the context of one component.

Every extractor is a module with `NAME: str`, `PROVIDES` / `REQUIRES` (tuples of the
`extractors.shared` index classes it fills / reads) and `extract(ctx: ComponentContext) ->
None` that appends facts to `ctx.facts`. Files are read once here and parsed once
(`source.SourceFile.tree` is cached), whichever extractor asks first.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pathspec
from tree_sitter import Node as TsNode

from extractors.facts import ComponentFacts, Edge, ExtractProblem, Node, Unresolved
from extractors.shared import Shared
from extractors.source import SourceFile, captures
from vocab import CODE_SKIP_DIRS

MAX_FILE_BYTES = 1_000_000
LANGUAGE_BY_SUFFIX = {
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".vue": "vue",
    ".py": "python",
    ".tf": "hcl",
    ".json": "json",
}


@dataclass
class ComponentContext:
    """What one component's extraction shares: files, facts so far, cross-extractor state."""

    project: str
    component: str
    root: Path
    files: dict[str, SourceFile] = field(default_factory=dict)
    facts: ComponentFacts = field(default_factory=ComponentFacts)
    shared: Shared = field(default_factory=Shared)

    def node_id(self, kind: str, qualifier: str) -> str:
        return f"{self.project}/{self.component}:{kind}:{qualifier}"

    def by_language(self, *languages: str) -> list[SourceFile]:
        return [f for f in self.files.values() if f.language in languages]

    def add_node(
        self,
        kind: str,
        qualifier: str,
        name: str,
        file: str | None = None,
        line: int | None = None,
        end_line: int | None = None,
        **attrs: Any,
    ) -> str:
        node_id = self.node_id(kind, qualifier)
        self.facts.nodes.append(
            Node(node_id, kind, name, self.project, self.component, file, line, end_line, attrs)
        )
        return node_id

    def add_edge(
        self,
        src: str,
        dst: str,
        type: str,
        file: str | None = None,
        line: int | None = None,
        **attrs: Any,
    ) -> None:
        self.facts.edges.append(
            Edge(src, dst, type, self.project, self.component, file, line, attrs)
        )

    def unresolved(self, file: str, line: int, kind: str, expr: str, reason: str) -> None:
        self.facts.unresolved.append(
            Unresolved(self.project, self.component, file, line, kind, expr[:200], reason)
        )

    def problem(self, severity: str, path: str, line: int | None, rule: str, message: str) -> None:
        self.facts.problems.append(ExtractProblem(severity, path, line, rule, message))


def report_syntax_errors(
    ctx: ComponentContext, sf: SourceFile, errors: list[TsNode] | None = None
) -> None:
    """Tree-sitter recovers from errors; say where the first one is so facts are trusted less."""
    root = sf.tree.root_node
    if not root.has_error:
        return
    if errors is None:
        errors = captures(sf.language or "", "(ERROR) @e", root).get("e", [])
    line = min((SourceFile.line(n) for n in errors), default=None)
    ctx.problem(
        "warning",
        sf.rel,
        line,
        "syntax-error",
        f"syntax error near line {line}; facts from the rest of the file are kept",
    )


def _gitignore(root: Path) -> pathspec.PathSpec | None:
    path = root / ".gitignore"
    if not path.is_file():
        return None
    lines = path.read_text("utf-8", "replace").splitlines()
    return pathspec.PathSpec.from_lines("gitwildmatch", lines)


def _is_minified(rel: str, data: bytes) -> bool:
    if rel.endswith((".min.js", ".min.mjs", ".bundle.js")):
        return True
    lines = data.count(b"\n") + 1
    return len(data) > 20_000 and len(data) / lines > 400


def collect_files(ctx: ComponentContext) -> None:
    """Walk the component folder: skip ignored/vendored/built/minified/binary/huge files."""
    root = ctx.root
    ignore = _gitignore(root)
    seen_dirs: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        real = os.path.realpath(dirpath)
        if real in seen_dirs:
            dirnames[:] = []
            continue
        seen_dirs.add(real)
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in CODE_SKIP_DIRS and not (ignore and ignore.match_file(rel_dir + d + "/"))
        )
        for name in sorted(filenames):
            rel = rel_dir + name
            if ignore and ignore.match_file(rel):
                continue
            _read_one(ctx, Path(dirpath) / name, rel)


def _read_one(ctx: ComponentContext, path: Path, rel: str) -> None:
    suffix = path.suffix.lower()
    interesting = (
        suffix in LANGUAGE_BY_SUFFIX
        or path.name.startswith(".env")
        or path.name
        in {
            "Dockerfile",
            "requirements.txt",
            "pyproject.toml",
            "app.yaml",
            "firebase.json",
            "package-lock.json",
            "yarn.lock",
            "pnpm-lock.yaml",
            "poetry.lock",
            "uv.lock",
            "Pipfile",
        }
        or suffix in {".tfvars", ".yaml", ".yml", ".toml", ".cfg", ".txt", ".prisma"}
    )
    if not interesting:
        return
    try:
        if path.is_symlink() and not path.exists():
            ctx.problem("warning", rel, None, "broken-symlink", "broken or looping symlink skipped")
            return
        size = path.stat().st_size
        if size > MAX_FILE_BYTES and not rel.endswith(
            ("package-lock.json", "yarn.lock", "pnpm-lock.yaml")
        ):
            ctx.problem(
                "warning",
                rel,
                None,
                "too-large",
                f"skipped: {size:,} bytes is over the {MAX_FILE_BYTES:,}-byte cap",
            )
            return
        data = path.read_bytes()
    except OSError as exc:
        ctx.problem("warning", rel, None, "unreadable", f"skipped: {exc.strerror or exc}")
        return
    if b"\0" in data[:8192]:
        return  # binary
    language = LANGUAGE_BY_SUFFIX.get(suffix)
    if language in {"javascript", "typescript", "tsx"} and _is_minified(rel, data):
        return
    ctx.files[rel] = SourceFile(rel, path, data, language)
