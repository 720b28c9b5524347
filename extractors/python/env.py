"""Python environment variable reads, each a READS_ENV edge at the read site's file:line.

- `os.environ["X"]`, `os.environ.get("X")`, `os.getenv("X")`, `environ[...]`/`getenv(...)`
  imported from os, `os.environ.setdefault("X", ...)`; the name may be any string
  expression `python.values` can evaluate (a constant, an import).
- pydantic settings: every annotated field of a class that derives (across files, through
  the component's own bases) from `BaseSettings`; the variable is `env_prefix` + the field
  name upper-cased, or its `alias`/`validation_alias`/`env`; `env_prefix` and `env_file`
  come from `class Config` or `model_config = SettingsConfigDict(...)` of the class or a base.
- django-environ: on an object assigned `environ.Env(...)`, `env("X")`, `env.str("X")`,
  `env.bool(...)`... and `env.db()` (DATABASE_URL), `env.cache()` (CACHE_URL),
  `env.email_url()` (EMAIL_URL), `env.search_url()` (SEARCH_URL), or the name passed; the
  files it loads (`env.read_env(".env")`, `$DJANGO_ENV` for `io.StringIO(os.environ.get(
  "DJANGO_ENV"))`: a whole env file held in one variable) are the reads' `env_sources`.

Runs after `infra.env` (which made the env_var nodes of declared names): a name nobody
declared gets its env_var node here (at its first read) and its `env_vars` catalog row.
READS_ENV: enclosing symbol (or code_file) → env_var, attr `via` (os.environ, pydantic,
django-environ); pydantic edges also carry `field` and `env_file`. Reads of a settings object's
fields elsewhere (`settings.secret_key`, `via` settings / argument): `python.settings_reads`;
JWT guards reading the signing key's env var: `python.jwt_secret`.
"""

from __future__ import annotations

import re

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.python.aliases import as_imported, import_aliases
from extractors.python.index import py_matches
from extractors.python.jwt_secret import jwt_reads
from extractors.python.model import PyModule
from extractors.python.settings_reads import field_reads
from extractors.python.symbols import call_args, text
from extractors.python.values import Cls, Values, unwrap
from extractors.shared import CodeSymbols, EnvVars, PyModules
from extractors.source import SourceFile

NAME = "python_env"
PROVIDES = (EnvVars,)
REQUIRES = (PyModules, CodeSymbols, EnvVars)  # after infra.env made the declared names
_ENV_OBJECTS = {"os.environ", "environ"}
_GETTERS = {"os.environ.get", "environ.get", "os.getenv", "getenv", "os.environ.setdefault",
            "os.environ.pop", "environ.setdefault"}  # fmt: skip
_ENV_URLS = {"db": "DATABASE_URL", "db_url": "DATABASE_URL", "cache": "CACHE_URL",
             "cache_url": "CACHE_URL", "email_url": "EMAIL_URL", "search_url": "SEARCH_URL"}  # fmt: skip
_ENV_TYPED = {"str", "bool", "int", "float", "list", "tuple", "dict", "json", "url", "path",
              "decimal", "bytes", "parse_value"}  # fmt: skip
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_ENV_NAMED = re.compile(
    r"""(?:environ\.get|getenv|environ\[)\(?\s*["']([A-Za-z_][A-Za-z0-9_]*)["']"""
)
_SECRET = re.compile(
    r"TOKEN|SECRET|PASSW|PWD|KEY|CREDENTIAL|PRIVATE|AUTH|SALT|SIGNATURE|CERT|DSN|SESSION|COOKIE",
    re.I,
)


