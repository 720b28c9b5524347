"""The no-op check of `kb refresh` and its build lock, without importing Dagster.

The published manifest records what the warehouse was built from: the KB content
hash, each component's version and the assets' code versions. When all of them
still hold, nothing is stale. A test checks that this answer agrees with Dagster's
own automation-condition evaluation.

`quick_staleness` answers the everyday no-op without parsing the KB: a stat fingerprint
of the files the loader reads (`KB_FINGERPRINT`, written after each full check) stands
for the KB hash and the components' repo folders it last produced. Any difference in a
Markdown file's size, mtime, inode or mode, in the folder listing or in kb.yaml /
vocabulary.yaml sends `kb refresh` back to the full check.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from assets.code_versions import current_code_versions
from kb.loader import iter_markdown
from kb.model import KbConfig, KnowledgeBase
from kb.repo_paths import resolve_repo
from kb.versions import component_versions, versions_cache
from warehouse.integrity import MANIFEST, damaged_files, duckdb_damage

KB_FINGERPRINT = "kb-fingerprint.json"
RACY_S = 2.0  # a file written this recently may change again within its mtime tick
# Written by the build (under the build lock this check holds), never racing it.
REPORT = "verification-report.md"


@dataclass
class Staleness:
    reasons: list[str] = field(default_factory=list)
    stale_components: list[str] = field(default_factory=list)

    @property
    def up_to_date(self) -> bool:
        return not self.reasons


@contextlib.contextmanager
def build_lock(data_dir: Path) -> Iterator[None]:
    """One build at a time per data dir (post-commit hooks can fire together)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    with open(data_dir / "refresh.lock", "w") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print("waiting for another kb refresh on this warehouse …", flush=True)
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield


@dataclass
class Fingerprint:
    """A stat digest of every file `load_kb` reads, taken before loading the KB."""

    digest: str
    newest: float  # newest mtime among those files
    taken: float = field(default_factory=time.time)


def kb_fingerprint(root: Path) -> Fingerprint:
    problems: list = []
    digest = hashlib.sha256()
    newest = 0.0
    for path in [root / "kb.yaml", root / "vocabulary.yaml", *iter_markdown(root, problems)]:
        try:
            st = os.stat(path)
        except OSError:
            digest.update(f"{path}\0-\n".encode("utf-8", "surrogateescape"))
            continue
        if path.parent != root or path.name != REPORT:
            newest = max(newest, st.st_mtime)
        line = f"{path}\0{st.st_size}:{st.st_mtime_ns}:{st.st_ino}:{st.st_mode}\n"
        digest.update(line.encode("utf-8", "surrogateescape"))
    for problem in problems:
        digest.update(problem.render().encode() + b"\0")
    return Fingerprint(digest.hexdigest(), newest)


def quick_staleness(config: KbConfig) -> tuple[Staleness, int, str] | None:
    """(staleness, number of components, KB hash) from the KB fingerprint, or None when the KB
    may have changed since it was written (then load the KB and call `staleness`)."""
    try:
        known = json.loads((config.data_dir / KB_FINGERPRINT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if known.get("stat") != kb_fingerprint(config.root).digest:
        return None
    repos = known["components"].items()
    folders = {key: resolve_repo(config.repos_root, repo) for key, repo in repos}
    state = staleness_of(known["kb_hash"], folders, config.data_dir)
    return state, len(folders), known["kb_hash"]


def staleness(
    kb: KnowledgeBase, data_dir: Path, seen: Fingerprint | None = None, verify: bool = True
) -> Staleness:
    """What changed since the published build (empty when nothing did). `seen`, the KB's
    fingerprint taken before `kb` was loaded, is remembered for `quick_staleness` unless
    a file was written too recently to trust its mtime."""
    folders = {c.key: c.repo_path for c in kb.components()}
    result = staleness_of(kb.content_hash, folders, data_dir, verify)
    repos = {c.key: c.field("repo") for c in kb.components()}
    plain = all(r is None or isinstance(r, str) for r in repos.values())
    if seen is not None and plain and seen.taken - seen.newest > RACY_S and data_dir.is_dir():
        record = {"stat": seen.digest, "kb_hash": kb.content_hash, "components": repos}
        tmp = data_dir / f"{KB_FINGERPRINT}.tmp-{os.getpid()}"
        with contextlib.suppress(OSError):
            tmp.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")
            os.replace(tmp, data_dir / KB_FINGERPRINT)
    return result


def staleness_of(
    kb_hash: str, folders: dict[str, Path | None], data_dir: Path, verify: bool = True
) -> Staleness:
    """Staleness of a KB given its content hash and its components' repo folders;
    `verify` checks every published file's checksum (`kb status`)."""
    result = Staleness()
    try:
        manifest = json.loads((data_dir / MANIFEST).read_text(encoding="utf-8"))
    except OSError:
        result.reasons.append("no warehouse published yet")
        return result
    except ValueError:
        result.reasons.append(f"{MANIFEST} is damaged (not JSON) — `kb refresh` publishes again")
        return result
    if not isinstance(manifest, dict):
        result.reasons.append(
            f"{MANIFEST} is damaged (not a mapping) — `kb refresh` publishes again"
        )
        return result
    for damaged in [*damaged_files(data_dir, manifest, verify), duckdb_damage(data_dir)]:
        if damaged:
            result.reasons.append(f"warehouse file {damaged} — `kb refresh` rebuilds it")
    if manifest.get("kb_hash") != kb_hash:
        result.reasons.append(f"KB edited (built {manifest.get('kb_hash')}, now {kb_hash})")
    built = manifest.get("components") or {}
    current = component_versions(folders, versions_cache(data_dir))
    for key in folders:
        now = current[key]
        was = (built.get(key) or {}).get("version")
        if was != now:
            result.stale_components.append(key)
            result.reasons.append(f"{key}: built {was or 'never'}, now {now}")
    for gone in sorted(set(built) - set(folders)):
        result.reasons.append(f"{gone}: removed from the KB")
    built_code = manifest.get("code_versions") or {}
    for name, version in sorted(current_code_versions().items()):
        if built_code.get(name) != version:
            result.reasons.append(f"code of {name} changed ({built_code.get(name)} -> {version})")
    return result
