"""The extractor registry: adding an extractor is one module and one line here.

CONTRACT (used by the pipeline; keep these signatures):
- `extract_component(project, component, root) -> ComponentFacts`
- `extractors_code_version() -> str`  (changes when any extractor's code changes)
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from extractors.facts import ComponentFacts, Node

EXTRACTOR_MODULES: list[str] = []


def extractors_code_version() -> str:
    """Hash of every extractor module's source, so a code change re-extracts everything."""
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(here.rglob("*.py")):
        digest.update(path.relative_to(here).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def extract_component(project: str, component: str, root: Path) -> ComponentFacts:
    """Extract every fact of one component's repo folder (placeholder until extractors land)."""
    facts = ComponentFacts()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        if "node_modules" in rel.split("/"):
            continue
        facts.nodes.append(
            Node(
                id=f"{project}/{component}:code_file:{rel}",
                kind="code_file",
                name=rel,
                project=project,
                component=component,
                file=rel,
                line=1,
            )
        )
    return facts
