"""Turn a raw import into an unverified KB doc, and pin a doc to a verified commit.

`distil` writes a new `kind: doc` with `source: [<system>:<id>]` and
`verification: {status: unverified}`; it never overwrites an existing file. `set_verified`
rewrites only the `verification:` block of a doc's frontmatter, keeping every other line
byte for byte (people's comments and layout survive).
"""

from __future__ import annotations

import datetime as dt
import re
import subprocess
from pathlib import Path
from typing import Any

import yaml
from markdownify import markdownify

from kb import safe_yaml
from kb.imports.store import SOURCE_FILE, dump_source, raw_root, slugify
from kb.redaction import redact_any
from kb.secret_scan import redact_text

MARKDOWN_FILES = ("page.md", "doc.md", "document.md", "file.md")


class DistilError(ValueError):
    """The raw path or the target can't be used; the message is one line for the user."""


def _raw_folder(kb_root: Path, raw_path: Path) -> Path:
    path = raw_path if raw_path.is_absolute() else (Path.cwd() / raw_path)
    if not path.exists():
        path = kb_root / raw_path
    if not path.exists():
        path = raw_root(kb_root) / raw_path
    folder = path if path.is_dir() else path.parent
    if not (folder / SOURCE_FILE).is_file():
        raise DistilError(f"{raw_path}: not a raw import folder (no {SOURCE_FILE})")
    return folder


def _content(folder: Path, meta: dict[str, Any]) -> str:
    for name in MARKDOWN_FILES:
        if (folder / name).is_file():
            return (folder / name).read_text(encoding="utf-8")
    primary = folder / str(meta.get("file") or "")
    text = primary.read_text(encoding="utf-8") if primary.is_file() else ""
    if primary.suffix in (".html", ".htm"):
        return markdownify(text, heading_style="ATX")
    if primary.suffix in (".csv", ".txt"):
        return f"```{primary.suffix[1:]}\n{text.rstrip()}\n```"
    return text


def distil(
    kb_root: Path,
    raw_path: Path,
    project: str,
    doc_type: str,
    component: str | None = None,
    title: str | None = None,
) -> Path:
    """Write `projects/<p>[/<c>]/<title-slug>.md` from a raw import; returns its path."""
    folder = _raw_folder(kb_root, raw_path)
    source_path = folder / SOURCE_FILE
    meta = redact_any(safe_yaml.load(source_path.read_text(encoding="utf-8")) or {})
    title = redact_any(title or str(meta.get("title") or folder.name))
    base = kb_root / "projects" / project / (component or "")
    target = base / f"{slugify(title)}.md"
    if target.exists():
        raise DistilError(
            f"{target.relative_to(kb_root)} already exists — pass --title for another name"
        )
    key = f"{meta.get('system')}:{meta.get('id')}"
    version = meta.get("version", meta.get("revision"))
    front: dict[str, Any] = {"kind": "doc", "project": project}
    if component:
        front["component"] = component
    front.update(type=doc_type, title=title, source=[key], verification={"status": "unverified"})
    body, _ = redact_text(_content(folder, meta).strip())
    header = (
        f'> Distilled from {meta.get("system")} "{meta.get("title")}" ({meta.get("url")}), '
        f"version {version}, fetched {meta.get('fetched_at')}. Unverified: check it against "
        "the code, then `kb verify`."
    )
    text = "---\n" + yaml.safe_dump(front, sort_keys=False, allow_unicode=True, width=100)
    text += f"---\n# {title}\n\n{header}\n\n{body}\n"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    rel = target.relative_to(kb_root).as_posix()
    meta["distilled_into"] = rel
    versions = (
        meta.get("distilled_version") if isinstance(meta.get("distilled_version"), dict) else {}
    )
    meta["distilled_version"] = {**versions, rel: version}
    source_path.write_text(dump_source(meta), encoding="utf-8")
    return target


def commit_exists(repo: Path, commit: str) -> str | None:
    """The abbreviated hash of `commit` in `repo`, or None when it is no commit there."""
    if not re.match(r"^[\w./@{}^~-]+$", commit) or commit.startswith("-"):
        return None
    check = subprocess.run(
        ["git", "-C", str(repo), "cat-file", "-e", f"{commit}^{{commit}}"], capture_output=True
    )
    if check.returncode != 0:
        return None
    out = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--short=7", f"{commit}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    return out.stdout.strip() or commit


def _scalar(value: str) -> str:
    """YAML text of a string that reads back as that string (`1234567`, `1e45678` quoted)."""
    text = yaml.safe_dump(value, default_flow_style=True).strip()
    text = text.removesuffix("...").strip()
    return value if yaml.safe_load(value) == value else text


def set_verification(path: Path, block: dict[str, Any]) -> None:
    """Replace (or add) the top-level `verification:` block of a doc's frontmatter."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if not lines or lines[0].strip() != "---":
        raise DistilError(f"{path.name}: no YAML frontmatter")
    end = next((i for i in range(1, len(lines)) if lines[i].strip() in ("---", "...")), None)
    if end is None:
        raise DistilError(f"{path.name}: frontmatter is never closed")
    new = ["verification:"] + [
        f"  {k}: {_scalar(v) if k == 'verified_against' else v}" for k, v in block.items()
    ]
    start = next((i for i in range(1, end) if re.match(r"^verification\s*:", lines[i])), None)
    if start is None:
        lines[end:end] = new
    else:
        stop = start + 1
        while stop < end and (lines[stop].startswith((" ", "\t")) or not lines[stop].strip()):
            stop += 1
        lines[start:stop] = new
    path.write_text("\n".join(lines), encoding="utf-8")


def verified_block(commit: str, today: dt.date | None = None) -> dict[str, str]:
    if today is None:
        from kb.validate import kb_today  # KB_TODAY pins the clock (tests)

        today = kb_today()
    return {"status": "verified", "verified_against": commit, "verified_at": today.isoformat()}
