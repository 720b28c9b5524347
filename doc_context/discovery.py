"""Find the Markdown an agent may need: KB docs and each component repo's own docs.

Buckets (each can be excluded by name):
  kb       every .md of the KB except the data dir `.kb/` (always in; `index/decisions.md`
           is generated but is the cheapest answer to "why" questions)
  imports  `_imports/raw/**.md`: imported originals, kept so a component documented only
           in Confluence is still findable; ranked as unverified and excludable
  root     loose .md at a repo's root
  docs     anything under a `docs/` folder at any depth
  skills   anything under a `skills/` folder (`.claude/skills/`, `.agents/skills/` too)
  meta     all-capitals files one folder below the root (`pkg/README.md`, `pkg/TODO.md`)
`.gitignore` files (nested too) and `node_modules` are respected; files over the size cap
are skipped with a reason instead of being read.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pathspec

from vocab import NOT_SOURCE_DIRS
from vocab.paths import NOT_UTF8, below, shown, utf8_name

BUCKETS = ("kb", "imports", "root", "docs", "skills", "meta")
MARKDOWN = (".md", ".markdown", ".mdx")
MAX_FILE_BYTES = 5 * 1024 * 1024  # same cap as a KB doc (kb/loader.py)
_CAPS = re.compile(r"^[A-Z][A-Z0-9_-]*$")


@dataclass
class DocFile:
    root: Path
    rel: str  # POSIX, relative to root
    bucket: str
    size: int

    @property
    def path(self) -> Path:
        return self.root / self.rel


@dataclass
class Discovery:
    files: list[DocFile] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)  # (rel path, reason)


def repo_bucket(rel: str) -> str | None:
    """Bucket of a repo file by its relative path, or None when it is not indexed."""
    parts = rel.split("/")
    folders = parts[:-1]
    if "skills" in folders:
        return "skills"
    if "docs" in folders:
        return "docs"
    if not folders:
        return "root"
    stem = parts[-1].rsplit(".", 1)[0]
    if len(folders) == 1 and _CAPS.match(stem):
        return "meta"
    return None


def kb_bucket(rel: str) -> str:
    return "imports" if rel.startswith("_imports/") else "kb"


class _Ignores:
    """Nested .gitignore files; the deepest one with an opinion on a path decides."""

    def __init__(self) -> None:
        self.specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []

    def load(self, folder: Path, rel: str) -> bool:
        path = folder / ".gitignore"
        if not path.is_file():
            return False
        try:
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return False
        self.specs.append((rel, pathspec.GitIgnoreSpec.from_lines(lines)))
        return True

    def ignored(self, rel: str, is_dir: bool) -> bool:
        for base, spec in reversed(self.specs):
            if base and not rel.startswith(base + "/"):
                continue
            inner = rel[len(base) + 1 :] if base else rel
            result = spec.check_file(inner + "/" if is_dir else inner)
            if result.include is not None:
                return bool(result.include)
        return False


OUTSIDE = "symlink to a path outside the repo — not read; commit the file itself instead"
SPECIAL = "not a regular file (a FIFO, socket or device) — not read"


def walk_markdown(
    root: Path,
    skip_names: Iterable[str] = (),
    skip_rel: Iterable[str] = (),
    contain: bool = False,
) -> tuple[list[tuple[str, int]], list[tuple[str, str]]]:
    """(rel path, size) of Markdown files under root, honouring .gitignore; plus skips.

    `contain` (a repo): a symlink whose target leaves `root` — another repo's `docs/`, a
    file in a home folder — is not followed, and is named among the skips; so is a
    Markdown name that is no regular file (a FIFO would block the read) or is not UTF-8.
    """
    real_root = os.path.realpath(root)
    skip = NOT_SOURCE_DIRS | set(skip_names)
    skip_paths = set(skip_rel)
    ignores = _Ignores()
    found: list[tuple[str, int]] = []
    skipped: list[tuple[str, str]] = []
    seen: set[str] = set()

    def walk(folder: Path, rel: str) -> None:
        real = os.path.realpath(folder)
        if real in seen:
            return  # symlink loop or a folder reached twice
        seen.add(real)
        loaded = ignores.load(folder, rel)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            skipped.append((rel or ".", f"cannot list folder: {exc.strerror}"))
            return
        for entry in entries:
            child = f"{rel}/{entry.name}" if rel else entry.name
            if not utf8_name(entry.name):
                skipped.append((shown(child), NOT_UTF8))
                continue
            try:
                is_dir, is_file = entry.is_dir(), entry.is_file()
            except OSError:
                continue
            leaves = contain and entry.is_symlink() and (is_dir or is_file)
            if leaves and not below(real_root, os.path.realpath(entry.path)):
                if is_dir or entry.name.lower().endswith(MARKDOWN):
                    skipped.append((child, OUTSIDE))
                continue
            if contain and not (is_dir or is_file) and entry.name.lower().endswith(MARKDOWN):
                if not entry.is_symlink():
                    skipped.append((child, SPECIAL))
                continue
            if is_dir:
                if entry.name in skip or child in skip_paths or ignores.ignored(child, True):
                    continue
                walk(Path(entry.path), child)
            elif is_file and entry.name.lower().endswith(MARKDOWN):
                if ignores.ignored(child, False):
                    continue
                found.append((child, entry.stat().st_size))
        if loaded:
            ignores.specs.pop()  # a folder's .gitignore applies only below it

    walk(root, "")
    return found, skipped


def _collect(
    root: Path, found: list[tuple[str, int]], bucket_of: Any, exclude: set[str]
) -> Discovery:
    out = Discovery()
    for rel, size in found:
        bucket = bucket_of(rel)
        if bucket is None or bucket in exclude:
            continue
        if size > MAX_FILE_BYTES:
            out.skipped.append(
                (rel, f"{size / 2**20:.1f} MB is over the {MAX_FILE_BYTES // 2**20} MB cap")
            )
            continue
        out.files.append(DocFile(root, rel, bucket, size))
    return out


def discover_repo(
    root: Path, exclude_buckets: Iterable[str] = (), skip_rel: Iterable[str] = ()
) -> Discovery:
    """Docs of one repo folder; `skip_rel` are sub-folders owned by other components."""
    root = Path(root)
    if not root.is_dir():
        return Discovery(skipped=[(str(root), "repo folder does not exist")])
    found, skipped = walk_markdown(root, skip_rel=skip_rel, contain=True)
    out = _collect(root, found, repo_bucket, set(exclude_buckets))
    out.skipped[:0] = skipped
    return out


def discover_kb(root: Path, exclude_buckets: Iterable[str] = ()) -> Discovery:
    """The KB's own Markdown; bucket `kb` cannot be excluded, `imports` can."""
    root = Path(root)
    found, skipped = walk_markdown(root)
    exclude = set(exclude_buckets) - {"kb"}
    out = _collect(root, found, kb_bucket, exclude)
    out.skipped[:0] = skipped
    return out


