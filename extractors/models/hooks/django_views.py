"""What a Django view answers (shared by the URLconf and the DRF router hooks): the HTTP
methods and handlers of a class-based view (`View.as_view()`: the methods its class and the
component's bases define, or the library base classes the `as_view` operation's data says
give them; DRF's `ViewSet.as_view({'get': 'list'})`), of a function view (its method
decorators, `data.view_methods`), and the guards a view runs behind (DRF's
`authentication_classes` / `permission_classes` / `throttle_classes`, else the settings'
`REST_FRAMEWORK` defaults: `data.guards`, `data.settings`). Each guard and middleware is
named by its class: a component class is that class, a dotted path to a package class the
last name (`"x.y.CorsMiddleware"` -> `CorsMiddleware`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.values import ArrLit, Ext, Func, Klass, Lit, Obj, ObjLit, Site, Value
from extractors.lang.expr import EArray, EObject
from extractors.models.named import setting

if TYPE_CHECKING:
    from extractors.engine.interpret import Interpreter

Route = tuple[str, Value | None, list[tuple[Value, Site]]]  # (method, handler, guards)
MAX_BASES = 6


def op_data(interp: Interpreter, model_id: str, call: str) -> dict:
    """The `data:` of a model's operation named `call` (`as_view`)."""
    model = interp.lib.by_id.get(model_id)
    for op in model.operations if model is not None else ():
        if call in op.calls and op.data:
            return op.data
    return {}


def class_of(value: Value | None) -> Klass | None:
    """The class a view object stands for (the `class` its `as_view` was called on)."""
    if isinstance(value, Klass):
        return value
    if isinstance(value, Obj) and value.origin.rel and not value.origin.rel.startswith("<"):
        return Klass(value.origin, value.name)
    return None


def view_routes(interp: Interpreter, view: Value | None) -> list[Route] | None:
    """(method, handler, guards) per method a view answers; None for what is no view of
    the component (a package's view: its routes are named, its handler is not known)."""
    if isinstance(view, Obj) and view.prop("class") is not None:
        klass = class_of(view.prop("class"))
        return class_routes(interp, view.model, klass, view.prop("actions")) if klass else None
    if isinstance(view, Func):
        return function_routes(interp, view)
    return None


def class_routes(interp: Interpreter, model_id: str, klass: Klass,
                 actions: Value | None) -> list[Route]:  # fmt: skip
    data = op_data(interp, model_id, "as_view")
    guards = guards_of(interp, klass, data)
    if isinstance(actions, ObjLit):  # `as_view({'get': 'list', 'post': 'create'})`
        out = []
        for verb, action in _pairs(interp, actions):
            out.append((verb.upper(), handler_of(interp, klass, action, data), guards))
        return out
    out = []
    for verb in data.get("methods", ()):
        handler = handler_of(interp, klass, verb, data)
        if handler is not None:
            out.append((verb.upper(), handler, guards))
    return out or [("GET", klass, guards)]


def handler_of(interp: Interpreter, klass: Klass, name: str, data: dict) -> Value | None:
    """The class's (or a component base's) method `name`; the class itself when a library
    base gives it (`data.inherited`: base name -> the methods or actions it provides)."""
    found = interp.ev.class_member(klass, name, 1)
    if isinstance(found, Func):
        return found
    inherited = data.get("inherited") or {}
    if any(name in inherited.get(base, ()) for base in library_bases(interp, klass)):
        return klass
    return None


def library_bases(interp: Interpreter, klass: Klass, depth: int = 0) -> list[str]:
    """The last names of the library classes a class derives from, through its bases."""
    ev = interp.ev
    a = ev.program.adapter(klass.site.rel)
    node = a.node_at(klass.site) if a is not None else None
    info = a.klass(node) if node is not None else None
    out: list[str] = []
    for base in info.bases if info is not None and depth < MAX_BASES else ():
        value = ev.eval(klass.site.rel, base, None)
        if isinstance(value, Ext) and value.path:
            out.append(value.path[-1])
        elif isinstance(value, Klass):
            out += library_bases(interp, value, depth + 1)
    return out


