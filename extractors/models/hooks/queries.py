"""Query libraries that call a query function themselves (TanStack Query, SWR)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.events import Event, InvokeEvent
from extractors.engine.values import STRINGISH, ArrLit, Func, Obj, Value

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
    items = key.items if isinstance(key, ArrLit) else (key,)
    if op.spec.get("spread") is not None:  # SWR: an array key is the fetcher's arguments
        args: tuple[Value, ...] = tuple(items)
    else:
        context = Obj(obj.model, "query-context", call.site, (("queryKey", ArrLit(tuple(items))),))
        args = (context,)
    if not any(isinstance(i, STRINGISH) for i in items):
        return []
    return [InvokeEvent(obj.model, fn, args, call.site)]


HOOKS = {"query_function": query_function}