@dataclass
class RepoScope:
    """The folder one component indexes, minus sub-folders other components own."""

    project: str
    component: str
    root: Path
    skip_rel: list[str]
    shared_with: list[str]  # other components of the same project on the same folder


def repo_scopes(components: Iterable[Any]) -> dict[str, RepoScope]:
    """One scope per component key; a folder shared by several components is indexed once.

    `components` are kb.model.Component objects. Within a project the first component
    (by key) on a folder owns it; the others get an empty scope. A component whose folder
    lies inside another's (a monorepo root and its packages) keeps its own folder, and
    the outer one skips it.
    """
    comps = sorted(components, key=lambda c: c.key)
    owners: dict[tuple[str, Path], str] = {}
    scopes: dict[str, RepoScope] = {}
    for c in comps:
        if c.repo_path is None:
            continue
        root = Path(c.repo_path).resolve()
        owner = owners.setdefault((c.project, root), c.key)
        if owner != c.key:
            scopes[owner].shared_with.append(c.id)
            continue
        scopes[c.key] = RepoScope(c.project, c.id, root, [], [])
    for key, scope in scopes.items():
        for other in scopes.values():
            if other.project != scope.project or other is scope:
                continue
            if scope.root in other.root.parents:
                scope.skip_rel.append(other.root.relative_to(scope.root).as_posix())
        scope.skip_rel.sort()
        scopes[key] = scope
    return scopes
