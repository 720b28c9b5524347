"""Read a KB folder into a KnowledgeBase, collecting problems instead of raising.

Reading never stops at the first bad file: every problem is collected with its
`path:line` so `kb validate` can report them all together.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Any

import yaml

from kb import safe_yaml
from kb.frontmatter import FrontmatterError, key_lines, parse_markdown
from kb.model import Adr, Component, KbConfig, KbDoc, KnowledgeBase, Project
from kb.problems import Problem
from kb.repo_paths import resolve_repo
from kb.settings_check import check_settings, check_vocabulary
from vocab import KB_SKIP_DIRS

MAX_DOC_BYTES = 5 * 1024 * 1024
# Loose files at the KB root that need no frontmatter (agent pointers, readme).
ROOT_FREE_FORM = {"README.md", "AGENTS.md", "CLAUDE.md", "GEMINI.md", "verification-report.md"}
ADR_NAME = re.compile(r"^(\d{4})-[a-z0-9][a-z0-9-]*\.md$")


class KbNotFound(Exception):
    """The KB root is missing or has no kb.yaml: nothing else can be read."""


def _read_yaml(
    path: Path, problems: list[Problem], root: Path, lines: dict[str, int] | None = None
) -> dict[str, Any]:
    """A settings file as a mapping ({} when unreadable, with its problem); `lines` gets
    the line of every key."""
    rel = path.relative_to(root).as_posix()
    try:
        data, node = safe_yaml.load_with_node(path.read_text(encoding="utf-8"))
        data = data or {}
    except UnicodeDecodeError as exc:
        problems.append(
            Problem(
                rel,
                1,
                "error",
                "encoding",
                f"not UTF-8 (byte offset {exc.start}) — re-save the file as UTF-8",
            )
        )
        return {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        problems.append(
            Problem(
                rel,
                line,
                "error",
                "yaml",
                _with_fix(f"malformed YAML: {getattr(exc, 'problem', exc)}", "fix the syntax"),
            )
        )
        return {}
    if not isinstance(data, dict):
        problems.append(Problem(rel, 1, "error", "yaml", "must be a YAML mapping of key: value"))
        return {}
    if lines is not None:
        lines.update(key_lines(node))
    return data


def _with_fix(message: str, fix: str) -> str:
    """`message — fix`, unless the message already ends with its own fix."""
    return message if " — " in message else f"{message} — {fix}"


def load_config(root: Path, data_dir: Path | None = None) -> tuple[KbConfig, list[Problem]]:
    if not root.exists():
        raise KbNotFound(
            f"{root}: KB folder does not exist — pass --kb DIR, or create one with `kb init {root}`"
        )
    if not (root / "kb.yaml").is_file():
        raise KbNotFound(f"{root}: not a KB (no kb.yaml) — create one with `kb init {root}`")
    problems: list[Problem] = []
    lines: dict[str, int] = {}
    raw = _read_yaml(root / "kb.yaml", problems, root, lines)
    settings, wrong = check_settings(raw, lines)
    problems += wrong
    repos_root = (root / str(settings["repos_root"])).resolve()
    configured = settings["data_dir"]
    data = data_dir or (root / str(configured) if configured else root / ".kb")
    config = KbConfig(
        root=root.resolve(),
        name=str(settings["name"] or root.resolve().name),
        repos_root=repos_root,
        data_dir=Path(os.path.abspath(data)),
        token_budget=settings["token_budget"],
        adr_proposed_days=settings["stale.adr_proposed_days"],
        verified_max_days=settings["stale.verified_max_days"],
        imports=settings["imports"] or {},
        raw=raw,
    )
    return config, problems


def iter_markdown(root: Path, problems: list[Problem]) -> list[Path]:
    """Markdown files under root, following symlinked folders but never around a loop."""
    found: list[Path] = []
    seen: set[str] = set()

    def walk(folder: Path) -> None:
        real = os.path.realpath(folder)
        if real in seen:
            rel = folder.relative_to(root).as_posix()
            problems.append(
                Problem(
                    rel,
                    1,
                    "error",
                    "symlink-loop",
                    f"symlink loop: {rel} leads back to a folder already read — remove the link",
                )
            )
            return
        seen.add(real)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            problems.append(
                Problem(
                    folder.relative_to(root).as_posix() or ".",
                    1,
                    "error",
                    "unreadable",
                    f"cannot list folder: {exc.strerror}",
                )
            )
            return
        for entry in entries:
            path = Path(entry.path)
            try:
                is_dir = entry.is_dir()  # follows symlinks
                is_file = entry.is_file()
            except OSError:
                is_dir = is_file = False
            if entry.is_symlink() and not (is_dir or is_file):
                rel = path.relative_to(root).as_posix()
                problems.append(
                    Problem(
                        rel,
                        1,
                        "error",
                        "symlink-loop",
                        f"broken or looping symlink: {rel} — remove or fix the link",
                    )
                )
            elif is_dir and entry.name not in KB_SKIP_DIRS:
                walk(path)
            elif is_file and entry.name.endswith(".md") and not entry.name.endswith(".proposed.md"):
                found.append(path)

    walk(root)
    return found


def read_doc(path: Path, root: Path, problems: list[Problem]) -> KbDoc | None:
    rel = path.relative_to(root).as_posix()
    size = path.stat().st_size
    if size > MAX_DOC_BYTES:
        problems.append(
            Problem(
                rel,
                1,
                "error",
                "too-large",
                f"file is {size / 1e6:.1f} MB, over the {MAX_DOC_BYTES // 2**20} MB cap for a KB doc — split it",
            )
        )
        return None
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problems.append(
            Problem(
                rel,
                line,
                "error",
                "encoding",
                f"not UTF-8 (byte 0x{data[exc.start]:02x}) — re-save the file as UTF-8",
            )
        )
        return None
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    try:
        parsed = parse_markdown(text)
    except FrontmatterError as exc:
        problems.append(
            Problem(
                rel,
                exc.line,
                "error",
                "frontmatter",
                _with_fix(exc.message, "fix the YAML between the '---' lines"),
            )
        )
        return None
    if not parsed.has_frontmatter:
        if "/" not in rel and path.name in ROOT_FREE_FORM:
            return None
        problems.append(
            Problem(
                rel,
                1,
                "error",
                "frontmatter",
                "no YAML frontmatter — start the file with '---', a `kind:` line and '---'",
            )
        )
        return None
    digest = hashlib.sha256(data).hexdigest()
    return KbDoc(
        rel, parsed.frontmatter, parsed.body, parsed.body_start_line, parsed.key_lines, digest
    )


def _adr_from(doc: KbDoc) -> Adr | None:
    name = doc.path.rsplit("/", 1)[-1]
    match = ADR_NAME.match(name)
    if doc.kind != "adr" or not match:
        return None
    project = doc.project or "_kb"
    title = next((ln[2:].strip() for ln in doc.body.splitlines() if ln.startswith("# ")), name)
    fm = doc.frontmatter
    supersedes = fm.get("supersedes")
    return Adr(
        id=f"{project}/{match.group(1)}",
        project=project,
        number=match.group(1),
        title=title,
        status=str(fm.get("status", "")),
        date=str(fm.get("date", "")),
        summary=str(fm.get("summary", "")).strip(),
        path=doc.path,
        supersedes=f"{int(supersedes):04d}"
        if isinstance(supersedes, int)
        else (str(supersedes) if supersedes else None),
        doc=doc,
    )


def content_hash(root: Path, docs: list[KbDoc], problems: list[Problem] = ()) -> str:
    """Hash of the settings, every parsed doc and every file that could not be read.

    Files that fail to load (bad YAML, not UTF-8, too large, a symlink loop) yield no
    doc, so their problems are hashed too: breaking or fixing one changes the hash and
    `kb refresh` rebuilds (and fails) instead of answering "nothing to do".
    """
    digest = hashlib.sha256()
    for name in ("kb.yaml", "vocabulary.yaml"):
        path = root / name
        if path.is_file():
            digest.update(name.encode() + b"\0" + path.read_bytes())
    for doc in sorted(docs, key=lambda d: d.path):
        digest.update(doc.path.encode() + b"\0" + doc.sha256.encode())
    for problem in sorted(problems):
        digest.update(problem.render().encode() + b"\0")
    return digest.hexdigest()[:16]


def load_kb(root: Path, data_dir: Path | None = None) -> KnowledgeBase:
    """Parse the whole KB. Raises KbNotFound only when there is no KB at all."""
    root = Path(root)
    config, problems = load_config(root, data_dir)
    root = config.root
    vocab_lines: dict[str, int] = {}
    vocab_raw = (
        _read_yaml(root / "vocabulary.yaml", problems, root, vocab_lines)
        if (root / "vocabulary.yaml").is_file()
        else {}
    )
    vocabulary, wrong = check_vocabulary(vocab_raw, vocab_lines)
    problems += wrong
    docs = [d for p in iter_markdown(root, problems) if (d := read_doc(p, root, problems))]
    projects: dict[str, Project] = {}
    for doc in docs:
        if doc.kind == "project" and doc.frontmatter.get("id"):
            projects.setdefault(
                str(doc.frontmatter["id"]), Project(str(doc.frontmatter["id"]), doc)
            )
    for doc in docs:
        if doc.kind != "component" or not doc.project or not doc.frontmatter.get("id"):
            continue
        project = projects.setdefault(doc.project, Project(doc.project, None))
        comp_id = str(doc.frontmatter["id"])
        repo = doc.frontmatter.get("repo")
        repo_path = resolve_repo(config.repos_root, repo)
        project.components.setdefault(comp_id, Component(doc.project, comp_id, doc, repo_path))
    adrs = sorted((a for d in docs if (a := _adr_from(d))), key=lambda a: (a.project, a.number))
    return KnowledgeBase(
        config, vocabulary, docs, projects, adrs, problems, content_hash(root, docs, problems)
    )
