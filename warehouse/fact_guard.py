"""One pass over a component's extraction results before they become stored facts.

Extractors read a repo's files; whatever they found passes here on its way to
staging (and so to the warehouse and every MCP answer):

- facts from a file that is a symlink leading outside the repo are dropped, with
  one warning naming the link (a repo must not be able to pull `/etc/...` or a
  home folder's credentials into the graph);
- every string of every fact — ids, names, edge ends, attrs such as `url_template`,
  unresolved expressions, messages — is redacted in one pass (`kb.redaction`): a
  token in a `fetch` URL becomes `[REDACTED slack-token sha256:…]` the same way in
  the node id and in every edge that names it, so the graph stays connected.
  Extractors stay unaware of secrets; this is the one place they are removed.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

from extractors.facts import ComponentFacts, ExtractProblem
from kb.redaction import Redactor
from kb.secret_scan import may_hold_secret
from vocab.paths import below


def _escaping_files(facts: ComponentFacts, root: Path) -> set[str]:
    files = {f.file for f in (*facts.nodes, *facts.edges, *facts.unresolved, *facts.catalog)}
    files |= {p.path for p in facts.problems}
    real_root = os.path.realpath(root)
    folders: dict[str, str] = {}  # a folder's real path, resolved once for all its files
    bad = set()
    for rel in files:
        if not rel:
            continue
        path = os.path.join(root, rel)
        folder, name = os.path.split(path)
        if folder not in folders:
            folders[folder] = os.path.realpath(folder)
        real = os.path.join(folders[folder], name)
        if os.path.islink(real) or name in ("..", "."):  # the file itself: follow it fully
            real = os.path.realpath(real)
        if not below(real_root, real):
            bad.add(rel)
    return bad


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


def _strings(value: Any, out: set[str]) -> None:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, dict):
        for key, item in value.items():
            _strings(key, out)
            _strings(item, out)
    elif isinstance(value, list | tuple):
        for item in value:
            _strings(item, out)


def redact_facts(facts: ComponentFacts) -> ComponentFacts:
    """`facts` with every credential in any string replaced by its redaction marker."""
    rows = [*facts.nodes, *facts.edges, *facts.unresolved, *facts.catalog, *facts.problems]
    strings: set[str] = set()
    for row in rows:  # the fields as they are (`astuple` deep-copied every row)
        for value in vars(row).values():
            if isinstance(value, str):
                strings.add(value)
            elif value is not None and not isinstance(value, int):
                _strings(value, strings)
    redactor = Redactor()
    for text in strings:
        if may_hold_secret(text):
            redactor.learn(text)
    if not redactor.found:
        return facts
    cache: dict[str, str] = {}
    known = list(redactor.known)

    def clean(value: Any) -> Any:
        if isinstance(value, str):
            if value not in cache:
                telling = may_hold_secret(value) or any(k in value for k in known)
                cache[value] = redactor.text(value)[0] if telling else value
            return cache[value]
        if isinstance(value, dict):
            return {clean(k): clean(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(clean(v) for v in value)
        return value

    def row(item: Any) -> Any:
        changes = {f.name: clean(getattr(item, f.name)) for f in dataclasses.fields(item)}
        return dataclasses.replace(item, **changes)

    return ComponentFacts(
        nodes=[row(n) for n in facts.nodes],
        edges=[row(e) for e in facts.edges],
        unresolved=[row(u) for u in facts.unresolved],
        catalog=[row(c) for c in facts.catalog],
        problems=[row(p) for p in facts.problems],
    )


def guard_facts(facts: ComponentFacts, root: Path) -> ComponentFacts:
    """What may be stored of one component's extraction."""
    return redact_facts(drop_outside_links(facts, root))
