"""Python outbound HTTP for http_calls.py: `requests` / `httpx` module calls, `requests.request`,
`httpx.Client(base_url=...)` / `AsyncClient` instances (assigned or `with ... as client`),
`requests.Session()`. URLs through url_eval (f-strings with `os.environ[...]`, constants).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tree_sitter import Node as TsNode

from extractors.base import SourceFile
from extractors.js_common import text
from extractors.py_index import call_args, py_index, py_matches
from extractors.url_eval import Url, enclosing_function, parameter_names, py_module_const

if TYPE_CHECKING:
    from extractors.http_calls import HttpCalls

MODULES = {"requests", "httpx", "aiohttp"}
VERBS = {"get", "delete", "head", "options", "post", "put", "patch"}
FACTORIES = {"httpx.Client", "httpx.AsyncClient", "requests.Session", "requests.session"}
# queries: parts "http", "with" and "assign_calls" of extractors/py_index.py


def _instance(calls: HttpCalls, sf: SourceFile, name: str, at: TsNode, withs) -> Url | None | bool:
    """False when `name` is no client instance; else the instance's base (or None)."""
    value = withs.get(name)
    fn = enclosing_function(at)
    if value is None and fn is not None:
        for m in py_index(calls.ctx, sf).assignments_in(fn):
            if text(sf, m["l"][0]) == name:
                value = m["r"][0]
    if value is None:
        value = py_module_const(sf, name)
    if value is None or value.type != "call":
        return False
    if text(sf, value.child_by_field_name("function")) not in FACTORIES:
        return False
    _, named = call_args(sf, value)
    return calls.eval.py(sf, named["base_url"]) if "base_url" in named else None


def scan_python(calls: HttpCalls, sf: SourceFile) -> None:
    withs = {text(sf, m["name"][0]): m["value"][0] for m in py_matches(calls.ctx, sf, "with")}
    for m in py_matches(calls.ctx, sf, "http"):
        call, obj, verb = m["call"][0], m["obj"][0], text(sf, m["verb"][0])
        if verb not in VERBS and verb != "request":
            continue
        obj_name = text(sf, obj)
        if obj_name in MODULES:
            client, base = obj_name, None
        elif obj.type == "identifier":
            base = _instance(calls, sf, obj_name, call, withs)
            if base is False:
                continue
            client = "httpx" if base is not None else "requests"
        else:
            continue
        positional, named = call_args(sf, call)
        if verb == "request":
            method_node = positional[0] if positional else named.get("method")
            url_node = positional[1] if len(positional) > 1 else named.get("url")
            method = (calls.eval.py(sf, method_node) or Url()).template.upper() or "GET"
        else:
            url_node = positional[0] if positional else named.get("url")
            method = verb.upper()
        line = SourceFile.line(call)
        if url_node is None:
            calls.ctx.unresolved(
                sf.rel, line, "http_call", text(sf, call), "dynamic URL: no URL argument"
            )
            continue
        url = calls.eval.py(sf, url_node)
        if url is None or url.starts_with_param:
            names = parameter_names(sf, enclosing_function(call))
            why = (
                "URL from a function argument"
                if url is not None and url.parts[0][1] in names
                else "URL expression not statically known"
            )
            calls.ctx.unresolved(
                sf.rel, line, "http_call", text(sf, url_node), f"dynamic URL: {why}"
            )
            continue
        via = "instance" if base is not None else "literal"
        calls.emit(sf, call, method, url, base, client, via)
