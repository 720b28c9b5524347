"""Shared machinery for extractors: the file walk and the context of one component.

Every extractor is a module with `NAME: str`, `PROVIDES` / `REQUIRES` (tuples of the
`extractors.shared` index classes it fills / reads) and `extract(ctx: ComponentContext) ->
None` that appends facts to `ctx.facts`. Files are read once here and parsed once
(`source.SourceFile.tree` is cached), whichever extractor asks first.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pathspec
from tree_sitter import Node as TsNode

from extractors.facts import ComponentFacts, Edge, ExtractProblem, Node, Unresolved
from extractors.shared import Shared
from extractors.source import SourceFile, captures
from vocab import CODE_SKIP_DIRS
from vocab.paths import NOT_UTF8, inside, shown, utf8_name

MAX_FILE_BYTES = 1_000_000
MAX_LOCK_BYTES = 50_000_000  # lock files are read whole up to here (monorepos grow large ones)
LOCK_FILES = ("package-lock.json", "yarn.lock", "pnpm-lock.yaml")
_OUTSIDE = "symlink to a path outside the repo — not read; commit the file itself instead"
_SPECIAL = "skipped: not a regular file (FIFO, device or socket)"
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
    ".svelte": "svelte",
    ".py": "python",
    ".tf": "hcl",
    ".json": "json",
}

# Source languages kb-graph does not extract: their files are counted, never read, so the
# coverage table says a component's Go or Java code is not in the graph (extractors/coverage.py).
UNREAD_LANGUAGE_BY_SUFFIX = {
    ".go": "Go", ".java": "Java", ".kt": "Kotlin", ".kts": "Kotlin", ".scala": "Scala",
    ".rb": "Ruby", ".php": "PHP", ".cs": "C#", ".fs": "F#", ".rs": "Rust", ".ex": "Elixir",
    ".exs": "Elixir", ".swift": "Swift", ".dart": "Dart", ".cpp": "C++", ".cc": "C++",
    ".c": "C", ".clj": "Clojure", ".hs": "Haskell", ".lua": "Lua", ".pl": "Perl",
    ".pm": "Perl", ".r": "R", ".groovy": "Groovy",
}  # fmt: skip

# `<name>.<ext><suffix>` is read as `<name>.<ext>` when that file is absent (a config module
# kept out of git, shipped as an example): JS family only, where imports resolve to it.
STAND_IN_SUFFIXES = (".example", ".sample", ".dist", ".template")
STAND_IN_LANGUAGES = {"javascript", "typescript", "tsx"}


@dataclass
class ComponentContext:
    """What one component's extraction shares: files, facts so far, cross-extractor state."""

    project: str
    component: str
    root: Path
    # folders (relative to root) of other components nested in this one: not this one's
    skip_dirs: frozenset[str] = frozenset()
    files: dict[str, SourceFile] = field(default_factory=dict)
    # language -> the files of it the walk saw and did not read (UNREAD_LANGUAGE_BY_SUFFIX)
    unread: dict[str, list[str]] = field(default_factory=dict)
    facts: ComponentFacts = field(default_factory=ComponentFacts)
    shared: Shared = field(default_factory=Shared)
    # find_node's index over facts.nodes[:_indexed]: id -> (first, last) node with that id
    _by_id: dict[str, tuple[Node, Node]] = field(default_factory=dict, repr=False)
    _indexed: int = field(default=0, repr=False)

    def node_id(self, kind: str, qualifier: str) -> str:
        return f"{self.project}/{self.component}:{kind}:{qualifier}"

    def find_node(self, node_id: str | None, last: bool = False) -> Node | None:
        """The first (`last`: the latest) node added with this id, else None. Indexed as
        nodes are appended, so a lookup per file or route costs no scan of every node."""
        nodes = self.facts.nodes
        if self._indexed > len(nodes):
            self._by_id, self._indexed = {}, 0
        if self._indexed < len(nodes):
            by_id = self._by_id
            for node in nodes[self._indexed :]:
                seen = by_id.get(node.id)
                by_id[node.id] = (seen[0] if seen else node, node)
            self._indexed = len(nodes)
        found = self._by_id.get(node_id) if node_id is not None else None
        return None if found is None else found[1 if last else 0]

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


class Skipped(Exception):
    """A repo file that is not read: (rule, one-line message)."""

    def __init__(self, rule: str, message: str):
        super().__init__(message)
        self.rule = rule
        self.message = message