class _Reads:
    def __init__(self, ctx: ComponentContext) -> None:
        self.ctx = ctx
        self.values: Values = ctx.shared.py.resolver.values
        self.seen: set[tuple[str, str, int]] = set()
        self.rows: list[tuple[str, str, str, int, dict]] = []  # owner, NAME, rel, line, attrs
        self.fields: dict[Cls, dict[str, str]] = {}  # settings class → field → env var NAME

    def add(self, mod: PyModule, name: str | None, node: TsNode, owner: str | None = None,
            line: int | None = None, **attrs) -> None:  # fmt: skip
        if not name or not _NAME.match(name):
            return
        owner = owner or mod.enclosing(node.start_byte)
        line = line or SourceFile.line(node)
        if (owner, name, line) not in self.seen:
            self.seen.add((owner, name, line))
            self.rows.append((owner, name, mod.rel, line, attrs))

    def name_of(self, mod: PyModule, node: TsNode | None) -> str | None:
        value = self.values.string(mod.rel, node) if node is not None else None
        return value.text if value is not None and value.known else None


def extract(ctx: ComponentContext) -> None:
    if not ctx.shared.py.modules or ctx.shared.py.resolver is None:
        return
    reads = _Reads(ctx)
    for mod in ctx.shared.py.modules.values():
        _os_environ(reads, mod)
        _django_environ(reads, mod)
        for name in reads.values.defs(mod.rel).classes:
            _settings(reads, mod, (mod.rel, name))
    field_reads(reads.values, ctx.shared.py.modules, reads.fields, reads.add)
    jwt_reads(ctx, ctx.shared.py.modules, reads.rows)
    _emit(ctx, reads)


def _os_environ(reads: _Reads, mod: PyModule) -> None:
    sf = mod.sf
    aliases = {k: v for k, v in import_aliases(sf).items() if v == "os" or v.startswith("os.")}
    for m in py_matches(reads.ctx, sf, "env"):
        if as_imported(text(sf, m["env"][0]), aliases) in _ENV_OBJECTS:
            reads.add(mod, reads.name_of(mod, m["name"][0]), m["read"][0], via="os.environ")
    for m in py_matches(reads.ctx, sf, "calls"):
        if as_imported(text(sf, m["fn"][0]).replace(" ", ""), aliases) in _GETTERS:
            pos, kw = call_args(sf, m["call"][0])
            first = pos[0] if pos else kw.get("key")
            reads.add(mod, reads.name_of(mod, first), m["call"][0], via="os.environ")


def _django_environ(reads: _Reads, mod: PyModule) -> None:
    """`env = environ.Env(...)`, then `env("X")`, `env.bool("X")`, `env.db()`..."""
    sf = mod.sf
    if b"Env(" not in sf.data and b"environ" not in sf.data:
        return
    envs: dict[str, bool] = {}
    start, sources = len(reads.rows), []
    for m in py_matches(reads.ctx, sf, "calls"):
        call, fn = m["call"][0], m["fn"][0]
        dotted = text(sf, fn)
        head, _, method = dotted.partition(".")
        if head not in envs:
            found = (
                reads.values.value_of(
                    mod.rel,
                    fn if fn.type == "identifier" else fn.child_by_field_name("object"),
                    None,
                )
                if fn.type in {"identifier", "attribute"}
                else None
            )
            callee = (
                found[1].child_by_field_name("function")
                if found and found[1].type == "call"
                else None
            )
            envs[head] = (
                callee is not None
                and reads.values.text(found[0], callee).rsplit(".", 1)[-1] == "Env"
            )
        if not envs[head] or "." in method:
            continue
        pos, kw = call_args(sf, call)
        if method == "read_env" and pos:  # env.read_env(io.StringIO(os.environ.get("X")))
            named = _ENV_NAMED.search(text(sf, pos[0]))
            sources.append(f"${named.group(1)}" if named else text(sf, pos[0])[:80])
            continue
        first = pos[0] if pos else kw.get("var")
        if method in _ENV_URLS:
            name = reads.name_of(mod, first) if first is not None else _ENV_URLS[method]
        elif method in _ENV_TYPED or (method == "" and fn.type == "identifier"):
            name = reads.name_of(mod, first)
        else:
            continue
        reads.add(mod, name, call, via="django-environ")
    for row in reads.rows[start:] if sources else []:
        if row[4].get("via") == "django-environ":
            row[4]["env_sources"] = sources


