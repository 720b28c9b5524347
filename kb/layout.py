"""Monorepos: several components in one repository, each by its folder.

A component whose folder holds another component's folder (the repo root, for its
`compose.yaml`, `.env` and CI config, above `web/` and `api/`) leaves those folders to
their own components: each file is read by one component only, so routes, env vars and
impact lines are counted once. `Component.nested` lists the folders carved out (relative
to the component's folder); the extraction skips them. Two components on the very same
folder cannot be split that way and are a validation error (docs/monorepos.md).
"""

from __future__ import annotations

from pathlib import Path

from kb.model import Component, KnowledgeBase, Project
from kb.problems import Problem

GUIDE = "docs/monorepos.md"


def _real(folder: Path) -> Path:
    return folder.resolve()


def assign_nested(projects: dict[str, Project]) -> None:
    """Set each component's `nested`: the folders of other components inside its own."""
    comps = [c for p in projects.values() for c in p.components.values() if c.repo_path]
    real = {c.key: _real(c.repo_path) for c in comps}
    for comp in comps:
        inside = {
            real[other.key].relative_to(real[comp.key]).as_posix()
            for other in comps
            if real[other.key] != real[comp.key] and real[other.key].is_relative_to(real[comp.key])
        }
        # a folder inside another carved-out folder is skipped with it already
        comp.nested = tuple(
            sorted(f for f in inside if not any(f.startswith(o + "/") for o in inside))
        )


def shared_folder_problems(kb: KnowledgeBase) -> list[Problem]:
    """One error per component whose folder another component already reads whole."""
    first: dict[Path, Component] = {}
    problems = []
    for comp in sorted(kb.components(), key=lambda c: c.doc.path):
        if comp.repo_path is None:
            continue
        folder = _real(comp.repo_path)
        owner = first.setdefault(folder, comp)
        if owner is comp:
            continue
        problems.append(
            Problem(
                comp.doc.path,
                comp.doc.line_of("repo"),
                "error",
                "repo-shared",
                f"repo '{comp.field('repo')}' is also the folder of {owner.key} "
                f"({owner.doc.path}) — its files would be read twice, doubling every route, "
                "env var and impact line; give each component its own folder (a subfolder "
                f"of the repo; the root's compose.yaml, .env and CI config go to a component "
                f"on the root: {GUIDE})",
            )
        )
    return problems
