"""Environment variables declared outside code: `.env`, `.env.example`, `.env.development`,
... (`export X=` accepted), and the reads of a Prisma schema (`url = env("DATABASE_URL")`).
Reads in code are found by evaluation (engine/env_reads.py) and every READS_ENV edge —
the Prisma schema's included, handed over in `ctx.shared.env.reads` — is written by
`engine.env`'s one emitter, which also makes the env_var node of a name nobody declared.

env_var node (of a declared name): qualifier and name = the variable NAME, one per name per
component (merged into an env_var node another extractor already made); file:line of the
first declaration. attrs: `values` {declaring file: value} — only URL/host values, never for
a secret-looking name (TOKEN|SECRET|PASSWORD|KEY|CREDENTIAL|PRIVATE|...) and never a URL
with credentials; `declared_in` [files]; `public` (NEXT_PUBLIC_/VITE_/... exposed to
browsers); `secret_like`.
DECLARES: the `.env*` code_file (created here, attrs language="dotenv") → env_var.
Catalog rows `env_vars`: one per name, attrs `declared`, `read` (set by the emitter).
Provides `ctx.shared.env` (EnvVars: NAME → env_var node id, and the Prisma reads).
"""

from __future__ import annotations

import posixpath
import re

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.shared import CodeSymbols, EnvVars, JsSymbols
from extractors.source import SourceFile

NAME = "env_scan"
PROVIDES = (EnvVars,)
REQUIRES = (JsSymbols, CodeSymbols)  # after the extractors that make code_file nodes
SECRET_NAME = re.compile(
    r"TOKEN|SECRET|PASSW|PWD|KEY|CREDENTIAL|PRIVATE|AUTH|SALT|SIGNATURE|CERT|DSN|SESSION|COOKIE",
    re.I,
)
PUBLIC_PREFIXES = ("NEXT_PUBLIC_", "VITE_", "NUXT_PUBLIC_", "REACT_APP_", "PUBLIC_", "EXPO_PUBLIC_")
_DOTENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*?)\s*$")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://[^\s@/]+(?:[/?#]\S*)?$", re.I)
_HOST = re.compile(r"^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:/\S*)?$|^localhost(?::\d+)?$", re.I)
_PRISMA_ENV = re.compile(r"\benv\(\s*\"([A-Za-z_][A-Za-z0-9_]*)\"\s*\)")


class _Env:
    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.declared: dict[str, list[tuple[str, int]]] = {}
        self.values: dict[str, dict[str, str]] = {}


def extract(ctx: ComponentContext) -> None:
    env = _Env(ctx)
    for sf in sorted(ctx.files.values(), key=lambda f: f.rel):
        if sf.rel.endswith(".prisma"):
            _prisma(env, sf)
        elif posixpath.basename(sf.rel).startswith(".env") and sf.virtual_of is None:
            _dotenv(env, sf)
    _emit(ctx, env)


def _prisma(env: _Env, sf: SourceFile) -> None:
    """`url = env("DATABASE_URL")` in a Prisma schema."""
    owner = env.ctx.node_id("code_file", sf.rel)
    if env.ctx.find_node(owner) is None:  # ids name their kind: a code_file
        lines = sf.data.count(b"\n") + 1
        env.ctx.add_node("code_file", sf.rel, sf.rel, sf.rel, 1, lines, language="prisma")
    for number, raw in enumerate(sf.text.splitlines(), start=1):
        for found in _PRISMA_ENV.finditer(raw.split("//", 1)[0]):
            env.ctx.shared.env.reads.append((owner, found.group(1), sf.rel, number,
                                              {"via": "prisma"}))  # fmt: skip


def keep_value(name: str, value: str) -> bool:
    """Only URLs and hosts, never for a secret-looking name or a URL carrying credentials."""
    if not value or SECRET_NAME.search(name):
        return False
    parts = [p.strip() for p in value.split(",") if p.strip()]
    return bool(parts) and all(_URL.match(p) or _HOST.match(p) for p in parts)


def _dotenv(env: _Env, sf: SourceFile) -> None:
    for number, raw in enumerate(sf.text.splitlines(), start=1):
        found = _DOTENV_LINE.match(raw)
        if found is None or raw.lstrip().startswith("#"):
            continue
        name, value = found.group(1), found.group(2)
        if value[:1] in {'"', "'"}:
            value = value[1:].split(value[0], 1)[0]
        else:
            value = value.split(" #", 1)[0].strip()
        env.declared.setdefault(name, []).append((sf.rel, number))
        if keep_value(name, value):
            env.values.setdefault(name, {})[sf.rel] = value


def _emit(ctx: ComponentContext, env: _Env) -> None:
    existing = {n.id: n for n in ctx.facts.nodes if n.kind in {"env_var", "code_file"}}
    ids = ctx.shared.env.ids
    for rel in sorted({rel for places in env.declared.values() for rel, _ in places}):
        if ctx.node_id("code_file", rel) not in existing:
            lines = ctx.files[rel].data.count(b"\n") or 1
            ctx.add_node("code_file", rel, rel, rel, 1, lines, language="dotenv")
    for name in sorted(env.declared):
        declared = env.declared[name]
        rel, line = declared[0]
        attrs = {
            "declared_in": sorted({r for r, _ in declared}),
            "public": name.startswith(PUBLIC_PREFIXES),
            "secret_like": bool(SECRET_NAME.search(name)),
        }
        if name in env.values:
            attrs["values"] = dict(sorted(env.values[name].items()))
        node_id = ctx.node_id("env_var", name)
        if node_id in existing:
            node = existing[node_id]
            values = {**(node.attrs.get("values") or {}), **attrs.pop("values", {})}
            node.attrs.update({k: v for k, v in attrs.items() if k not in node.attrs})
            if values:
                node.attrs["values"] = values
        else:
            ctx.add_node("env_var", name, name, rel, line, **attrs)
        ids[name] = node_id
        for file, at in declared:
            ctx.add_edge(ctx.node_id("code_file", file), node_id, "DECLARES", file, at)
        ctx.facts.catalog.append(
            CatalogRow("env_vars", ctx.project, ctx.component, name, rel, line,
                       {"declared": True, "read": False})
        )  # fmt: skip
