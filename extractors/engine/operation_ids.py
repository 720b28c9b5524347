"""The operationId a route's code gives it, beyond an `operation_id=` argument of the route
call itself (interpret.py): what a generated client names the operation after, read by
the bridge's operation index (warehouse/operations.py).

- A decorator that describes the handler (a model's `describes` decorator:
  `@ApiOperation({ operationId })`, `@extend_schema(operation_id=…)`), or a class decorator
  whose keywords describe its methods (`per_method`: `@extend_schema_view(list=…)`; an
  action a library base gives is named by the route's `action` attr).
- A naming function (a model's `names` operation: `FastAPI(generate_unique_id_function=f)`,
  NestJS `operationIdFactory`) evaluated by the engine with the route's facts as its
  arguments (the model's `operation_ids.args`: per parameter, a fact or an object of facts
  by member name). Its own (the route call's `operation_id_function`) wins, then the
  router's, then the app's. A function the engine cannot evaluate to a string leaves the
  id to the framework's convention, and says where the function is
  (`operation_id_function`).
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.engine.decorators import Decorators
from extractors.engine.evaluate import Evaluator
from extractors.engine.mounts import NamedRoute
from extractors.engine.values import ArrLit, Func, Klass, Lit, Obj, Value
from extractors.lang.base import FileAdapter
from extractors.models.runtime import CallSource


class OperationIds:
    def __init__(self, ev: Evaluator, namings: list, decorators: Decorators):
        self.ev = ev
        self.namings = namings
        self.decorators = decorators  # the interpreter's: one decorator index per analysis

    def attrs(self, route: NamedRoute, method: str, path: str) -> dict[str, str]:
        event = route.event
        handler = event.handler
        while isinstance(handler, Func) and handler.act is not None:  # `wrap(fn)`: fn
            inner = next((v for _, v in handler.act.values if isinstance(v, Func)), None)
            if inner is None:
                break
            handler = inner
        action = dict(event.attrs).get("action", "")
        found = self.described(handler, action)
        if found is not None:
            return {"operation_id": found[0], "operation_id_at": found[1]}
        fn = self.naming(route)
        if fn is None:
            return {}
        at = f"{fn.site.rel}:{fn.site.line}"
        facts = self._facts(route, method, path, handler)
        op_id = self.evaluate(fn, event.model, facts)
        if op_id:
            return {"operation_id": op_id, "operation_id_at": at}
        return {"operation_id_function": at}

    # --- decorators -----------------------------------------------------------------
    def described(self, handler: Value | None, action: str) -> tuple[str, str] | None:
        """(operation id, `file:line` of the decorator) the handler's decorators give."""
        klass: Klass | None = handler if isinstance(handler, Klass) else None
        name = action
        if isinstance(handler, Func):
            a = self.ev.program.adapter(handler.site.rel)
            node = a.node_at(handler.site) if a is not None else None
            if a is None or node is None or not a.is_function(node):
                return None
            name = a.function(node).name
            cls = a.class_of_method(node)
            info = a.klass(cls) if cls is not None else None
            exprs = info.method_decorators.get(name, []) if info is not None else []
            for expr in exprs if info is not None else a.function(node).decorators:
                found = self._describes(handler.site.rel, a, expr)
                if found is not None:
                    return found
            klass = Klass(a.site(cls), info.name) if cls is not None and info else None
        if klass is None or not name:
            return None
        a = self.ev.program.adapter(klass.site.rel)
        node = a.node_at(klass.site) if a is not None else None
        info = a.klass(node) if a is not None and node is not None else None
        for expr in info.decorators if info is not None else []:
            found = self.decorators.lookup(klass.site.rel, a, expr)
            view = a.call_view(expr)
            if found is None or not found[1].per_method or view is None:
                continue
            inner = view.kwargs.get(name)
            described = self._describes(klass.site.rel, a, inner) if inner is not None else None
            if described is not None:
                return described
        return None

    def _describes(self, rel: str, a: FileAdapter, expr: TsNode) -> tuple[str, str] | None:
        found = self.decorators.lookup(rel, a, expr)
        if found is None or found[1].action != "describes" or found[2] is None:
            return None
        _, deco, call = found
        value = CallSource(self.ev, call, None).select(deco.spec.get("operation_id"))
        if isinstance(value, Lit) and isinstance(value.value, str) and value.value:
            site = a.site(expr)
            return value.value, f"{site.rel}:{site.line}"
        return None

    # --- naming functions -----------------------------------------------------------
    def naming(self, route: NamedRoute) -> Func | None:
        own = dict(route.event.values).get("operation_id_function")
        if isinstance(own, Func):
            return own
        for target in (route.event.router, route.root):
            for weak in (False, True):
                for event in self.namings:
                    if event.weak == weak and event.target == target:
                        return event.fn
        return None

    def _facts(self, route: NamedRoute, method: str, path: str, handler) -> dict[str, Value]:
        event = route.event
        router = event.router
        tags: list[Value] = []
        for value in (router.prop("tags") if isinstance(router, Obj) else None,
                      dict(event.values).get("tags")):  # fmt: skip
            tags += list(value.items) if isinstance(value, ArrLit) else []
        name = handler.name if isinstance(handler, Func) else ""
        if isinstance(handler, Func) and not name:
            a = self.ev.program.adapter(handler.site.rel)
            node = a.node_at(handler.site) if a is not None else None
            name = a.function(node).name if a is not None and node is not None else ""
        controller = router.name if isinstance(router, Klass | Obj) else ""
        return {"handler": Lit(name), "controller": Lit(controller), "path": Lit(path),
                "method": Lit(method), "methods": ArrLit((Lit(method),)),
                "tags": ArrLit(tuple(tags)), "version": Lit(None)}  # fmt: skip

    def evaluate(self, fn: Func, model: str, facts: dict[str, Value]) -> str | None:
        spec = self.ev.library.by_id[model].operation_ids if model in self.ev.library.by_id else {}
        args: list[Value] = []
        for arg in spec.get("args") or []:
            if isinstance(arg, dict):
                props = tuple((str(k), facts.get(str(v), Lit(None))) for k, v in arg.items())
                args.append(Obj(model, "operation-facts", fn.site, props))
            else:
                args.append(facts.get(str(arg), Lit(None)))
        if not args:
            return None
        values, _ = self.ev.apply(fn, args)
        texts = {v.value for v in values if isinstance(v, Lit) and isinstance(v.value, str)}
        return texts.pop() if len(texts) == 1 and len(values) == 1 and texts != {""} else None
