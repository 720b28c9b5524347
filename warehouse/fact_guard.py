"""One pass over a component's extraction results before they become stored facts.

Extractors read a repo's files; whatever they found passes here on its way to
staging (and so to the warehouse and every MCP answer):

- facts from a file that is a symlink leading outside the repo are dropped, with
  one warning naming the link (a repo must not be able to pull `/etc/...` or a
  home folder's credentials into the graph).
"""

from __future__ import annotations

from pathlib import Path

from extractors.facts import ComponentFacts, ExtractProblem
from kb.repo_paths import inside


def _escaping_files(facts: ComponentFacts, root: Path) -> set[str]:
    files = {f.file for f in (*facts.nodes, *facts.edges, *facts.unresolved, *facts.catalog)}
    files |= {p.path for p in facts.problems}
    return {rel for rel in files if rel and not inside(root, root / rel)}


def drop_outside_links(facts: ComponentFacts, root: Path) -> ComponentFacts:
    """`facts` without anything read through a symlink that leaves `root`."""
    bad = _escaping_files(facts, root)
    if not bad:
        return facts
    kept = ComponentFacts(
        nodes=[n for n in facts.nodes if n.file not in bad],
        edges=[e for e in facts.edges if e.file not in bad],
        unresolved=[u for u in facts.unresolved if u.file not in bad],
        catalog=[c for c in facts.catalog if c.file not in bad],
        problems=[p for p in facts.problems if p.path not in bad],
    )
    ids = {n.id for n in kept.nodes}
    dropped = {n.id for n in facts.nodes} - ids
    kept.edges = [e for e in kept.edges if e.src not in dropped and e.dst not in dropped]
    for rel in sorted(bad):
        kept.problems.append(
            ExtractProblem(
                "warning",
                rel,
                None,
                "symlink-outside-repo",
                "symlink to a path outside the repo — not read; commit the file itself instead",
            )
        )
    return kept


def guard_facts(facts: ComponentFacts, root: Path) -> ComponentFacts:
    """What may be stored of one component's extraction."""
    return drop_outside_links(facts, root)
