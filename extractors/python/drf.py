"""Django REST framework: the routes a router generates and the views' own guards.

`router.register("products", ProductViewSet)` gives, as DRF's `SimpleRouter` does,
`{prefix}/` (GET list, POST create) and `{prefix}/<lookup>/` (GET retrieve, PUT update,
PATCH partial_update, DELETE destroy) for each action the viewset has — defined on the class
or a base of the component, or inherited from DRF's `ModelViewSet`, `ReadOnlyModelViewSet`
and the `*ModelMixin`s — plus each `@action(detail=..., methods=[...], url_path=...)`.
`DefaultRouter` also serves its API root at `{mount}/`. The handler is the method when the
class (or a base of the component) defines it, else the viewset class itself.

Guards: `authentication_classes`, `permission_classes`, `throttle_classes` of the view
(through its bases), else the settings' `REST_FRAMEWORK` defaults, each at its own line.
"""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node as TsNode

from extractors.python.deps import Mw
from extractors.python.model import PyModule
from extractors.python.symbols import call_args, string_value, text
from extractors.python.values import Cls, Values
from extractors.source import SourceFile

LIST = (("GET", "list"), ("POST", "create"))
DETAIL = (("GET", "retrieve"), ("PUT", "update"), ("PATCH", "partial_update"),
          ("DELETE", "destroy"))  # fmt: skip
_ALL = {"list", "create", "retrieve", "update", "partial_update", "destroy"}
INHERITED = {
    "ModelViewSet": _ALL,
    "ReadOnlyModelViewSet": {"list", "retrieve"},
    "ListModelMixin": {"list"},
    "CreateModelMixin": {"create"},
    "RetrieveModelMixin": {"retrieve"},
    "UpdateModelMixin": {"update", "partial_update"},
    "DestroyModelMixin": {"destroy"},
}
GENERIC_VIEWS = {  # rest_framework.generics: HTTP methods a class-based view answers
    "ListAPIView": {"get"}, "CreateAPIView": {"post"}, "RetrieveAPIView": {"get"},
    "DestroyAPIView": {"delete"}, "UpdateAPIView": {"put", "patch"},
    "ListCreateAPIView": {"get", "post"}, "RetrieveUpdateAPIView": {"get", "put", "patch"},
    "RetrieveDestroyAPIView": {"get", "delete"},
    "RetrieveUpdateDestroyAPIView": {"get", "put", "patch", "delete"},
}  # fmt: skip
GUARD_ATTRS = (
    ("authentication_classes", "DEFAULT_AUTHENTICATION_CLASSES"),
    ("permission_classes", "DEFAULT_PERMISSION_CLASSES"),
    ("throttle_classes", "DEFAULT_THROTTLE_CLASSES"),
)
ROUTERS = {"DefaultRouter", "SimpleRouter", "ExtendedDefaultRouter", "NestedSimpleRouter"}


@dataclass
class ViewRoute:
    path: str  # relative to the router's mount, no leading slash
    method: str
    handler: str | None
    rel: str
    line: int
    cls: Cls | None


def is_drf_view(values: Values, cls: Cls) -> bool:
    names = set(values.base_names(cls))
    return bool(names & ({"APIView", "GenericAPIView", "ViewSet", "GenericViewSet",
                          "ModelViewSet", "ReadOnlyModelViewSet"} | set(GENERIC_VIEWS)))  # fmt: skip


def actions(values: Values, cls: Cls) -> dict[str, str]:
    """action name -> handler symbol (the method, or the class for an inherited action)."""
    return _handlers(values, cls, sorted(_ALL), INHERITED)


def _handlers(values: Values, cls: Cls, names, inherits: dict[str, set[str]]) -> dict[str, str]:
    """name -> the class's (or a local base's) method, else the class when a DRF base in
    `inherits` provides that name."""
    class_id = values.mods[cls[0]].symbols.get(cls[1])
    inherited: set[str] = set()
    for base in values.base_names(cls):
        inherited |= inherits.get(base, set())
    found: dict[str, str] = {}
    for name in names:
        sym = values.method(cls, name)
        if sym or (name in inherited and class_id):
            found[name] = sym or class_id
    return found


