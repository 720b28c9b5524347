"""Environment variables: who reads them, which `.env*` files declare them.

Reads: `process.env.X`, `process.env["X"]`, `const { A, B: b } = process.env`,
`import.meta.env.X` (JS family, Vue script blocks included), `env.X` through a validated
config object (`createEnv({ runtimeEnv })`, `schema.validate(process.env)`), Prisma
`env("X")`. Python reads are `python.env`'s (it runs after this one and adds to the
same env_var nodes).
Declarations: `.env`, `.env.example`, `.env.development`, ... (`export X=` accepted).

env_var node: qualifier and name = the variable NAME, one per name per component (merged into
an env_var node another extractor already made); file:line of the first declaration, else
the first read. attrs: `values` {declaring file: value} — only URL/host values, never for a
secret-looking name (TOKEN|SECRET|PASSWORD|KEY|CREDENTIAL|PRIVATE|...) and never a URL with
credentials; `declared_in` [files]; `public` (NEXT_PUBLIC_/VITE_/... exposed to browsers);
`secret_like`.
READS_ENV: enclosing symbol (or code_file for module level) → env_var, one edge per read site
(file:line), attr `via` (process.env, import.meta.env, os.environ, pydantic, prisma, and
`config:<object>` for reads through a validated env object — js/envconfig.py — and the
path as written, `config.jwt.secret`, for a use of a config object's value built from a
variable — js/envderived.py).
DECLARES: the `.env*` code_file (created here, attrs language="dotenv") → env_var.
Catalog rows `env_vars`: one per name, attrs `declared`, `read`.
Provides `ctx.shared.env` (EnvVars: NAME → env_var node id).
"""

from __future__ import annotations

import posixpath
import re

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.js.common import (
    JS_LANGUAGES,
    owner_at,
    string_value,
    text,
)
from extractors.js.envconfig import config_reads, env_objects
from extractors.js.envderived import derived_objects, derived_reads
from extractors.js.index import file_index
from extractors.shared import CodeSymbols, EnvVars, JsSymbols
from extractors.source import SourceFile

NAME = "env_scan"
PROVIDES = (EnvVars,)
REQUIRES = (JsSymbols, CodeSymbols)  # reads are attributed to symbols of every language
SECRET_NAME = re.compile(
    r"TOKEN|SECRET|PASSW|PWD|KEY|CREDENTIAL|PRIVATE|AUTH|SALT|SIGNATURE|CERT|DSN|SESSION|COOKIE",
    re.I,
)
PUBLIC_PREFIXES = ("NEXT_PUBLIC_", "VITE_", "NUXT_PUBLIC_", "REACT_APP_", "PUBLIC_", "EXPO_PUBLIC_")
_DOTENV_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*?)\s*$")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://[^\s@/]+(?:[/?#]\S*)?$", re.I)
_HOST = re.compile(r"^(?:[a-z0-9-]+\.)+[a-z]{2,}(?::\d+)?(?:/\S*)?$|^localhost(?::\d+)?$", re.I)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_PRISMA_ENV = re.compile(r"\benv\(\s*\"([A-Za-z_][A-Za-z0-9_]*)\"\s*\)")


class _Env:
    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.first: dict[str, tuple[str, int]] = {}
        self.declared: dict[str, list[tuple[str, int]]] = {}
        self.values: dict[str, dict[str, str]] = {}
        self.reads: dict[tuple[str, str, str, int], tuple[str, int, dict]] = {}
        self.objects: dict = {}  # JS env objects (js/envconfig.py), found once per component
        self.derived: dict = {}  # JS config objects built from them (js/envderived.py)

    def read(self, name: str, rel: str, node: TsNode, **attrs) -> None:
        if not _NAME.match(name):
            return
        owner = owner_at(self.ctx, rel, node)
        self.read_at(name, rel, SourceFile.line(node), owner, **attrs)

    def read_at(self, name: str, rel: str, line: int, owner: str, **attrs) -> None:
        """One READS_ENV edge per read site (owner, variable, file, line)."""
        self.first.setdefault(name, (rel, line))
        self.reads.setdefault((owner, name, rel, line), (rel, line, attrs))


def extract(ctx: ComponentContext) -> None:
    env = _Env(ctx)
    env.objects = env_objects(ctx)
    env.derived = derived_objects(ctx, env.objects)
    for sf in sorted(ctx.files.values(), key=lambda f: f.rel):
        if sf.language in JS_LANGUAGES:
            _js(env, sf)
        elif sf.rel.endswith(".prisma"):
            _prisma(env, sf)
        elif posixpath.basename(sf.rel).startswith(".env") and sf.virtual_of is None:
            _dotenv(env, sf)
    _emit(ctx, env)


def _js(env: _Env, sf: SourceFile) -> None:
    index = file_index(env.ctx, sf)
    for pattern, via in index.env_patterns:
        for prop in pattern.named_children:
            key = prop if prop.type == "shorthand_property_identifier_pattern" else None
            if prop.type == "pair_pattern":
                key = prop.child_by_field_name("key")
            elif prop.type == "object_assignment_pattern":
                key = prop.child_by_field_name("left")
            if key is not None:
                env.read(text(sf, key), sf.rel, prop, via=via)
    for read, node, via in index.env_reads:
        name = string_value(sf, node) if node.type == "string" else text(sf, node)
        if name:
            env.read(name, sf.rel, read, via=via)
    for name, read, via in config_reads(env.ctx, sf, env.objects):
        env.read(name, sf.rel, read, via=via)
    for name, read, via in derived_reads(env.ctx, sf, env.derived):
        env.read(name, sf.rel, read, via=via)


def _prisma(env: _Env, sf: SourceFile) -> None:
    """`url = env("DATABASE_URL")` in a Prisma schema."""
    owner = env.ctx.node_id("code_file", sf.rel)
    if env.ctx.find_node(owner) is None:  # ids name their kind: a code_file
        lines = sf.data.count(b"\n") + 1
        env.ctx.add_node("code_file", sf.rel, sf.rel, sf.rel, 1, lines, language="prisma")
    for number, raw in enumerate(sf.text.splitlines(), start=1):
        for found in _PRISMA_ENV.finditer(raw.split("//", 1)[0]):
            env.read_at(found.group(1), sf.rel, number, owner, via="prisma")


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
    names = sorted(set(env.first) | set(env.declared))
    for rel in sorted({rel for places in env.declared.values() for rel, _ in places}):
        if ctx.node_id("code_file", rel) not in existing:
            lines = ctx.files[rel].data.count(b"\n") or 1
            ctx.add_node("code_file", rel, rel, rel, 1, lines, language="dotenv")
    for name in names:
        declared = env.declared.get(name, [])
        rel, line = declared[0] if declared else env.first[name]
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
            CatalogRow(
                "env_vars", ctx.project, ctx.component, name, rel, line,
                {"declared": bool(declared), "read": name in env.first},
            )
        )  # fmt: skip
    for (owner, name, _, _), (rel, line, attrs) in sorted(
        env.reads.items(), key=lambda kv: kv[1][:2]
    ):
        ctx.add_edge(owner, ids[name], "READS_ENV", rel, line, **attrs)
