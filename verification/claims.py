"""Claims a doc body makes about code: routes, env var names and file paths.

Routes are `METHOD /path` anywhere outside fenced code; env vars and paths are inline
code spans (`ZENDESK_API_TOKEN`, `src/lib/api.ts`, `src/index.ts:12`).
"""

from __future__ import annotations

import re
from pathlib import Path

from kb.model import KbDoc
from verification.code import ComponentCode
from warehouse.routematch import best_routes

ROUTE = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+(/[^\s`|)\],;]*)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
ENV_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
FILE_EXT = re.compile(
    r"\.(?:ts|tsx|js|jsx|mjs|cjs|vue|py|tf|tfvars|json|ya?ml|toml|txt|md|sh|cfg|ini|lock)$"
)
PATH_LINE = re.compile(r"^(?P<path>[^\s:]+?)(?::(?P<line>\d+))?$")


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


def doc_scope(doc: KbDoc, code: dict[str, ComponentCode]) -> list[ComponentCode]:
    comp = doc.component or (doc.frontmatter.get("id") if doc.kind == "component" else None)
    if comp and comp in code:
        return [code[comp]]
    return list(code.values())


def is_repo_path(span: str, everything: list[ComponentCode]) -> bool:
    """A slash path without a file extension is a path claim only when its first folder
    is a folder of some repo (`src/services/`), not a module specifier (`firebase/app`)."""
    rel = PATH_LINE.match(span).group("path")
    if FILE_EXT.search(rel):
        return True
    head = rel.strip("/").split("/", 1)[0]
    return any(head in c.dirs for c in everything)


def file_exists(span: str, scope: list[ComponentCode], everything, kb_root: Path) -> bool:
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


def route_exists(claim: str, scope: list[ComponentCode], everything: list[ComponentCode]) -> bool:
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
