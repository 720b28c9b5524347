"""Python outbound HTTP for calls.py: `requests` / `httpx` module calls, `requests.request`,
`httpx.Client(base_url=...)` / `AsyncClient` instances (assigned or `with ... as client`),
`requests.Session()`. URLs through urls.py (f-strings with `os.environ[...]`, constants).
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.http.emit import HttpOut
from extractors.http.summaries import Wrapper, path_param
from extractors.http.urls import (
    Url,
    enclosing_function,
    parameter_names,
    py_module_const,
    py_self_attr,
)
from extractors.js.common import owner_at
from extractors.python.index import py_index, py_matches
from extractors.python.symbols import call_args, text
from extractors.source import SourceFile

MODULES = {"requests", "httpx", "aiohttp"}
VERBS = {"get", "delete", "head", "options", "post", "put", "patch"}
FACTORIES = {"httpx.Client", "httpx.AsyncClient", "requests.Session", "requests.session"}
# queries: parts "http", "with" and "assign_calls" of extractors/python/index.py


def _instance(out: HttpOut, sf: SourceFile, name: str, at: TsNode, withs) -> Url | None | bool:
    """False when `name` is no client instance; else the instance's base (or None)."""
    value = withs.get(name)
    if name.startswith("self."):  # `self.session = requests.Session()` in `__init__`
        value = py_self_attr(sf, at, name[5:])
    fn = enclosing_function(at)
    if value is None and fn is not None and not name.startswith("self."):
        for m in py_index(out.ctx, sf).assignments_in(fn):
            if text(sf, m["l"][0]) == name:
                value = m["r"][0]
    if value is None:
        value = py_module_const(sf, name)
    if value is None or value.type != "call":
        return False
    if text(sf, value.child_by_field_name("function")) not in FACTORIES:
        return False
    _, named = call_args(sf, value)
    return out.eval.py(sf, named["base_url"]) if "base_url" in named else None


def scan_python(out: HttpOut, sf: SourceFile, wrappers: dict[str, Wrapper]) -> None:
    withs = {text(sf, m["name"][0]): m["value"][0] for m in py_matches(out.ctx, sf, "with")}
    for m in py_matches(out.ctx, sf, "http"):
        call, obj, verb = m["call"][0], m["obj"][0], text(sf, m["verb"][0])
        if verb not in VERBS and verb != "request":
            continue
        obj_name = text(sf, obj)
        if obj_name in MODULES:
            client, base = obj_name, None
        elif obj.type == "identifier" or (obj.type == "attribute" and obj_name.count(".") == 1 and obj_name.startswith("self.")):  # fmt: skip
            base = _instance(out, sf, obj_name, call, withs)
            if base is False:
                continue
            client = "httpx" if base is not None else "requests"
        else:
            continue
        positional, named = call_args(sf, call)
        if verb == "request":
            method_node = positional[0] if positional else named.get("method")
            url_node = positional[1] if len(positional) > 1 else named.get("url")
            method = (out.eval.py(sf, method_node) or Url()).template.upper() or "GET"
        else:
            url_node = positional[0] if positional else named.get("url")
            method = verb.upper()
        line = SourceFile.line(call)
        if url_node is None:
            out.dynamic(sf.rel, line, text(sf, call), "no URL argument")
            continue
        url = out.eval.py(sf, url_node)
        if url is not None and _wrapper(
            out, sf, call, url_node, method, url, (base, client), wrappers
        ):
            continue
        if url is None or url.starts_with_param:
            names = parameter_names(sf, enclosing_function(call))
            why = (
                "URL from a function argument"
                if url is not None and url.parts[0][1] in names
                else "URL expression not statically known"
            )
            out.dynamic(sf.rel, line, text(sf, url_node), why)
            continue
        via = "instance" if base is not None else "literal"
        out.emit(sf, call, method, url, base, client, via)


def _own_params(sf: SourceFile, fn) -> list[str]:
    """A function's parameters as its callers pass them (`self`/`cls` dropped)."""
    names = parameter_names(sf, fn)
    return names[1:] if names[:1] in (["self"], ["cls"]) else names


def _wrapper(out, sf, call, url_node, method: str, url: Url, how, wrappers) -> bool:
    """`def get(self, path): return requests.get(BASE + path)`: a summary for its callers."""
    fn = enclosing_function(call)
    names = _own_params(sf, fn)
    first = path_param(url, names)
    owner = owner_at(out.ctx, sf.rel, call)
    if first is None or ":symbol:" not in owner:
        return False
    line, (base, client) = SourceFile.line(call), how
    wrappers[owner] = Wrapper(
        names, first, method, url, base, client, "instance" if base is not None else "literal",
        [f"{sf.rel}:{line}"], sf.rel, line, text(sf, url_node),
    )  # fmt: skip
    return True
