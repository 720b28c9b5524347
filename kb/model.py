"""The knowledge layer's model: what a KB holds once parsed (kb-format.md).

Plain dataclasses; `kb.loader.load_kb` builds them, `kb.validate` checks them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kb.problems import Problem


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
