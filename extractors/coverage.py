"""What the component declares against what extraction found: one `coverage` row per web
framework or HTTP client its manifests name (package.json, requirements, pyproject), with
the model that reads it (or none), the routes and calls found, the unresolved and
low-confidence facts. A declared framework with no route, a client with no call, or a
package no model reads is a row with a `warning`: `kb status` and the verification
report print it, so a miss is never a silent zero. Code in a language nothing extracts (Go,
Java, Ruby …) is a row of its own, kind `language`.

Runs after every other extractor (`AFTER_ALL`, read by the registry's run order): it
counts the facts they wrote."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.models import all_models

NAME = "coverage"
PROVIDES = ()
REQUIRES = ()
AFTER_ALL = True  # it counts what every other extractor found

UNMODELED = Path(__file__).parent / "models" / "unmodeled.yaml"
SERVER_UNRESOLVED = {"route", "route_prefix", "route_mount"}
CLIENT_UNRESOLVED = {"http_call", "http_base", "url", "base_url"}
HOW_TO_ADD = "docs/frameworks.md says how to add a model"


@dataclass
class Claim:
    """What a declared package is: the model(s) that read it, else the kinds it is known as."""

    kinds: set[str] = field(default_factory=set)  # server / client
    models: list[str] = field(default_factory=list)
    docs: str = ""
    counted_with: str | None = None  # an extension model: its facts are another's
    optional: list[bool] = field(default_factory=list)  # per model: its facts are optional
    facts_as: set[str] = field(default_factory=set)  # names facts carry it under


def _canonical(ecosystem: str, name: str) -> str:
    """PyPI names compare case- and separator-insensitively (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower() if ecosystem == "pypi" else name


@cache
def claims() -> dict[tuple[str, str], Claim]:
    """(ecosystem, package) -> what it is, from the models' `detect` and unmodeled.yaml."""
    out: dict[tuple[str, str], Claim] = {}
    for model in all_models():
        if model.kind not in ("server", "client"):
            continue
        for ecosystem, names in model.detect.items():
            if ecosystem == "files":
                continue  # marker files (`next.config.*`) say where a model applies, not a package
            for name in names:
                claim = out.setdefault((ecosystem, _canonical(ecosystem, name)), Claim())
                claim.kinds.add(model.kind)
                claim.models.append(model.id)
                claim.docs = claim.docs or model.docs
                claim.counted_with = claim.counted_with or model.part_of
                claim.optional.append(bool({"*", name} & set(model.optional)))
    raw = yaml.safe_load(UNMODELED.read_text(encoding="utf-8")) or {}
    for kind, by_ecosystem in raw.items():
        for ecosystem, names in (by_ecosystem or {}).items():
            for name, entry in (names or {}).items():
                claim = out.setdefault((ecosystem, _canonical(ecosystem, str(name))), Claim())
                if not claim.models:  # a model reads it: the model's kinds win
                    entry = entry if isinstance(entry, dict) else {"docs": entry}
                    claim.kinds.add(kind)
                    claim.docs = claim.docs or str(entry.get("docs") or "")
                    claim.facts_as.update({str(name), str(entry.get("facts") or name)})
    return out


@dataclass
class Found:
    """The component's facts, counted once."""

    routes: Counter = field(default_factory=Counter)  # framework -> routes
    calls: Counter = field(default_factory=Counter)  # client -> calls
    low: Counter = field(default_factory=Counter)  # framework or client -> low-confidence facts
    unresolved: Counter = field(default_factory=Counter)  # server / client -> rows

    @classmethod
    def of(cls, ctx: ComponentContext) -> Found:
        found = cls()
        for node in ctx.facts.nodes:
            if node.kind == "route":
                source = str(node.attrs.get("framework") or "")
                found.routes[source] += 1
            elif node.kind == "http_call":
                source = str(node.attrs.get("client") or "")
                found.calls[source] += 1
            else:
                continue
            if node.attrs.get("confidence") == "low":
                found.low[source] += 1
        for row in ctx.facts.unresolved:
            if row.kind in SERVER_UNRESOLVED:
                found.unresolved["server"] += 1
            elif row.kind in CLIENT_UNRESOLVED:
                found.unresolved["client"] += 1
        return found


def extract(ctx: ComponentContext) -> None:
    found = Found.of(ctx)
    known = claims()
    seen: set[str] = set()
    for row in list(ctx.facts.catalog):
        if row.table != "packages" or row.attrs.get("dev"):
            continue  # a devDependency serves nothing in production
        ecosystem = str(row.attrs.get("ecosystem") or "")
        package = str(row.attrs.get("package") or row.name)
        claim = known.get((ecosystem, _canonical(ecosystem, package)))
        if claim is None or package in seen:
            continue
        seen.add(package)
        ctx.facts.catalog.append(_row(ctx, row, package, ecosystem, claim, found))
    for language, files in sorted(ctx.unread.items()):
        ctx.facts.catalog.append(_unread_row(ctx, language, files))


def _unread_row(ctx: ComponentContext, language: str, files: list[str]) -> CatalogRow:
    """Code in a language kb-graph does not extract: one row that says so, with how much."""
    files = sorted(files)
    shown = ", ".join(files[:3]) + (" …" if len(files) > 3 else "")
    warning = (f"{ctx.project}/{ctx.component} has {len(files)} {language} file(s) ({shown}); "
               f"kb-graph reads JavaScript, TypeScript and Python code only: the routes, calls "
               f"and env reads in them are not in the graph")  # fmt: skip
    return CatalogRow("coverage", ctx.project, ctx.component, language, files[0], None, {
        "kind": "language", "ecosystem": "source", "package": language, "model": None,
        "routes": 0, "calls": 0, "unresolved": 0, "low_confidence": 0,
        "status": "unsupported_language", "warning": warning,
    })  # fmt: skip


def _row(ctx, pkg: CatalogRow, package: str, ecosystem: str, claim: Claim, found: Found):
    sources = set(claim.models) or claim.facts_as
    kinds = claim.kinds
    routes = sum(found.routes[s] for s in sources)
    calls = sum(found.calls[s] for s in sources)
    low = sum(found.low[s] for s in sources)
    if claim.counted_with in ("server", "client"):  # counted with every fact of that kind
        routes = sum(found.routes.values()) if claim.counted_with == "server" else 0
        calls = sum(found.calls.values()) if claim.counted_with == "client" else 0
    elif claim.counted_with:
        routes += found.routes[claim.counted_with]
        calls += found.calls[claim.counted_with]
    unresolved = sum(found.unresolved[k] for k in kinds)
    where = f"{pkg.file}:{pkg.line}" if pkg.line else str(pkg.file)
    status, warning = "ok", ""
    what = " or ".join(sorted({"server": "route", "client": "call"}[k] for k in kinds))
    if routes + calls:
        pass
    elif not claim.models:
        status = "no_model"
        warning = (f"{ctx.project}/{ctx.component} declares {package} ({where}) but no model reads it: its "
                   f"{what}s are not in the graph — {HOW_TO_ADD} ({claim.docs})")  # fmt: skip
    elif "server" in kinds and not calls and _other_servers(found, sources):
        status = "quiet"  # the routes come from another framework of the component
    elif claim.optional and all(claim.optional):
        status = "quiet"  # a frontend meta-framework: many of its apps serve or call nothing
    else:
        status = "no_facts"
        warning = (f"{ctx.project}/{ctx.component} declares {package} ({where}); the {', '.join(claim.models)} "
                   f"model found no {what} in it — if it has some, they are written in a form "
                   f"the model does not read: {HOW_TO_ADD}")  # fmt: skip
    return CatalogRow("coverage", ctx.project, ctx.component, package, pkg.file, pkg.line, {
        "kind": "/".join(sorted(kinds)), "ecosystem": ecosystem, "package": package,
        "model": ", ".join(claim.models) or None, "routes": routes, "calls": calls,
        "unresolved": unresolved, "low_confidence": low, "status": status,
        "warning": warning or None,
    })  # fmt: skip


def _other_servers(found: Found, sources: set[str]) -> bool:
    return any(n for source, n in found.routes.items() if source not in sources)