def function_routes(interp: Interpreter, fn: Func) -> list[Route]:
    """A function view: the methods its decorators allow (else the default), behind the
    guard decorators the models name (and DRF's defaults for an `@api_view` function)."""
    ev = interp.ev
    a = ev.program.adapter(fn.site.rel)
    node = a.node_at(fn.site) if a is not None else None
    methods: list[str] = []
    guards = list(interp.decorators.function_middleware(fn, None))
    defaults: dict = {}
    for expr in a.function(node).decorators if a is not None and node is not None else ():
        view = a.call_view(expr)
        head = ev.eval(fn.site.rel, view.callee if view is not None else expr, None)
        name = head.path[-1] if isinstance(head, Ext) and head.path else ""
        for model in interp.lib.models:
            data = op_data(interp, model.id, "as_view")
            allowed = (data.get("view_methods") or {}).get(name)
            if allowed == "arg0" and view is not None and view.args:
                value = ev.eval(fn.site.rel, view.args[0], None)
                items = value.items if isinstance(value, ArrLit) else (value,)
                methods += [str(v.value).upper() for v in items if isinstance(v, Lit)]
            elif isinstance(allowed, list):
                methods += [str(m).upper() for m in allowed]
            if name and name == data.get("guarded_by"):
                defaults = data
    if defaults:
        guards += guards_of(interp, None, defaults)
    return [(m, fn, guards) for m in dict.fromkeys(methods or ["GET"])]


def guards_of(interp: Interpreter, klass: Klass | None, data: dict) -> list[tuple[Value, Site]]:
    """A view's guards by kind, in order: the class attribute (through its bases), else the
    default the settings give (`data.guards`: [attribute, setting key])."""
    out: list[tuple[Value, Site]] = []
    for attr, key in data.get("guards", ()):
        found = class_attr(interp, klass, attr) if klass is not None else None
        if found is None:
            found = settings_entry(interp, data, key)
        if found is not None:
            out += named_items(interp, *found)
    return out


def class_attr(interp: Interpreter, klass: Klass, name: str, depth: int = 0):
    """(file, value node) of a class attribute, from the class or a component base."""
    ev = interp.ev
    a = ev.program.adapter(klass.site.rel)
    node = a.node_at(klass.site) if a is not None else None
    info = a.klass(node) if node is not None else None
    if info is None or depth > MAX_BASES:
        return None
    if name in info.fields:
        return klass.site.rel, info.fields[name]
    for base in info.bases:
        value = ev.eval(klass.site.rel, base, None)
        if isinstance(value, Klass):
            found = class_attr(interp, value, name, depth + 1)
            if found is not None:
                return found
    return None


def settings_entry(interp: Interpreter, data: dict, key: str):
    """(file, value node) of `key` in the settings dict `data.settings` names
    ([model, NAME]: `REST_FRAMEWORK` of Django's settings module)."""
    owner, _, name = str(data.get("settings") or "").partition(".")
    model = interp.lib.by_id.get(owner)
    if model is None or not name:
        return None
    value = setting(interp.ev, model, "settings", name, interp.lib.named)
    if not isinstance(value, ObjLit):
        return None
    a = interp.ev.program.adapter(value.site.rel)
    node = a.node_at(value.site) if a is not None else None
    view = a.view(node) if a is not None and node is not None else None
    for entry in view.entries if isinstance(view, EObject) else ():
        if entry.key == key:
            return value.site.rel, entry.value
    return None


def named_items(interp: Interpreter, rel: str, node) -> list[tuple[Value, Site]]:
    """Each element of a written list (`["a.b.C", D]`) as a middleware, at its own line."""
    a = interp.ev.program.adapter(rel)
    view = a.view(node) if a is not None else None
    nodes = view.items if isinstance(view, EArray) else [node]
    return [(named(interp, rel, item), a.site(item)) for item in nodes]  # type: ignore[union-attr]


def named(interp: Interpreter, rel: str, node) -> Value:
    """A class named by a dotted string or a name: the component's class, else its last name."""
    ev = interp.ev
    value = ev.eval(rel, node, None)
    if isinstance(value, Lit) and isinstance(value.value, str):
        module, _, name = value.value.rpartition(".")
        target = module_rel(interp, module)
        found = ev.program.exported(ev, target, name) if target else None
        return found if isinstance(found, Klass) else Lit(name)
    if isinstance(value, Klass):
        return value
    text = interp.ev.program.adapter(rel).text(node)  # type: ignore[union-attr]
    return Lit(" ".join(text.split()).rsplit(".", 1)[-1])


def module_rel(interp: Interpreter, dotted: str) -> str | None:
    """The file of a dotted module name of the component (`shop.urls`)."""
    return interp.ev.program.module_named(dotted)


def _pairs(interp: Interpreter, obj: ObjLit) -> list[tuple[str, str]]:
    a = interp.ev.program.adapter(obj.site.rel)
    node = a.node_at(obj.site) if a is not None else None
    view = a.view(node) if a is not None and node is not None else None
    out = []
    for entry in view.entries if isinstance(view, EObject) else ():
        value = interp.ev.eval(obj.site.rel, entry.value, obj.act)
        if entry.key and isinstance(value, Lit) and isinstance(value.value, str):
            out.append((entry.key, value.value))
    return out