def router_routes(values: Values, mod: PyModule, call: TsNode, slash: str) -> list[ViewRoute]:
    """The routes of one `router.register(prefix, ViewSet, ...)` call."""
    sf = mod.sf
    pos, kw = call_args(sf, call)
    prefix_node = pos[0] if pos else kw.get("prefix")
    view = pos[1] if len(pos) > 1 else kw.get("viewset")
    prefix = values.string(mod.rel, prefix_node) if prefix_node is not None else None
    cls = values.class_named(mod.rel, text(sf, view)) if view is not None else None
    if prefix is None or cls is None:
        return []
    line = SourceFile.line(call)
    lookup = _lookup(values, cls)
    base = prefix.text.strip("/")
    out: list[ViewRoute] = []
    have = actions(values, cls)
    for method, action in LIST:
        if action in have:
            out.append(ViewRoute(f"{base}{slash}", method, have[action], mod.rel, line, cls))
    for method, action in DETAIL:
        if action in have:
            out.append(
                ViewRoute(f"{base}/{lookup}{slash}", method, have[action], mod.rel, line, cls)
            )
    for extra in _extra_actions(values, cls):
        name, detail, methods, url_path, dec_line, handler, where = extra
        path = f"{base}/{lookup}/{url_path}{slash}" if detail else f"{base}/{url_path}{slash}"
        for method in methods:
            out.append(ViewRoute(path, method, handler, where, dec_line, cls))
    return out


def _lookup(values: Values, cls: Cls) -> str:
    for attr in ("lookup_url_kwarg", "lookup_field"):
        found = values.class_attr(cls, attr)
        value = values.string(found[0], found[1], None) if found else None
        if value is not None and value.known:
            return f"<{value.text}>"
    return "<pk>"


def _extra_actions(values: Values, cls: Cls, depth: int = 0):
    """(name, detail, methods, url_path, decorator line, handler, rel) per `@action` method."""
    rel, name = cls
    node = values.defs(rel).classes.get(name)
    body = node.child_by_field_name("body") if node is not None else None
    mod = values.mods[rel]
    out = []
    for member in body.named_children if body is not None else []:
        if member.type != "decorated_definition":
            continue
        defn = member.child_by_field_name("definition")
        for dec in (c for c in member.children if c.type == "decorator"):
            expr = dec.named_children[0] if dec.named_children else None
            if expr is None or expr.type != "call":
                continue
            if text(mod.sf, expr.child_by_field_name("function")).rsplit(".", 1)[-1] != "action":
                continue
            _, kw = call_args(mod.sf, expr)
            fname = text(mod.sf, defn.child_by_field_name("name"))
            detail = text(mod.sf, kw.get("detail")) == "True"
            methods = [m.upper() for m in strings(mod, kw.get("methods"))] or ["GET"]
            url_path = string_value(mod.sf, kw.get("url_path")) or fname
            out.append((fname, detail, methods, url_path, SourceFile.line(dec),
                        mod.symbols.get(f"{name}.{fname}"), rel))  # fmt: skip
    for base in values.bases(cls) if depth < 4 else []:
        out.extend(_extra_actions(values, base, depth + 1))
    return out


def strings(mod: PyModule, node: TsNode | None) -> list[str]:
    if node is None or node.type not in {"list", "tuple", "set"}:
        return []
    return [v for v in (string_value(mod.sf, n) for n in node.named_children) if v]


def view_methods(values: Values, cls: Cls) -> dict[str, str]:
    """HTTP method -> handler of a class-based view (`View.as_view()`)."""
    verbs = ("get", "post", "put", "patch", "delete")
    return {v.upper(): h for v, h in _handlers(values, cls, verbs, GENERIC_VIEWS).items()}


def guards(values: Values, cls: Cls | None, defaults: dict[str, list[Mw]]) -> list[Mw]:
    """authentication, permission, throttle classes of a DRF view, else the defaults."""
    out: list[Mw] = []
    for attr, setting in GUARD_ATTRS:
        found = values.class_attr(cls, attr) if cls else None
        if found is None:
            out.extend(defaults.get(setting, []))
            continue
        rel, node, _ = found
        mod = values.mods[rel]
        for item in node.named_children if node.type in {"list", "tuple"} else []:
            name = text(mod.sf, item).rsplit(".", 1)[-1]
            sym = values.resolver.symbol(rel, text(mod.sf, item))
            out.append(Mw(name, rel, SourceFile.line(item), attr.removesuffix("_classes"), sym))
    return out
