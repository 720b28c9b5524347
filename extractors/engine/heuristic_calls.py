"""The heuristic tier for requests: calls in code no model claims, at `confidence: low`.

Two shapes, both read with the one evaluator:
- a verb-named call (`get`, `post`, …, `request`, `getJSON`) on something no model knows —
  an unknown global, an unmodelled package, a parameter — whose first argument is
  URL-shaped (an absolute `http(s)://host` URL, a `/path`, an env or config base followed by
  a path, or a wrapper's parameter still to be bound by its callers);
- an absolute `http(s)://host/…` literal handed to an unknown function.
A call that also hands over a function (`server.get('/x', handler)`) is a registration, not
a request; test files are left alone; a model object's own methods are the model's business.
Each becomes a RequestEvent of the `heuristic` client with the reason it was taken, so the
wrapper fixed point follows it like any request and the bridge can match it by route shape
only (DESIGN.md, "A heuristic tier")."""

from __future__ import annotations

import re

from tree_sitter import Node as TsNode

from extractors.engine.builtins import collection
from extractors.engine.evaluate import Call
from extractors.engine.events import RequestEvent
from extractors.engine.heuristic import NOT_SERVED
from extractors.engine.values import (
    STRINGISH,
    Choice,
    Concat,
    Config,
    Env,
    Ext,
    Func,
    Instance,
    Klass,
    Lit,
    Method,
    Obj,
    Param,
    Typed,
    Unknown,
    Value,
)

MODEL = "heuristic"
VERBS = {"get": "GET", "post": "POST", "put": "PUT", "patch": "PATCH", "delete": "DELETE",
         "del": "DELETE", "head": "HEAD", "options": "OPTIONS"}  # fmt: skip
GENERIC = {"request", "fetch", "ajax", "http"}  # the method is in the options, else GET
_VERB_JSON = re.compile(r"^(get|post|put|patch|delete)(json|data)$", re.I)
_ABSOLUTE = re.compile(r"^https?://[A-Za-z0-9][A-Za-z0-9.-]*(:\d+)?(/|\?|$)")
_HOST = re.compile(r"^https?://([A-Za-z0-9-]+\.[A-Za-z0-9.-]+|localhost)(:\d+)?(/|\?|$)")
_PATH = re.compile(r"^/[A-Za-z0-9_{~.-]")
_STATIC = re.compile(
    r"\.(png|jpe?g|gif|svg|webp|ico|css|s[ac]ss|js|mjs|map|html?|woff2?|ttf|md)$", re.I
)
_BUILD_CONFIG = re.compile(r"\.config\.[cm]?[jt]s$")  # vite.config.ts, webpack.config.js …
_SETTERS = re.compile(r"^(set|add|with|on|register|define|id$|\$id$|ref$)", re.I)
# functions a URL is handed to that make no request: logging, navigation, string helpers
NOT_REQUESTS = {
    "log", "info", "warn", "error", "debug", "trace", "assert", "open", "redirect", "navigate",
    "push", "replace", "assign", "href", "require", "resolve", "join", "format", "parse",
    "t", "translate", "startsWith", "endsWith", "includes", "indexOf", "match", "split",
    "test", "it", "describe", "expect", "setAttribute", "createElement", "prefetch", "preload",
    "encodeURI", "encodeURIComponent", "decodeURI", "decodeURIComponent", "URL", "Link",
    "window", "console", "location", "history", "router", "Router", "useRouter", "link",
    "emit", "set", "add", "has", "delete", "append", "write", "print", "send_file",
    "stringify", "dumps", "loads", "quote", "urlencode",
}  # fmt: skip


def tested(rel: str) -> bool:
    """A test, story or build-config file: its requests exercise or build the code, they
    are not the code's own."""
    return NOT_SERVED.search(rel) is not None or _BUILD_CONFIG.search(rel) is not None


def could_guess(name: str | None, first_arg: TsNode | None, rel: str) -> bool:
    """Whether a call named `name` with this first argument can ever be a guess, whatever
    its values: a verb-named call, or an absolute URL literal written in the argument of a
    function that is not a known non-request (the two shapes above), outside test files."""
    if not name or tested(rel):
        return False
    if name.lower() in VERBS or name in GENERIC or _VERB_JSON.match(name):
        return True
    if name in NOT_REQUESTS or _SETTERS.match(name) or first_arg is None:
        return False
    return b"://" in (first_arg.text or b"")  # every other call costs nothing


def heuristic_request(lib, call: Call, name: str | None) -> RequestEvent | None:
    """The low-confidence request a call no model claimed looks like, if any."""
    if not could_guess(name, call.view.args[0] if call.view.args else None, call.rel):
        return None
    if not unknown_callee(lib, call.callee):
        return None
    verb = VERBS.get(name.lower()) or ("GET" if name in GENERIC or _VERB_JSON.match(name) else None)
    if verb is not None and _VERB_JSON.match(name):
        verb = VERBS[_VERB_JSON.match(name).group(1).lower()]
    if verb is not None:
        url = call.arg(0)
        shape = url_shape(url) if url is not None else "no"
        if shape == "no" or _hands_a_function(call) or _on_a_router(call):
            return None
        if name in GENERIC:
            verb = _method_of(call, 1) or verb
        why = f"`{name}(…)` on something no model reads, with a URL-shaped argument"
        return _event(call, verb, url, 0, why)
    url = call.arg(0)  # the first argument, an absolute URL literal written in it
    if url is not None and url_shape(url) == "url" and _HOST.match(_head(url)):
        why = f"an absolute URL handed to `{name}(…)`, which no model reads"
        return _event(call, _method_of(call, 1) or "GET", url, 0, why)
    return None


