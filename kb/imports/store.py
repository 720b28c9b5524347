"""The raw import store: `<kb>/_imports/raw/<slug>/` files + `_source.yaml` provenance.

Every file is secret-scanned before it touches disk; a finding is replaced by
`[REDACTED <rule> sha256:<8 hex>]` and recorded in `_source.yaml` by file, line, rule and
hash prefix only. Folders are written to a temp name and renamed, so a crashed import
never leaves a half-written page.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import shutil
from pathlib import Path
from typing import Any

import yaml

from kb import safe_yaml
from kb.problems import Problem
from kb.redaction import redact_files
from kb.secret_scan import redact_text

RAW = Path("_imports") / "raw"
SOURCE_FILE = "_source.yaml"


def raw_root(kb_root: Path) -> Path:
    return Path(kb_root) / RAW


def slugify(text: str, limit: int = 60) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:limit].rstrip("-") or "untitled"


def make_slug(system: str, source_id: str, title: str) -> str:
    """Folder name from id and title, redacted first (names land in paths and run storage)."""
    source_id, title = redact_text(str(source_id))[0], redact_text(title)[0]
    return f"{system}-{slugify(source_id, 40)}-{slugify(title)}"


def decode_body(data: bytes | str, charset: str | None = None) -> tuple[str, str]:
    """Text and the encoding used: the declared charset, else UTF-8, else Latin-1."""
    if isinstance(data, str):
        return data, "utf-8"
    for encoding in [c for c in (charset, "utf-8") if c]:
        try:
            return data.decode(encoding), encoding.lower()
        except (LookupError, UnicodeDecodeError):
            continue
    return data.decode("latin-1"), "latin-1"


def now_utc() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def read_sources(kb_root: Path) -> dict[str, dict[str, Any]]:
    """slug -> parsed `_source.yaml` for every raw import (unreadable ones skipped)."""
    out: dict[str, dict[str, Any]] = {}
    base = raw_root(kb_root)
    if not base.is_dir():
        return out
    for folder in sorted(p for p in base.iterdir() if p.is_dir() and ".tmp-" not in p.name):
        path = folder / SOURCE_FILE
        try:
            data = safe_yaml.load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        if isinstance(data, dict):
            out[folder.name] = data
    return out


def index_by_source(kb_root: Path, system: str) -> dict[str, tuple[str, dict[str, Any]]]:
    """source id -> (slug, _source) for one system."""
    return {
        str(meta.get("id")): (slug, meta)
        for slug, meta in read_sources(kb_root).items()
        if meta.get("system") == system
    }


def write_import(
    kb_root: Path,
    slug: str,
    files: dict[str, str],
    meta: dict[str, Any],
    primary: str,
) -> dict[str, Any]:
    """Redact and store `files` (name -> text) with provenance; returns the `_source` written.

    Keys already in an older `_source.yaml` that a person added (`distilled_into`) survive.
    """
    folder = raw_root(kb_root) / slug
    previous: dict[str, Any] = {}
    if (folder / SOURCE_FILE).is_file():
        try:
            previous = safe_yaml.load((folder / SOURCE_FILE).read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError):
            previous = {}
    stored, findings, source = redact_files(files, meta)
    redactions = [
        {"file": name, "line": f.line, "rule": f.rule, "sha256_prefix": f.sha256_prefix}
        for name, f in findings
    ]
    hashes = {n: hashlib.sha256(t.encode("utf-8")).hexdigest() for n, t in stored.items()}
    source.update(file=primary, sha256=hashes.get(primary), files=hashes)
    source["redactions"] = redactions
    for key in ("distilled_into",):
        if key in previous and key not in source:
            source[key] = previous[key]
    tmp = folder.with_name(f"{slug}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    for name, text in stored.items():
        (tmp / name).write_text(text, encoding="utf-8", newline="")
    (tmp / SOURCE_FILE).write_text(dump_source(source), encoding="utf-8")
    old = folder.with_name(f"{slug}.old-{os.getpid()}")
    if folder.exists():
        os.replace(folder, old)
    os.replace(tmp, folder)
    shutil.rmtree(old, ignore_errors=True)
    return source


def _plain(value: Any) -> Any:
    """YAML timestamps read back as datetimes are written in their original ISO form."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC).replace(tzinfo=None)
            return value.strftime("%Y-%m-%dT%H:%M:%SZ")
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def dump_source(source: dict[str, Any]) -> str:
    order = ["system", "id", "url", "title", "space", "version", "revision", "modified"]
    order += ["fetched_at", "parent", "hub", "status", "encoding", "file", "sha256", "files"]
    keys = [k for k in order if k in source] + sorted(k for k in source if k not in order)
    return yaml.safe_dump(
        {k: _plain(source[k]) for k in keys}, sort_keys=False, allow_unicode=True, width=100
    )


def mark_source(kb_root: Path, slug: str, **fields: Any) -> None:
    """Update fields of an existing `_source.yaml` (e.g. `status: deleted`)."""
    path = raw_root(kb_root) / slug / SOURCE_FILE
    data = safe_yaml.load(path.read_text(encoding="utf-8")) or {}
    data.update(fields)
    path.write_text(dump_source(data), encoding="utf-8")


def import_problems(kb_root: Path) -> list[Problem]:
    """Validation warnings from raw imports: redacted secrets and sources gone upstream.

    Paths point at the stored file and line of the redaction marker; never at a value.
    """
    problems: list[Problem] = []
    base = RAW.as_posix()
    for slug, meta in read_sources(Path(kb_root)).items():
        for item in meta.get("redactions") or []:
            if not isinstance(item, dict):
                continue
            problems.append(
                Problem(
                    f"{base}/{slug}/{item.get('file', meta.get('file', 'page'))}",
                    int(item.get("line") or 1),
                    "warning",
                    "import-secret-redacted",
                    f"plaintext credential ({item.get('rule')}, sha256:{item.get('sha256_prefix')}) "
                    f"found in {meta.get('system')}:{meta.get('id')} and redacted on import — "
                    "rotate it and remove it from the source page",
                )
            )
        if meta.get("status") == "deleted":
            problems.append(
                Problem(
                    f"{base}/{slug}/{SOURCE_FILE}",
                    1,
                    "warning",
                    "import-source-deleted",
                    f"{meta.get('system')}:{meta.get('id')} no longer exists upstream",
                )
            )
    return sorted(problems)
