"""Query libraries that call a query function themselves (TanStack Query, SWR)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.events import Event, InvokeEvent
from extractors.engine.values import STRINGISH, ArrLit, Choice, Func, Lit, Obj, Value, choice

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation


def query_function(
    interp: Interpreter, op: Operation, obj: Obj, call: Call, src: CallSource
) -> list[Event]:
    """A query library calls its query function with a context holding the key
    (TanStack Query: `queryFn({ queryKey })`; SWR: `fetcher(...key)`). The function is the
    operation's `fn`, else the `default` a client object was made with; the key is `key`."""
    key = src.select(op.spec.get("key"))
    fn = src.select(op.spec.get("fn"), (Func,))
    if fn is None and (default := op.spec.get("default")) is not None:
        role, _, prop = (
            default.terms[0].key.partition(".") if default.terms[0].kind == "lit" else ("", "", "")
        )
        for made in interp.lib.made.get((obj.model, role), ()):
            value = made.prop(prop)
            if isinstance(value, Func):
                fn = value
                break
    if fn is None or key is None:
        return []
    if op.spec.get("falsy_key") is not None:  # SWR: a null key fetches nothing
        key = _truthy(key)
        if key is None:
            return []
    items = key.items if isinstance(key, ArrLit) else (key,)
    if op.spec.get("spread") is not None:  # SWR: an array key is the fetcher's arguments
        args: tuple[Value, ...] = tuple(items)
    else:
        context = Obj(obj.model, "query-context", call.site, (("queryKey", ArrLit(tuple(items))),))
        args = (context,)
    if not any(isinstance(i, STRINGISH) for i in items):
        return []
    return [InvokeEvent(obj.model, fn, args, call.site)]


def _truthy(key: Value) -> Value | None:
    """The key without its falsy options (`cond ? url : null`), None when none is left."""
    options = key.options if isinstance(key, Choice) else (key,)
    kept = [o for o in options if not (isinstance(o, Lit) and not o.value)]
    if not kept:
        return None
    return key if len(kept) == len(options) else choice(kept, getattr(key, "condition", None))


HOOKS = {"query_function": query_function}
