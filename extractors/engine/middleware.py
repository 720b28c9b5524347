"""How one element of a route's middleware chain is named: the component function it is
(its symbol; a factory called — `auth('admin')` — is the factory), else the expression as
written (`helmet`, `express.json`, `AuthGuard('jwt')` — literal arguments kept, so two
configurations stay two nodes), with the package it comes from and, for a name bound to
a library call (`const limiter = rateLimit({...})`), the line it is defined at."""

from __future__ import annotations

from dataclasses import dataclass

from extractors.engine.evaluate import Evaluator
from extractors.engine.values import Ext, Func, Instance, Klass, Lit, Method, Obj, Site, Value
from extractors.js.resolve import package_name

MAX_EXPR = 120


@dataclass
class MiddlewareUse:
    name: str  # the node's name: as written at the use
    expr: str  # the use as written (`validate(schema.login)`)
    function: Func | None = None  # a component function: the node is its symbol
    package: str | None = None
    defined: tuple[str, int] | None = None  # where a library-made middleware is defined
    klass: Klass | None = None  # a component class (a NestJS guard, pipe, middleware class)


def middleware_use(ev: Evaluator, value: Value, where: Site) -> MiddlewareUse | None:
    if isinstance(value, Obj) and not value.origin.rel.startswith("<"):
        made = value.origin  # a library object applied as middleware: named as it was made
        if made.rel != where.rel:
            where = made
        else:
            where = Site(made.rel, where.line, where.end_line, made.col, made.start, made.end)
    a = ev.program.adapter(where.rel)
    node = a.node_at(where) if a is not None else None
    if a is None or node is None:
        return MiddlewareUse(_short(str(value)), _short(str(value)))
    klass = value.klass if isinstance(value, Instance) else value
    if isinstance(klass, Klass) and klass.name:  # `StaffGuard`, `new TrimPipe()`: the class
        return MiddlewareUse(klass.name, _short(a.text(node)), klass=klass)
    expr = _short(a.text(node))
    if isinstance(value, Lit) and isinstance(value.value, str) and value.value:
        return MiddlewareUse(value.value, expr)  # a named middleware (`'auth'`): its name
    view = a.call_view(node)
    target = view.callee if view is not None else node
    written = _short(a.text(target))
    callee = ev.eval(where.rel, target, None)
    if target.type == "identifier" and isinstance(callee, Ext) and callee.path[-1:] != ("default",):
        own = callee.path[-1] if callee.path else ""  # imported under another name: its own
        if own and own != written:
            expr, written = own + expr[len(written) :] if expr.startswith(written) else expr, own
    if isinstance(callee, Func) and view is not None:
        return MiddlewareUse(written, expr, callee)  # a factory called: the factory
    if isinstance(value, Func):
        named_here = node.type in ("identifier", "member_expression", "attribute")
        return MiddlewareUse(written if named_here else value.name or written, expr, value)
    if isinstance(callee, Func):
        return MiddlewareUse(written, expr, callee)
    package = _package(ev, callee)
    literal_args = (
        view is not None
        and view.args
        and all(isinstance(ev.eval(where.rel, arg, None), Lit) for arg in view.args)
    )
    if package is not None and literal_args:
        written = expr  # `AuthGuard('jwt')` vs `AuthGuard('jwt-refresh')`
    defined = None
    if view is None:  # a name: where it is bound, and the library call that made it
        found = definition(ev, where.rel, node)
        if found is not None:
            rel, decl, init = found
            defined = (rel, decl.start_point[0] + 1)
            made = _made_by(ev, rel, init)
            package = package or made
    return MiddlewareUse(written, expr, None, package, defined)


def definition(ev: Evaluator, rel: str, node) -> tuple[str, object, object] | None:
    """(file, declaration node, initializer) of a module-level name, through imports."""
    a = ev.program.adapter(rel)
    if a is None or node.type not in ("identifier",):
        return None
    name = a.text(node)
    binding = a.resolve(name, node)
    if binding is not None and binding.kind == "decl" and binding.value is not None:
        return rel, binding.node, binding.value
    mod = ev.program.js.get(rel)
    imported = mod.imports.get(name) if mod is not None else None
    if imported is None or imported.target is None or imported.imported == "*":
        return None
    target = ev.program.js.get(imported.target)
    local = target.exports.get(imported.imported) if target is not None else None
    b = ev.program.adapter(imported.target)
    if local is None or b is None:
        return None
    found = b.resolve(local, b.root)
    if found is not None and found.kind == "decl" and found.value is not None:
        return imported.target, found.node, found.value
    return None


def _made_by(ev: Evaluator, rel: str, init) -> str | None:
    a = ev.program.adapter(rel)
    view = a.call_view(init) if a is not None else None
    if view is None:
        return None
    return _package(ev, ev.eval(rel, view.callee, None))


def _package(ev: Evaluator, callee: Value) -> str | None:
    if isinstance(callee, Ext) and not callee.package.startswith("<"):
        return package_name(callee.package)
    owner = callee.target if isinstance(callee, Method) else callee
    if isinstance(owner, Obj):
        model = ev.library.by_id.get(owner.model)
        if model is not None and model.detect:
            names = next(iter(model.detect.values()), ())
            return names[0] if names else None
    return None


def _short(text: str) -> str:
    return " ".join(text.split())[:MAX_EXPR]
