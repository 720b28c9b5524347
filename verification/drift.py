"""Automatic drift: what the KB says about a component that its code contradicts.

Each `Drift` names both sides: the doc (`path:line` of the claim) and where the code was
looked at (component repo, file or graph node). Checks, per component and per doc:

- `secret-env-unread`: a `secrets[].env_var` the component never reads;
- `call-missing`: a `calls` entry with no CALLS edge from this component to that one;
- `stack-no-package`: a `stack` entry with no matching package (or file type);
- `route-missing` / `env-var-missing` / `file-missing`: a route, env var or file path (or
  `path:line`) named in a doc body that the code does not have at HEAD;
- `cited-file-changed`: a verified doc whose cited files changed since `verified_against`.

Code facts come from the graph (`nodes`/`edges` frames, plus `catalog_packages` when
given). The graph can miss a dynamic read, so a name counts as present when the graph
has it *or* a non-Markdown file of the component contains it as a word: a name found
nowhere is certain drift, never a guess.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from kb.model import Component, KbDoc, KnowledgeBase
from kb.schema import CALLS_TARGET_KEYS
from verification.claims import (
    PATH_LINE,
    body_claims,
    doc_scope,
    file_exists,
    is_repo_path,
    route_exists,
)
from verification.code import ComponentCode, component_code
from vocab import STACK_FILES, STACK_PACKAGES


@dataclass(frozen=True, order=True)
class Drift:
    project: str
    component: str  # "" for a project-level doc
    doc_path: str
    doc_line: int
    rule: str
    claim: str
    code_location: str
    message: str

    def render(self) -> str:
        return (
            f"{self.doc_path}:{self.doc_line} ↔ {self.code_location}: {self.message} [{self.rule}]"
        )


def doc_drifts(kb: KnowledgeBase, doc: KbDoc, code: dict[str, ComponentCode]) -> list[Drift]:
    project = doc.project or ""
    scope = doc_scope(doc, code)
    everything = list(code.values())
    comp_id = scope[0].component.id if len(scope) == 1 else ""
    # no route in the whole project's graph: the route extractor did not run, so say nothing
    has_routes = any(c.routes for c in everything)
    where = ", ".join(c.where for c in scope)
    out: list[Drift] = []

    def drift(line: int, rule: str, value: str, location: str, message: str) -> None:
        out.append(Drift(project, comp_id, doc.path, line, rule, value, location, message))

    for kind, value, line in body_claims(doc):
        if kind == "route" and has_routes and not route_exists(value, scope, everything):
            drift(
                line,
                "route-missing",
                value,
                where,
                f"route {value} is named in the doc but no such route is in the code",
            )
        elif kind == "env" and not any(c.has_env(value) for c in [*scope, *everything]):
            drift(
                line,
                "env-var-missing",
                value,
                where,
                f"env var {value} is named in the doc but no code reads or sets it",
            )
        elif (
            kind == "file"
            and is_repo_path(value, everything)
            and not file_exists(value, scope, everything, kb.config.root)
        ):
            path = PATH_LINE.match(value).group("path")
            drift(
                line,
                "file-missing",
                value,
                ", ".join(f"{c.where}/{path}" for c in scope),
                f"{value} is named in the doc but does not exist at HEAD",
            )
    return out


def component_drifts(comp: Component, code: ComponentCode, check_calls: bool) -> list[Drift]:
    doc, out = comp.doc, []
    for i, secret in enumerate(comp.list_field("secrets")):
        env = secret.get("env_var") if isinstance(secret, dict) else None
        if env and env not in code.env_names and not code.mentions(str(env)):
            out.append(
                Drift(
                    comp.project,
                    comp.id,
                    doc.path,
                    doc.line_of(f"secrets.{i}.env_var"),
                    "secret-env-unread",
                    str(env),
                    code.where,
                    f"secret {secret.get('name')} is read as {env}, but no code of "
                    f"{comp.key} reads {env}",
                )
            )
    for i, call in enumerate(comp.list_field("calls")):
        target = call.get("component") if isinstance(call, dict) else None
        how = " ".join(
            f"{k} {call[k]}" for k in CALLS_TARGET_KEYS if isinstance(call, dict) and call.get(k)
        )
        if check_calls and target and target not in code.calls_to:
            out.append(
                Drift(
                    comp.project,
                    comp.id,
                    doc.path,
                    doc.line_of(f"calls.{i}"),
                    "call-missing",
                    f"{how.split(' ', 1)[-1]} -> {target}",
                    code.where,
                    f"calls {target} via {how or 'no env_var, url, host or path'}, but the graph has no "
                    f"CALLS edge from {comp.key} to {comp.project}/{target}",
                )
            )
    for i, entry in enumerate(comp.list_field("stack")):
        names = STACK_PACKAGES.get(str(entry), ())
        exts = STACK_FILES.get(str(entry), ())
        if not names and not exts:
            continue
        if code.packages & set(names) or any(f.endswith(exts) for f in code.files if exts):
            continue
        manifest = "package.json" if "package.json" in code.files else "its manifests"
        out.append(
            Drift(
                comp.project,
                comp.id,
                doc.path,
                doc.line_of(f"stack.{i}"),
                "stack-no-package",
                str(entry),
                f"{code.where}/{manifest}",
                f"stack lists {entry}, but {comp.key} has no "
                f"{' / '.join(names or exts)} package or file",
            )
        )
    return out


def _git(folder: Path, *args: str) -> str | None:
    try:
        done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None


def changed_since(doc: KbDoc, code: ComponentCode) -> list[Drift] | None:
    """Cited files changed since `verified_against`; None when that commit is unknown here."""
    commit = str(doc.verification.get("verified_against") or "")
    root = code.component.repo_path
    if doc.verification.get("status") != "verified" or not commit or root is None:
        return []
    if _git(root, "cat-file", "-e", f"{commit}^{{commit}}") is None:
        return None
    cited = sorted(
        {PATH_LINE.match(v).group("path") for k, v, _ in body_claims(doc) if k == "file"}
    )
    cited = [c for c in cited if code.has_file(c)]
    if not cited:
        return []
    changed = _git(root, "diff", "--relative", "--name-only", f"{commit}..HEAD", "--", *cited)
    out = []
    for rel in sorted((changed or "").split()):
        line = next((ln for k, v, ln in body_claims(doc) if k == "file" and v.startswith(rel)), 1)
        out.append(
            Drift(
                doc.project or "",
                code.component.id,
                doc.path,
                line,
                "cited-file-changed",
                rel,
                f"{code.where}/{rel}",
                f"{rel} changed since the doc was verified against {commit}",
            )
        )
    return out


def project_drifts(
    kb: KnowledgeBase, project: str, tables: dict[str, pl.DataFrame]
) -> tuple[list[Drift], list[str]]:
    """(drifts, docs whose verified_against commit is not in their repo) for one project."""
    code = component_code(kb, project, tables)
    drifts: list[Drift] = []
    unknown: list[str] = []
    nodes = tables.get("nodes")
    # without any http_call node the call extractor did not run: CALLS can't be judged
    check_calls = nodes is not None and "http_call" in set(nodes.get_column("kind").to_list())
    for cid in sorted(code):
        drifts.extend(component_drifts(code[cid].component, code[cid], check_calls))
    for doc in sorted(kb.docs, key=lambda d: d.path):
        if doc.project != project or doc.kind not in ("doc", "component"):
            continue
        drifts.extend(doc_drifts(kb, doc, code))
        scope = doc_scope(doc, code)
        if len(scope) == 1:
            changed = changed_since(doc, scope[0])
            if changed is None:
                unknown.append(doc.path)
            else:
                drifts.extend(changed)
    return sorted(set(drifts)), sorted(unknown)
