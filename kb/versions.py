"""A component's version: what its code graph was built from.

`<commit12>` = the last commit touching the component's folder; `+dirty.<hash8>` is
added when the folder has uncommitted changes (hash of the changed paths and
contents). Outside git the version is `content.<hash12>` of the folder's files.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import subprocess
from pathlib import Path
from typing import Any

from kb.repo_paths import inside
from vocab import CODE_SKIP_DIRS


def versions_cache(data_dir: Path) -> Path:
    """Where the last commit per component folder is remembered between runs (against each
    repo's HEAD): the observation, the no-op check and the extraction share it."""
    return data_dir / "versions-cache.json"


def _git(folder: Path, *args: str) -> str | None:
    try:
        out = subprocess.run(
            # read-only: never take index.lock (a person's `git commit` would then fail
            # with "index.lock: File exists" while a refresh looks at the repo)
            ["git", "--no-optional-locks", "-C", str(folder), *args],
            capture_output=True,
            check=True,
            timeout=30,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.decode("utf-8", "surrogateescape")


HASH_WHOLE_BYTES = 16 * 2**20  # larger files count by size and mtime, not content


def _hash_content(digest: Any, path: Path) -> None:
    """A file's bytes in 1 MB pieces; a file over HASH_WHOLE_BYTES (an untracked dump of a
    gigabyte) by its size and mtime, so a version read costs bounded memory and time."""
    info = path.stat()
    if info.st_size > HASH_WHOLE_BYTES:
        digest.update(f"<large {info.st_size} {info.st_mtime_ns}>".encode())
        return
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)


def _hash_files(base: Path, rel_paths: list[str]) -> str:
    digest = hashlib.sha256()
    for rel in sorted(rel_paths):
        path = base / rel
        digest.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        try:
            if path.is_symlink() and not inside(base, path):  # never read outside the repo
                digest.update(b"<link>" + os.readlink(path).encode("utf-8", "surrogateescape"))
            elif path.is_file():
                _hash_content(digest, path)
            else:
                digest.update(b"<deleted>")
        except OSError:
            digest.update(b"<unreadable>")
    return digest.hexdigest()


def content_version(folder: Path) -> str:
    files: list[str] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if d not in CODE_SKIP_DIRS)
        rel_dir = Path(dirpath).relative_to(folder)
        files.extend((rel_dir / f).as_posix() for f in filenames)
    return "content." + _hash_files(folder, files)[:12]


def component_version(folder: Path | None) -> str:
    """Version of a component folder; `missing` when the folder does not exist."""
    if folder is None or not folder.is_dir():
        return "missing"
    top = _git(folder, "rev-parse", "--show-toplevel")
    if top is None:
        return content_version(folder)
    commit = (_git(folder, "log", "-1", "--format=%H", "--", ".") or "").strip()
    status = (
        _git(folder, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", ".") or ""
    )
    toplevel = Path(top.strip())
    changed = []
    for entry in status.split("\0"):
        if len(entry) > 3 and entry[2] == " ":
            changed.append(entry[3:])
    version = commit[:12] if commit else "uncommitted"
    if changed:
        version += ".dirty." + _hash_files(toplevel, changed)[:8]
    return version


def _toplevel(folder: Path, known: dict[Path, Path | None] | None = None) -> Path | None:
    """The enclosing git work tree, found by walking up to a `.git` (no subprocess);
    `known` remembers the answer per folder walked, for sibling components."""
    known = {} if known is None else known
    walked = []
    for candidate in (folder, *folder.parents):
        if candidate in known:
            top = known[candidate]
            break
        walked.append(candidate)
        if (candidate / ".git").exists():
            top = candidate
            break
    else:
        top = None
    known.update(dict.fromkeys(walked, top))
    return top


def _dirty_by_folder(top: Path, rels: dict[str, str]) -> dict[str, list[str]]:
    status = _git(top, "status", "--porcelain=v1", "-z", "--untracked-files=all") or ""
    changed = [e[3:] for e in status.split("\0") if len(e) > 3 and e[2] == " "]
    out: dict[str, list[str]] = {key: [] for key in rels}
    for path in changed:
        for key, rel in rels.items():
            if rel == "" or path == rel or path.startswith(rel + "/"):
                out[key].append(path)
    return out


def _last_commits(top: Path, rels: dict[str, str], cache: dict) -> dict[str, str]:
    """Last commit touching each folder; reuses the cache unless HEAD moved past it."""
    head = (_git(top, "rev-parse", "HEAD") or "").strip()
    entry = cache.get(str(top)) or {}
    known: dict[str, str] = dict(entry.get("folders") or {}) if entry.get("head") else {}
    todo = [key for key, rel in rels.items() if rel not in known]
    if entry.get("head") and entry["head"] != head:
        # Only a fast-forward keeps untouched folders' last commits; a rewrite renames them.
        ancestor = _git(top, "merge-base", "--is-ancestor", entry["head"], head) is not None
        diff = _git(top, "diff", "--name-only", "-z", entry["head"], head) if ancestor else None
        if diff is None:
            known, todo = {}, list(rels)
        else:
            paths = [p for p in diff.split("\0") if p]
            for key, rel in rels.items():
                if any(rel == "" or p == rel or p.startswith(rel + "/") for p in paths):
                    todo.append(key)
    for key in set(todo):
        rel = rels[key]
        known[rel] = (_git(top, "log", "-1", "--format=%H", "--", rel or ".") or "").strip()
    cache[str(top)] = {"head": head, "folders": known}
    return {key: known.get(rel, "") for key, rel in rels.items()}


def component_versions(
    folders: dict[str, Path | None], cache_file: Path | None = None
) -> dict[str, str]:
    """`component_version` for many folders at once: a few git calls per repo, not per folder.

    The last commit per folder is cached in `cache_file` against the repo's HEAD; when HEAD
    moves, only folders that `git diff` says changed are asked again.
    """
    import json

    cache: dict = {}
    if cache_file is not None and cache_file.is_file():
        try:
            cache = json.loads(cache_file.read_text(encoding="utf-8"))
        except ValueError:
            cache = {}
    versions: dict[str, str] = {}
    by_top: dict[Path, dict[str, str]] = {}
    tops: dict[Path, Path | None] = {}
    for key, folder in folders.items():
        if folder is None or not folder.is_dir():
            versions[key] = "missing"
            continue
        real = folder.resolve()
        top = _toplevel(real, tops)
        if top is None:
            versions[key] = content_version(folder)
            continue
        rel = real.relative_to(top).as_posix()
        by_top.setdefault(top, {})[key] = "" if rel == "." else rel
    for top, rels in by_top.items():
        commits = _last_commits(top, rels, cache)
        dirty = _dirty_by_folder(top, rels)
        for key in rels:
            version = commits[key][:12] if commits[key] else "uncommitted"
            if dirty[key]:
                version += ".dirty." + _hash_files(top, dirty[key])[:8]
            versions[key] = version
    if cache_file is not None and by_top:
        tmp = cache_file.with_name(cache_file.name + f".tmp-{os.getpid()}")
        try:  # a cache: a read-only or full data dir only costs the next read its git calls
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps(cache, sort_keys=True), encoding="utf-8")
            os.replace(tmp, cache_file)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)
    return versions
