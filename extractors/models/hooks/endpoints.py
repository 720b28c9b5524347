"""Client libraries whose call sites are generated from endpoint definitions (RTK Query's
`use<Name>Query` hooks)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from extractors.engine.events import Event, RequestEvent
from extractors.engine.transforms import alternatives
from extractors.engine.values import STRINGISH, Func, Lit, Obj, ObjLit

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation

HOOK_NAME = re.compile(r"^use(?:Lazy)?(?P<name>\w+?)(?:Query|Mutation|InfiniteQuery)$")


def rtk_endpoint(
    interp: Interpreter, op: Operation, api: Obj, call: Call, src: CallSource
) -> list[Event]:
    """`useGetPostQuery(id)`: the endpoint the hook is named after (`getPost`) is found in
    the API's `endpoints` builder (called with a builder object), its `query` called with the
    hook's argument; a text is the URL, an object gives `url` and `method` (default GET)."""
    m = HOOK_NAME.match(src.method_name())
    builder_fn = src.select(op.spec.get("endpoints"))
    if m is None or not isinstance(builder_fn, Func):
        return []
    name = m.group("name")[:1].lower() + m.group("name")[1:]
    ev = interp.ev
    built, _ = ev.apply(builder_fn, [Obj(api.model, "builder", call.site)])
    endpoint = next((e for e in (ev.member(b, name, call.rel, None, 1) for b in built)
                     if isinstance(e, Obj) and e.role == "endpoint"), None)  # fmt: skip
    query = endpoint.prop("query") if endpoint is not None else None
    arguments = [call.arg(0)] if call.view.args else []  # none: the query's own parameter
    results = ev.apply(query, arguments)[0] if isinstance(query, Func) else [query] if query else []
    base = src.select(op.spec.get("base"), STRINGISH)
    events: list[Event] = []
    for result in alternatives(results):
        if isinstance(result, ObjLit):
            url = ev.member(result, "url", call.rel, None, 1)
            method = ev.member(result, "method", call.rel, None, 1)
        else:
            url, method = result, Lit("GET")
        if not isinstance(url, STRINGISH) or url == Lit(None):
            continue
        method = method if isinstance(method, STRINGISH) and method != Lit(None) else Lit("GET")
        events.append(RequestEvent(api.model, api, method, url, base, call.site))
    return events


HOOKS = {"rtk_endpoint": rtk_endpoint}
