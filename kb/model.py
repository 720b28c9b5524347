"""The knowledge layer's model: what a KB holds once parsed (kb-format.md).

Plain dataclasses; `kb.loader.load_kb` builds them, `kb.validate` checks them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.problems import Problem
from kb.schema import CALLS_TARGET_KEYS

_HOST = re.compile(r"^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$", re.I)


@dataclass
class KbConfig:
    root: Path
    name: str
    repos_root: Path
    data_dir: Path
    token_budget: int = 2000
    adr_proposed_days: int = 30
    verified_max_days: int = 90
    imports: dict[str, Any] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict)


@dataclass
class KbDoc:
    """One Markdown file of the KB: frontmatter, body and where each field sits."""

    path: str  # POSIX, relative to the KB root
    frontmatter: dict[str, Any]
    body: str
    body_start_line: int
    key_lines: dict[str, int]
    sha256: str

    @property
    def kind(self) -> str | None:
        value = self.frontmatter.get("kind")
        return value if isinstance(value, str) else None

    @property
    def project(self) -> str | None:
        value = self.frontmatter.get("project")
        return str(value) if value is not None else None

    @property
    def component(self) -> str | None:
        value = self.frontmatter.get("component")
        return str(value) if value is not None else None

    @property
    def title(self) -> str | None:
        value = self.frontmatter.get("title")
        return str(value) if value is not None else None

    def line_of(self, dotted: str) -> int:
        """Line of a field, or of its nearest present parent, or of the frontmatter."""
        parts = dotted.split(".")
        while parts:
            line = self.key_lines.get(".".join(parts))
            if line is not None:
                return line
            parts.pop()
        return 1

    @property
    def verification(self) -> dict[str, Any]:
        value = self.frontmatter.get("verification")
        return value if isinstance(value, dict) else {}


@dataclass
class Component:
    project: str
    id: str
    doc: KbDoc
    repo_path: Path | None  # resolved local checkout folder (None when `repo` missing)

    @property
    def key(self) -> str:
        return f"{self.project}/{self.id}"

    def field(self, name: str, default: Any = None) -> Any:
        return self.doc.frontmatter.get(name, default)

    @property
    def envs(self) -> dict[str, dict[str, Any]]:
        envs = self.field("envs") or {}
        return (
            {k: v for k, v in envs.items() if isinstance(v, dict)} if isinstance(envs, dict) else {}
        )

    def list_field(self, name: str) -> list[Any]:
        value = self.field(name) or []
        return value if isinstance(value, list) else []

    def calls(self) -> list[CallsEntry]:
        """The well-formed `calls:` entries (kb.validate reports the others)."""
        out = []
        for i, raw in enumerate(self.list_field("calls")):
            entry, _ = parse_calls_entry(raw, i)
            if entry is not None:
                out.append(entry)
        return out


@dataclass(frozen=True)
class CallsEntry:
    """A `calls:` entry: the component it names and how the caller reaches it."""

    index: int
    component: str
    key: str  # env_var | url | host | path
    value: str

    @property
    def label(self) -> str:
        return f"{self.key} {self.value}"


def parse_calls_entry(raw: Any, index: int) -> tuple[CallsEntry | None, str | None]:
    """(entry, None) or (None, what is wrong — how to fix it) for one `calls:` item."""
    where = f"calls[{index}]"
    if not isinstance(raw, dict):
        return None, f"{where} must be a mapping like {{env_var: API_URL, component: api}}"
    present = [k for k in CALLS_TARGET_KEYS if raw.get(k) not in (None, "")]
    if not raw.get("component"):
        return None, f"{where} has no component — name the component of this project it calls"
    if not present:
        return (
            None,
            f"{where} needs one of env_var, url, host, path — say how the caller reaches it",
        )
    if len(present) > 1:
        return (
            None,
            f"{where} has {' and '.join(present)} — keep exactly one of env_var, url, host, path",
        )
    key = present[0]
    value = str(raw[key]).strip()
    if key == "url" and not re.match(r"^https?://[^/\s]+(/\S*)?$", value):
        return (
            None,
            f"{where}.url '{value}' is not an absolute http(s) URL — e.g. https://api.example.com/v1",
        )
    if key == "host" and not _HOST.match(value):
        return (
            None,
            f"{where}.host '{value}' is not a bare host — e.g. api.example.com (a URL goes in url)",
        )
    if key == "path" and not re.match(r"^/[^\s?#]*$", value):
        return None, f"{where}.path '{value}' is not a path of the caller's own origin — e.g. /api"
    if key == "env_var" and not re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", value):
        return None, f"{where}.env_var '{value}' is not an env var name — e.g. NEXT_PUBLIC_API_URL"
    return CallsEntry(index, str(raw["component"]), key, value), None


@dataclass
class Project:
    id: str
    doc: KbDoc | None
    components: dict[str, Component] = field(default_factory=dict)

    @property
    def title(self) -> str:
        return (self.doc.title if self.doc else None) or self.id


@dataclass
class Adr:
    id: str  # "<project>/<NNNN>"
    project: str
    number: str
    title: str
    status: str
    date: str
    summary: str
    path: str
    supersedes: str | None
    doc: KbDoc


@dataclass
class KnowledgeBase:
    config: KbConfig
    vocabulary: dict[str, list[str]]
    docs: list[KbDoc]
    projects: dict[str, Project]
    adrs: list[Adr]
    problems: list[Problem]  # problems found while reading (parse errors, unreadable files)
    content_hash: str

    def components(self) -> list[Component]:
        return [
            c for p in sorted(self.projects) for _, c in sorted(self.projects[p].components.items())
        ]

    def component(self, key: str) -> Component | None:
        project, _, comp = key.partition("/")
        proj = self.projects.get(project)
        return proj.components.get(comp) if proj else None