def read_repo_file(root: Path, path: Path, cap: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of the repo at `root`, or `Skipped` saying why not.

    Never opened: a symlink whose target leaves the repo (`/etc/passwd`, `/dev/zero`, a home
    folder), a broken or looping link, a FIFO, device or socket (opened non-blocking and
    checked on the open descriptor, so a FIFO cannot stall the walk), a file over `cap`.
    """
    if path.is_symlink():
        if not path.exists():
            raise Skipped("broken-symlink", "broken or looping symlink skipped")
        if not inside(root, path):
            raise Skipped("symlink-outside-repo", _OUTSIDE)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):  # never open a device: opening may act
            raise Skipped("special-file", _SPECIAL)
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise Skipped("unreadable", f"skipped: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Skipped("special-file", _SPECIAL)
        if info.st_size > cap:
            raise Skipped(
                "too-large", f"skipped: {info.st_size:,} bytes is over the {cap:,}-byte cap"
            )
        chunks: list[bytes] = []
        left = cap + 1  # a file that grows while read still stops at the cap
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
    except OSError as exc:
        raise Skipped("unreadable", f"skipped: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > cap:
        raise Skipped("too-large", f"skipped: over the {cap:,}-byte cap")
    return data


def _gitignore(ctx: ComponentContext) -> pathspec.PathSpec | None:
    path = ctx.root / ".gitignore"
    if not (path.is_file() or path.is_symlink()):
        return None
    try:
        data = read_repo_file(ctx.root, path)
    except Skipped as skip:
        ctx.problem("warning", ".gitignore", None, skip.rule, skip.message)
        return None
    lines = data.decode("utf-8", "replace").splitlines()
    return pathspec.GitIgnoreSpec.from_lines(lines)  # git's own rules, as `git status` reads them


def _is_minified(rel: str, data: bytes) -> bool:
    if rel.endswith((".min.js", ".min.mjs", ".bundle.js")):
        return True
    lines = data.count(b"\n") + 1
    return len(data) > 20_000 and len(data) / lines > 400


def collect_files(ctx: ComponentContext) -> None:
    """Walk the component folder: skip ignored/vendored/built/minified/binary/huge files."""
    root = ctx.root
    ignore = _gitignore(ctx)
    seen_dirs: set[str] = set()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        real = os.path.realpath(dirpath)
        if real in seen_dirs:
            dirnames[:] = []
            continue
        seen_dirs.add(real)
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        rel_dir = "" if rel_dir == "." else rel_dir + "/"
        for name in [n for n in (*dirnames, *filenames) if not utf8_name(n)]:
            ctx.problem("warning", shown(rel_dir + name), None, "file-name", NOT_UTF8)
        dirnames[:] = sorted(
            d
            for d in dirnames
            if d not in CODE_SKIP_DIRS
            and utf8_name(d)
            and rel_dir + d not in ctx.skip_dirs
            and not (ignore and ignore.match_file(rel_dir + d + "/"))
        )
        dirnames[:] = [d for d in dirnames if _plain_entry(ctx, Path(dirpath) / d, rel_dir + d)]
        for name in sorted(filenames):
            rel = rel_dir + name
            if not utf8_name(name) or (ignore and ignore.match_file(rel)):
                continue
            if _plain_entry(ctx, Path(dirpath) / name, rel):
                _read_one(ctx, Path(dirpath) / name, rel)


def _plain_entry(ctx: ComponentContext, path: Path, rel: str) -> bool:
    """False, with a warning, for what the walk never enters or reads, whatever its name:
    a link out of the repo (another repo's `docs/`, a home folder) and a FIFO, socket or
    device (a `README.md` that is a FIFO blocks whoever opens it). The doc index walks
    past the same entries; the warning here is the one a person sees (`problems`)."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    if stat.S_ISLNK(mode):
        if os.path.exists(path) and not inside(ctx.root, path):
            ctx.problem("warning", rel, None, "symlink-outside-repo", _OUTSIDE)
            return False
        return True
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        ctx.problem("warning", rel, None, "special-file", _SPECIAL)
        return False
    return True


def _read_one(ctx: ComponentContext, path: Path, rel: str) -> None:
    suffix = path.suffix.lower()
    if suffix in UNREAD_LANGUAGE_BY_SUFFIX:
        ctx.unread.setdefault(UNREAD_LANGUAGE_BY_SUFFIX[suffix], []).append(rel)
        return
    inner = Path(path.stem).suffix.lower()
    if suffix in STAND_IN_SUFFIXES and LANGUAGE_BY_SUFFIX.get(inner) in STAND_IN_LANGUAGES:
        if path.with_suffix("").exists():  # `config.ts.example` stands in for an absent config.ts
            return
        suffix = inner
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
            "Procfile",
            ".nvmrc",
            ".node-version",
            ".python-version",
            ".tool-versions",
        }
        or path.name.startswith("Dockerfile")
        or suffix == ".dockerfile"
        or (suffix == ".in" and "requirements" in rel)  # pip-tools inputs
        or suffix in {".tfvars", ".yaml", ".yml", ".toml", ".cfg", ".txt", ".prisma"}
        or suffix == ".conf"  # nginx and other gateways' config (extractors/models/gateway)
    )
    if not interesting:
        return
    cap = MAX_LOCK_BYTES if rel.endswith(LOCK_FILES) else MAX_FILE_BYTES
    try:
        data = read_repo_file(ctx.root, path, cap)
    except Skipped as skip:
        ctx.problem("warning", rel, None, skip.rule, skip.message)
        return
    if b"\0" in data[:8192]:
        return  # binary
    language = LANGUAGE_BY_SUFFIX.get(suffix)
    if language in {"javascript", "typescript", "tsx"} and _is_minified(rel, data):
        return
    ctx.files[rel] = SourceFile(rel, path, data, language)