def url_shape(value: Value) -> str:
    """`url` (a URL or a path), `param` (starts with a parameter still to be bound) or `no`."""
    if isinstance(value, Choice):
        shapes = {url_shape(o) for o in value.options}
        return "url" if "url" in shapes else "param" if "param" in shapes else "no"
    parts = value.parts if isinstance(value, Concat) else (value,)
    first = parts[0]
    if isinstance(first, Param):
        return "param"
    if isinstance(first, (Env, Config)):
        rest = parts[1] if len(parts) > 1 else Lit("")
        text = rest.value if isinstance(rest, Lit) and isinstance(rest.value, str) else None
        return "url" if text is None or text == "" or text.startswith("/") else "no"
    if not (isinstance(first, Lit) and isinstance(first.value, str)):
        return "no"
    text = first.value
    if " " in text or "\n" in text:
        return "no"
    head = text.split("?", 1)[0]
    if _ABSOLUTE.match(text):
        return "no" if _STATIC.search(head) else "url"
    if _PATH.match(text) and not text.startswith("//"):
        return "no" if _STATIC.search(head) and isinstance(value, Lit) else "url"
    return "no"


def _head(value: Value) -> str:
    """The literal text a value starts with."""
    if isinstance(value, Choice):
        value = value.options[0]
    first = value.parts[0] if isinstance(value, Concat) else value
    return first.value if isinstance(first, Lit) and isinstance(first.value, str) else ""


def unknown_callee(lib, callee: Value) -> bool:
    """Nothing of the component and nothing a model reads: an unknown global or package
    member, a parameter, a method of such a value."""
    target = callee.target if isinstance(callee, Method) else callee
    if isinstance(target, (Func, Klass, Instance, Obj)) or isinstance(callee, (Func, Klass)):
        return False
    if isinstance(target, Ext):
        owner = Ext(target.package, target.path[:-1]) if target.path else target
        return lib.claim(owner) is None and lib.claim(target) is None
    if isinstance(target, Typed):
        if collection(target):  # `cache.get(key)` on a `new Map()`
            return False
        return lib.claim(target.type) is None if isinstance(target.type, Ext) else False
    return isinstance(target, (Param, Unknown))


def _hands_a_function(call: Call) -> bool:
    """A later argument is a function of the component: a route-like registration."""
    for i in range(1, min(len(call.view.args), 6)):
        if isinstance(call.arg(i), (Func, Klass)):
            return True
    return False


def _on_a_router(call: Call) -> bool:
    """The receiver is written, in this file, as the receiver of a route-like registration
    (`server.get('/x', (req, res) => …)`): a server of an unknown framework, whose one-argument
    `get('/x')` reads a setting rather than requesting."""
    a = call.ev.program.adapter(call.rel)
    callee = call.view.callee
    receiver = callee.child_by_field_name("object") if a is not None else None
    if receiver is None:
        return False
    return " ".join(a.text(receiver).split()) in _routers(call.ev, call.rel, a)


def _routers(ev, rel: str, a) -> set[str]:
    """Receivers (as written) of verb-named calls handed a function, in one file (kept on
    the component's evaluator)."""
    cache: dict[str, set[str]] = ev.__dict__.setdefault("_heuristic_routers", {})
    if rel not in cache:
        found: set[str] = set()
        for node in a.calls():
            view = a.call_view(node)
            obj = view.callee.child_by_field_name("object") if view is not None else None
            if obj is None or (a.terminal(view.callee) or "").lower() not in VERBS:
                continue
            if any(a.is_function(arg) or _function_name(a, arg) for arg in view.args[1:]):
                found.add(" ".join(a.text(obj).split()))
        cache[rel] = found
    return cache[rel]


def _function_name(a, node) -> bool:
    if node.type != "identifier":
        return False
    binding = a.resolve(a.text(node), node)
    return binding is not None and binding.kind == "function"


def _method_of(call: Call, index: int) -> str | None:
    """`{ method: 'POST' }` in the options argument."""
    options = call.arg(index) if index < len(call.view.args) else None
    if options is None:
        return None
    method = call.ev.member(options, "method", call.rel, None, 1)
    if isinstance(method, Lit) and isinstance(method.value, str):
        upper = method.value.upper()
        return upper if upper in VERBS.values() else None
    return None


def _event(call: Call, verb: str, url: Value, index: int, why: str) -> RequestEvent | None:
    if not isinstance(url, STRINGISH):
        return None
    a = call.ev.program.adapter(call.rel)
    at = a.site(call.view.args[index]) if a is not None else None
    return RequestEvent(MODEL, call.callee, Lit(verb), url, None, call.site, (), at, None,
                        confidence="low", why=why)  # fmt: skip