def _settings(reads: _Reads, mod: PyModule, cls: Cls) -> None:
    values = reads.values
    if "BaseSettings" not in values.base_names(cls):
        return
    prefix, env_file = _config(values, cls)
    node = values.defs(cls[0]).classes[cls[1]]
    body = node.child_by_field_name("body")
    for stmt in body.named_children if body is not None else []:
        expr = unwrap(stmt)
        if expr is None or expr.type != "assignment" or expr.child_by_field_name("type") is None:
            continue
        left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
        field = text(mod.sf, left)
        if left.type != "identifier" or field.startswith("_") or field == "model_config":
            continue
        if text(mod.sf, expr.child_by_field_name("type")).startswith("ClassVar"):
            continue
        alias = None
        if right is not None and right.type == "call":
            _, kw = call_args(mod.sf, right)
            for key in ("validation_alias", "alias", "env"):
                alias = alias or reads.name_of(mod, kw.get(key))
        attrs = {"via": "pydantic", "field": field}
        if env_file:
            attrs["env_file"] = env_file
        reads.fields.setdefault(cls, {})[field] = alias or (prefix + field).upper()
        reads.add(mod, alias or (prefix + field).upper(), expr, **attrs)


def _config(values: Values, cls: Cls, depth: int = 0) -> tuple[str, str | None]:
    """(env_prefix, env_file) of a settings class, inherited from its bases."""
    prefix = env_file = None
    rel, name = cls
    node = values.defs(rel).classes.get(name)
    body = node.child_by_field_name("body") if node is not None else None
    mod = values.mods[rel]
    for stmt in body.named_children if body is not None else []:
        expr = unwrap(stmt)
        pairs: list[tuple[str, TsNode]] = []
        if (
            expr is not None
            and expr.type == "class_definition"
            and text(mod.sf, expr.child_by_field_name("name")) == "Config"
        ):
            for inner in expr.child_by_field_name("body").named_children:
                assign = unwrap(inner)
                if assign is not None and assign.type == "assignment":
                    pairs.append(
                        (
                            text(mod.sf, assign.child_by_field_name("left")),
                            assign.child_by_field_name("right"),
                        )
                    )
        elif (
            expr is not None
            and expr.type == "assignment"
            and text(mod.sf, expr.child_by_field_name("left")) == "model_config"
        ):
            right = expr.child_by_field_name("right")
            if right is not None and right.type == "call":
                pairs = list(call_args(mod.sf, right)[1].items())
        for key, value in pairs:
            got = values.string(rel, value, None) if value is not None else None
            if got is not None and key == "env_prefix":
                prefix = got.text
            elif got is not None and key == "env_file":
                env_file = got.text
    if (prefix is None or env_file is None) and depth < 6:
        for base in values.bases(cls):
            bprefix, bfile = _config(values, base, depth + 1)
            prefix = prefix if prefix is not None else (bprefix or None)
            env_file = env_file or bfile
    return prefix or "", env_file


def _emit(ctx: ComponentContext, reads: _Reads) -> None:
    ids = ctx.shared.env.ids
    rows = {r.name: r for r in ctx.facts.catalog if r.table == "env_vars"}
    for owner, name, rel, line, attrs in reads.rows:
        if name not in ids:
            ids[name] = ctx.add_node("env_var", name, name, rel, line, declared_in=[], public=False,
                                     secret_like=bool(_SECRET.search(name)))  # fmt: skip
            rows[name] = CatalogRow("env_vars", ctx.project, ctx.component, name, rel, line,
                                    {"declared": False, "read": True})  # fmt: skip
            ctx.facts.catalog.append(rows[name])
        elif name in rows:
            rows[name].attrs["read"] = True
        ctx.add_edge(owner, ids[name], "READS_ENV", rel, line, **attrs)
