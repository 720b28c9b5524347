"""What a Python route passes through before its handler, each at the line where this route
gets it: FastAPI `Depends`/`Security` (in `dependencies=[...]`, as a parameter default, inside
`Annotated[..., Depends(f)]` or through a module-level alias `CurrentUser = Annotated[User,
Depends(get_current_user)]`), and decorators that guard a view (`@jwt_required`,
`@login_required`, `@permission_required(...)`, `@csrf_exempt`, or any decorator defined in
the component itself).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node as TsNode

from extractors.python.model import PyModule
from extractors.python.scope import calls_in
from extractors.python.symbols import call_args, text
from extractors.python.values import Values
from extractors.source import SourceFile

DEPENDS = {"Depends", "Security", "fastapi.Depends", "fastapi.Security", "params.Depends"}
# decorators of a view that run before it (auth, permissions, CSRF, method guards, limits)
GUARD = re.compile(
    r"login|logout|jwt|auth|token|permission|require|csrf|role|admin|limit|throttle|"
    r"guard|protect|verify|secure|allow|deny|staff|superuser|scope|api_key|apikey",
    re.I,
)
_NOT_GUARDS = {"route", "get", "post", "put", "patch", "delete", "head", "options", "action"}


@dataclass
class Mw:
    name: str
    rel: str
    line: int
    kind: str
    symbol: str | None = None
    expr: str | None = (
        None  # the call as written when it takes arguments (`authorizer(required=False)`)
    )


class Deps:
    def __init__(self, values: Values, symbol) -> None:
        self.values = values
        self.symbol = symbol  # resolver.symbol or None

    def mw(self, mod: PyModule, target: TsNode, kind: str, at: TsNode) -> Mw:
        """A middleware named by `target` (a call names its function), used at `at`'s line."""
        expr = text(mod.sf, target) if target.type == "call" else None
        while target.type == "call":
            target = target.child_by_field_name("function")
        name = text(mod.sf, target)
        sym = (
            self.symbol(mod.rel, name)
            if self.symbol and target.type in {"identifier", "attribute"}
            else None
        )
        return Mw(name.rsplit(".", 1)[-1], mod.rel, SourceFile.line(at), kind, sym, expr)

    def depends_target(self, mod: PyModule, call: TsNode) -> TsNode | None:
        """`f` of `Depends(f)` / `Depends(dependency=f)`; None when `call` is not Depends."""
        fn = call.child_by_field_name("function") if call.type == "call" else None
        if fn is None or text(mod.sf, fn) not in DEPENDS:
            return None
        pos, kw = call_args(mod.sf, call)
        return pos[0] if pos else kw.get("dependency")

    def listed(self, mod: PyModule, value: TsNode | None, kind: str) -> list[Mw]:
        """`dependencies=[Depends(a), Depends(b)]`, each at its own line."""
        out = []
        for item in value.named_children if value is not None and value.type == "list" else []:
            target = self.depends_target(mod, item)
            if target is not None:
                out.append(self.mw(mod, target, kind, item))
        return out

    def parameters(self, mod: PyModule, defn: TsNode) -> list[Mw]:
        """Parameter dependencies in parameter order: default `Depends(f)`, `Annotated[T,
        Depends(f)]`, or an annotation naming such an alias (resolved across modules)."""
        out = []
        params = defn.child_by_field_name("parameters")
        for param in params.named_children if params is not None else []:
            default = param.child_by_field_name("value")
            target = self.depends_target(mod, default) if default is not None else None
            if target is not None:
                out.append(self.mw(mod, target, "param_dependency", default))
                continue
            found = self._annotated(mod, param.child_by_field_name("type"), 0)
            if found is not None:
                amod, target = found
                mw = self.mw(amod, target, "param_dependency", param)
                mw.rel, mw.line = mod.rel, SourceFile.line(param)
                out.append(mw)
        return out

    def _annotated(self, mod: PyModule, node: TsNode | None, depth: int):
        """(module, Depends target) inside an annotation, following aliases across files."""
        if node is None or depth > 4:
            return None
        if node.type == "type" and node.named_children:
            node = node.named_children[0]
        if node.type in {"generic_type", "subscript"}:
            for call in calls_in(node):
                target = self.depends_target(mod, call)
                if target is not None:
                    return mod, target
            return None
        if node.type in {"identifier", "attribute"}:
            found = self.values.where(mod.rel, text(mod.sf, node))
            if found is None:
                return None
            value = self.values.defs(found[0]).assigns.get(found[1])
            if value is not None:
                return self._annotated(self.values.mods[found[0]], value, depth + 1)
        return None

    def decorators(self, mod: PyModule, dd: TsNode, skip: TsNode | None) -> list[Mw]:
        """Guarding decorators of a view, top to bottom (`skip`: the route decorator)."""
        out = []
        for dec in (c for c in dd.children if c.type == "decorator"):
            expr = dec.named_children[0] if dec.named_children else None
            if expr is None or expr == skip:
                continue
            head = expr.child_by_field_name("function") if expr.type == "call" else expr
            if head is None or head.type not in {"identifier", "attribute"}:
                continue
            dotted = text(mod.sf, head)
            last = dotted.rsplit(".", 1)[-1]
            if last in _NOT_GUARDS:
                continue
            local = self.symbol(mod.rel, dotted) if self.symbol else None
            if GUARD.search(last) or (
                local is not None and _is_decorator(self.values, mod, dotted)
            ):
                out.append(self.mw(mod, head, "decorator", dec))
        return out


def _is_decorator(values: Values, mod: PyModule, dotted: str) -> bool:
    """A component function that wraps another (defines an inner function it returns)."""
    found = values.function(mod.rel, dotted)
    if found is None:
        return False
    body = found[1].child_by_field_name("body")
    return any(
        (s.child_by_field_name("definition") if s.type == "decorated_definition" else s).type
        == "function_definition"
        for s in (body.named_children if body is not None else [])
        if s.type in {"function_definition", "decorated_definition"}
    )
