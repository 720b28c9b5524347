"""READS_ENV from the engine: one edge per read site `engine.env_reads` finds, from the
enclosing symbol (or code_file) to the env_var, attr `via` (and what the model adds: a settings
field's `field`, `settings_class`, `env_file`; the files a reader loads, `env_sources`).

A value read off a settings object and handed to a function of the component
(`issue(ticket, settings.signing_key)`) is read by that function too, at the call's line
(`via` `argument`, `passed_by`). Runs after `infra.env` (which made the env_var nodes of the
declared names and found the Prisma schema's reads): this is the one emitter of READS_ENV —
what another extractor finds (a Prisma `env("X")`, an SDK reading its key by itself) comes
here through `emit_reads` — and a name nobody declared gets its env_var node here, at its
first read, and its `env_vars` catalog row.
"""

from __future__ import annotations

import re

from extractors.base import ComponentContext
from extractors.engine.env_reads import EnvRead, EnvReads
from extractors.engine.values import Func
from extractors.facts import CatalogRow
from extractors.infra.env import PUBLIC_PREFIXES, SECRET_NAME
from extractors.js.common import owner_at
from extractors.python.jwt_secret import jwt_reads
from extractors.shared import CodeSymbols, EngineRun, EnvVars, PyModules
from extractors.source import SourceFile

NAME = "engine_env"
PROVIDES = (EnvVars,)
REQUIRES = (EngineRun, PyModules, CodeSymbols, EnvVars)  # after infra.env's declared names
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_STOP = {"function_definition", "class_definition", "expression_statement", "return_statement",
         "if_statement", "for_statement", "while_statement", "with_statement", "module"}  # fmt: skip
Row = tuple[str, str, str, int, dict]  # owner, NAME, rel, line, attrs


def extract(ctx: ComponentContext) -> None:
    analysis = ctx.shared.engine.result
    mods = ctx.shared.py.modules
    _constant_reads(ctx)
    if analysis is None:
        emit_reads(ctx, ctx.shared.env.reads)  # a component with no code: its schema's reads
        return
    ev = analysis.emitter.ev
    finder = EnvReads(ev, ev.library)
    rows: list[Row] = []
    seen: set[tuple[str, str, int]] = set()

    def add(owner: str, name: str, rel: str, line: int, attrs: dict) -> None:
        if _NAME.match(name) and (owner, name, line) not in seen:
            seen.add((owner, name, line))
            rows.append((owner, name, rel, line, attrs))

    ordered = []
    for rel in ev.program.rels():
        family = ev.program.family(rel)
        with ev.forgetting():  # a file's reads, evaluated once: not kept for other files
            reads = finder.file(rel, family)
            sources = _sources(finder, rel, reads) if reads and family == "py" else {}
        ordered += [(rel, read, sources) for read in reads]
    ordered.sort(key=lambda item: item[1].derived)  # a name's node: its first own read
    for rel, read, sources in ordered:
        attrs = {"via": read.via, **read.attrs}
        if sources and read.via in sources:
            attrs["env_sources"] = sources[read.via]
        owner = mods[rel].enclosing(read.node.start_byte) if rel in mods else \
            owner_at(ctx, rel, read.node)  # fmt: skip
        add(owner, read.name, rel, SourceFile.line(read.node), attrs)
        if read.derived and read.attrs.get("field"):
            _passed_to(ctx, finder, read, owner, add)
    jwt_reads(ctx, mods, rows)
    emit_reads(ctx, rows + ctx.shared.env.reads)


def _sources(finder: EnvReads, rel: str, reads: list[EnvRead]) -> dict[str, list[str]]:
    """via label -> the files a reader of that model loads in this module (`read_env(…)`)."""
    ev, a = finder.ev, finder.ev.program.adapter(rel)
    out: dict[str, list[str]] = {}
    for model in finder.lib.by_id.values():
        methods = model.env_reads.get("sources") or []
        if not methods or not any(m.encode() in a.sf.data for m in methods):
            continue
        for node in a.calls():
            view = a.call_view(node)
            if view is None or not view.args or a.terminal(view.callee) not in methods:
                continue
            obj = finder._held(ev.eval(rel, view.callee, None))
            if obj is None or obj.model != model.id:
                continue
            arg = view.args[0]
            inner = [r.name for r in reads if arg.start_byte <= r.node.start_byte < arg.end_byte]
            label = (model.env_reads.get("via") or {}).get(obj.role, model.id)
            out.setdefault(label, []).append(f"${inner[0]}" if inner else a.text(arg)[:80])
    return out


def _passed_to(ctx: ComponentContext, finder: EnvReads, read: EnvRead, owner: str, add) -> None:
    """The first call of a function of the component whose arguments carry the read value."""
    cur = read.node.parent
    while cur is not None and cur.type not in _STOP:
        if cur.type == "argument_list" and cur.parent is not None and cur.parent.type == "call":
            callee = finder.ev.eval(read.rel, cur.parent.child_by_field_name("function"), None)
            mod = ctx.shared.py.modules.get(callee.site.rel) if isinstance(callee, Func) else None
            if mod is not None:
                symbol = mod.enclosing(callee.site.start + 1)
                add(symbol, read.name, read.rel, SourceFile.line(cur.parent),
                    {"via": "argument", "field": read.attrs["field"],
                     "passed_by": owner.rsplit("#", 1)[-1]})  # fmt: skip
                return
        cur = cur.parent


def emit_reads(ctx: ComponentContext, rows: list[Row]) -> None:
    """READS_ENV edges; an env_var node and catalog row for a name nobody declared."""
    ids = ctx.shared.env.ids
    catalog = {r.name: r for r in ctx.facts.catalog if r.table == "env_vars"}
    for owner, name, rel, line, attrs in rows:
        if name not in ids:
            ids[name] = ctx.add_node("env_var", name, name, rel, line, declared_in=[],
                                     public=name.startswith(PUBLIC_PREFIXES),
                                     secret_like=bool(SECRET_NAME.search(name)))  # fmt: skip
            catalog[name] = CatalogRow("env_vars", ctx.project, ctx.component, name, rel, line,
                                       {"declared": False, "read": True})  # fmt: skip
            ctx.facts.catalog.append(catalog[name])
        elif name in catalog:
            catalog[name].attrs["read"] = True
        ctx.add_edge(owner, ids[name], "READS_ENV", rel, line, **attrs)


def _constant_reads(ctx: ComponentContext) -> None:
    """READS_ENV edges of the reads of config constants (`infra.constants`), to each
    constant's symbol."""
    for owner, symbol, rel, line, attrs in ctx.shared.env.constants:
        ctx.add_edge(owner, symbol, "READS_ENV", rel, line, **attrs)
