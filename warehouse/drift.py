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

import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from kb.model import Component, KbDoc, KnowledgeBase
from kb.versions import SKIP
from warehouse.routematch import RouteRef, best_routes, route_of

STACK_PACKAGES: dict[str, tuple[str, ...]] = {
    "nextjs": ("next",),
    "express": ("express",),
    "vue": ("vue",),
    "nuxt": ("nuxt",),
    "react": ("react",),
    "fastapi": ("fastapi",),
    "flask": ("flask",),
    "contentful": ("contentful",),
    "firebase": ("firebase-functions", "firebase", "firebase-admin"),
    "typescript": ("typescript",),
}
STACK_FILES = {"typescript": (".ts", ".tsx"), "terraform": (".tf",), "python": (".py",)}

ROUTE = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(/[^\s`|)\],;]*)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
ENV_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
FILE_EXT = re.compile(
    r"\.(?:ts|tsx|js|jsx|mjs|cjs|vue|py|tf|tfvars|json|ya?ml|toml|txt|md|sh|cfg|ini|lock)$"
)
PATH_LINE = re.compile(r"^(?P<path>[^\s:]+?)(?::(?P<line>\d+))?$")
TEXT_SUFFIXES = {".md", ".markdown", ".png", ".jpg", ".svg", ".ico", ".lock"}


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


@dataclass
class ComponentCode:
    """What the code of one component has: the facts drift is checked against."""

    component: Component
    env_names: set[str]
    routes: list[RouteRef]
    packages: set[str]
    files: set[str]  # POSIX paths relative to the repo folder
    dirs: set[str]
    calls_to: set[str]  # component ids this one has CALLS edges to
    text_cache: dict[str, bool]

    @property
    def where(self) -> str:
        return f"repos/{self.component.field('repo')}" if self.component.field("repo") else "?"

    def mentions(self, word: str) -> bool:
        """A non-Markdown file of the repo contains `word` as a whole word."""
        if word in self.text_cache:
            return self.text_cache[word]
        pattern = re.compile(
            rb"(?<![A-Za-z0-9_])" + re.escape(word.encode()) + rb"(?![A-Za-z0-9_])"
        )
        root = self.component.repo_path
        found = False
        for rel in sorted(self.files) if root else []:
            if Path(rel).suffix in TEXT_SUFFIXES:
                continue
            try:
                if pattern.search((root / rel).read_bytes()):
                    found = True
                    break
            except OSError:
                continue
        self.text_cache[word] = found
        return found

    def has_env(self, name: str) -> bool:
        return name in self.env_names or self.mentions(name)

    def has_file(self, rel: str) -> bool:
        rel = rel.strip("/").removeprefix("./")
        return rel in self.files or rel in self.dirs


def _attrs(raw: Any) -> dict[str, Any]:
    if isinstance(raw, dict):
        return raw
    try:
        value = json.loads(raw) if isinstance(raw, str) and raw else {}
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _walk(root: Path | None) -> tuple[set[str], set[str]]:
    files: set[str] = set()
    dirs: set[str] = set()
    if root is None or not root.is_dir():
        return files, dirs
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP)
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        if rel_dir != ".":
            dirs.add(rel_dir)
        for name in filenames:
            files.add(name if rel_dir == "." else f"{rel_dir}/{name}")
    return files, dirs


def _manifest_packages(root: Path | None, files: set[str]) -> set[str]:
    """Package names declared in package.json / requirements*.txt / pyproject.toml."""
    out: set[str] = set()
    for rel in files if root else []:
        name = Path(rel).name
        try:
            if name == "package.json" and "/" not in rel.strip("/"):
                data = json.loads((root / rel).read_text(encoding="utf-8"))
                for key in ("dependencies", "devDependencies", "peerDependencies"):
                    out.update((data.get(key) or {}).keys())
            elif name.startswith("requirements") and name.endswith(".txt"):
                for line in (root / rel).read_text(encoding="utf-8").splitlines():
                    m = re.match(r"\s*([A-Za-z0-9_.\-]+)", line)
                    if m and not line.strip().startswith(("#", "-")):
                        out.add(m.group(1).lower())
            elif name == "pyproject.toml":
                text = (root / rel).read_text(encoding="utf-8")
                out.update(
                    m.lower() for m in re.findall(r'"([A-Za-z0-9_.\-]+)\s*[<>=~!\[;"]', text)
                )
        except (OSError, ValueError):
            continue
    return out


def component_code(
    kb: KnowledgeBase, project: str, tables: dict[str, pl.DataFrame]
) -> dict[str, ComponentCode]:
    """Facts per component of `project` from its graph frames and its repo folder."""
    nodes = tables.get("nodes")
    edges = tables.get("edges")
    node_rows = nodes.to_dicts() if nodes is not None else []
    by_id = {n["id"]: n for n in node_rows}
    out: dict[str, ComponentCode] = {}
    proj = kb.projects.get(project)
    for cid, comp in sorted(proj.components.items()) if proj else []:
        files, dirs = _walk(comp.repo_path)
        out[cid] = ComponentCode(
            comp, set(), [], _manifest_packages(comp.repo_path, files), files, dirs, set(), {}
        )
    for n in node_rows:
        code = out.get(n.get("component") or "")
        if code is None:
            continue
        attrs = _attrs(n.get("attrs"))
        if n["kind"] == "env_var":
            code.env_names.add(str(attrs.get("name") or n["name"]))
        elif n["kind"] == "route":
            method, path = route_of(n["name"], attrs)
            code.routes.append(RouteRef(n["id"], code.component.id, method, path, n.get("file")))
    for e in edges.to_dicts() if edges is not None else []:
        src, dst = by_id.get(e["src"]), by_id.get(e["dst"])
        if e["type"] == "READS_ENV" and dst is not None and src is not None:
            code = out.get(src.get("component") or "")
            if code is not None:
                code.env_names.add(str(_attrs(dst.get("attrs")).get("name") or dst["name"]))
        elif e["type"] == "CALLS" and src is not None and dst is not None:
            code = out.get(src.get("component") or "")
            if code is not None and dst.get("component"):
                code.calls_to.add(str(dst["component"]))
        elif e["type"] == "USES_PACKAGE" and e["src"].startswith(f"{project}:component:"):
            code = out.get(e["src"].rsplit(":", 1)[1])
            if code is not None:
                code.packages.add(e["dst"].rsplit(":", 1)[-1])
    packages = tables.get("catalog_packages")
    for row in packages.to_dicts() if packages is not None else []:
        code = out.get(row.get("component") or "")
        if code is not None and row.get("project") == project and row.get("package"):
            code.packages.add(str(row["package"]))
    return out


def _line_of(doc: KbDoc, offset: int) -> int:
    return doc.body_start_line + doc.body.count("\n", 0, offset)


def _fenced(body: str) -> list[tuple[int, int]]:
    spans, start = [], None
    for m in re.finditer(r"^(```|~~~).*$", body, re.MULTILINE):
        if start is None:
            start = m.start()
        else:
            spans.append((start, m.end()))
            start = None
    return spans


def body_claims(doc: KbDoc) -> list[tuple[str, str, int]]:
    """(kind, value, line) of routes, env vars and file paths named in the body."""
    fences = _fenced(doc.body)
    claims: list[tuple[str, str, int]] = []

    def outside(pos: int) -> bool:
        return not any(s <= pos < e for s, e in fences)

    for m in ROUTE.finditer(doc.body):
        if outside(m.start()):
            path = m.group(2).rstrip(".:'\"")
            claims.append(("route", f"{m.group(1)} {path}", _line_of(doc, m.start())))
    for m in CODE_SPAN.finditer(doc.body):
        span = m.group(1).strip()
        if not outside(m.start()) or " " in span:
            continue
        line = _line_of(doc, m.start())
        if ENV_NAME.match(span):
            claims.append(("env", span, line))
        elif _looks_like_path(span):
            claims.append(("file", span, line))
    return claims


def _looks_like_path(span: str) -> bool:
    if (
        "://" in span
        or span.startswith(("/", "@", "~", "$"))
        or any(c in span for c in "*{}<>'\"(),=")
    ):
        return False
    path = PATH_LINE.match(span)
    if not path:
        return False
    value = path.group("path")
    return bool(FILE_EXT.search(value)) or ("/" in value and re.match(r"^[\w.\-\[\]/]+$", value))


def _doc_scope(doc: KbDoc, code: dict[str, ComponentCode]) -> list[ComponentCode]:
    comp = doc.component or (doc.frontmatter.get("id") if doc.kind == "component" else None)
    if comp and comp in code:
        return [code[comp]]
    return list(code.values())


def _is_repo_path(span: str, everything: list[ComponentCode]) -> bool:
    """A slash path without a file extension is a path claim only when its first folder
    is a folder of some repo (`src/services/`), not a module specifier (`firebase/app`)."""
    rel = PATH_LINE.match(span).group("path")
    if FILE_EXT.search(rel):
        return True
    head = rel.strip("/").split("/", 1)[0]
    return any(head in c.dirs for c in everything)


def _file_exists(span: str, scope: list[ComponentCode], everything, kb_root: Path) -> bool:
    m = PATH_LINE.match(span)
    rel, line = m.group("path"), m.group("line")
    if (kb_root / rel).exists():
        return True
    for code in [*scope, *(c for c in everything if c not in scope)]:
        for candidate in (
            rel,
            rel.split("/", 1)[1] if rel.startswith(code.component.id + "/") else None,
        ):
            if candidate and code.has_file(candidate):
                if not line or code.component.repo_path is None:
                    return True
                try:
                    lines = (code.component.repo_path / candidate).read_text("utf-8", "replace")
                except OSError:
                    return False
                return int(line) <= lines.count("\n") + 1
    if "/" not in rel.strip("/") and not line:  # a bare file name: anywhere in the repos
        return any(f.rsplit("/", 1)[-1] == rel for c in everything for f in c.files)
    return False


def _route_exists(claim: str, scope: list[ComponentCode], everything: list[ComponentCode]) -> bool:
    method, _, path = claim.partition(" ")
    own = [r for c in scope for r in c.routes]
    if best_routes(method, path, own, suffix=False):
        return True
    others = [r for c in everything for r in c.routes]
    if best_routes(method, path, others, suffix=True):
        return True
    return any(_next_route_file(path, c) for c in scope)


def _next_route_file(path: str, code: ComponentCode) -> bool:
    """Next.js file-system routes (app router `route.ts`, pages router `pages/api/*.ts`),
    matched by file so a route the graph lacks is not called missing."""
    segs = [s for s in path.split("?")[0].split("/") if s]
    for rel in code.files:
        parts = rel.split("/")
        if parts[0] == "src":
            parts = parts[1:]
        stem = parts[-1].rsplit(".", 1)[0] if parts else ""
        if len(parts) >= 2 and parts[0] == "app" and stem == "route":
            route = parts[1:-1]
        elif (
            len(parts) >= 2 and parts[0] == "pages" and rel.endswith((".ts", ".js", ".tsx", ".jsx"))
        ):
            route = parts[1:-1] + ([] if stem == "index" else [stem])
        else:
            continue
        route = [r for r in route if not (r.startswith("(") and r.endswith(")"))]
        if len(route) == len(segs) and all(
            r == s or (r.startswith("[") and r.endswith("]")) or s.startswith((":", "{", "["))
            for r, s in zip(route, segs, strict=True)
        ):
            return True
    return False


def doc_drifts(kb: KnowledgeBase, doc: KbDoc, code: dict[str, ComponentCode]) -> list[Drift]:
    project = doc.project or ""
    scope = _doc_scope(doc, code)
    everything = list(code.values())
    comp_id = scope[0].component.id if len(scope) == 1 else ""
    # no route in the whole project's graph: the route extractor did not run, so say nothing
    has_routes = any(c.routes for c in everything)
    out: list[Drift] = []
    for kind, value, line in body_claims(doc):
        if kind == "route" and has_routes and not _route_exists(value, scope, everything):
            where = ", ".join(c.where for c in scope)
            out.append(
                Drift(
                    project,
                    comp_id,
                    doc.path,
                    line,
                    "route-missing",
                    value,
                    where,
                    f"route {value} is named in the doc but no such route is in the code",
                )
            )
        elif kind == "env" and not any(c.has_env(value) for c in [*scope, *everything]):
            where = ", ".join(c.where for c in scope)
            out.append(
                Drift(
                    project,
                    comp_id,
                    doc.path,
                    line,
                    "env-var-missing",
                    value,
                    where,
                    f"env var {value} is named in the doc but no code reads or sets it",
                )
            )
        elif (
            kind == "file"
            and _is_repo_path(value, everything)
            and not _file_exists(value, scope, everything, kb.config.root)
        ):
            where = ", ".join(f"{c.where}/{PATH_LINE.match(value).group('path')}" for c in scope)
            out.append(
                Drift(
                    project,
                    comp_id,
                    doc.path,
                    line,
                    "file-missing",
                    value,
                    where,
                    f"{value} is named in the doc but does not exist at HEAD",
                )
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
        if check_calls and target and target not in code.calls_to:
            out.append(
                Drift(
                    comp.project,
                    comp.id,
                    doc.path,
                    doc.line_of(f"calls.{i}"),
                    "call-missing",
                    f"{call.get('env_var')} -> {target}",
                    code.where,
                    f"calls {target} via {call.get('env_var')}, but the graph has no "
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
        scope = _doc_scope(doc, code)
        if len(scope) == 1:
            changed = changed_since(doc, scope[0])
            if changed is None:
                unknown.append(doc.path)
            else:
                drifts.extend(changed)
    return sorted(set(drifts)), sorted(unknown)
