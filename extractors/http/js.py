"""JS-family outbound HTTP for calls.py: fetch, axios/ky/got calls and instances,
`defaults.baseURL`, thin wrappers called with a path, Firebase `httpsCallable`."""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.http.angular import VERBS as NG_VERBS
from extractors.http.angular import AngularHttp
from extractors.http.choices import variants
from extractors.http.clients import Client, ClientScan
from extractors.http.emit import VERBS, HttpOut
from extractors.http.summaries import Wrapper, path_param, site_line
from extractors.http.urls import Url, enclosing_function, parameter_names
from extractors.js.common import (
    arguments,
    object_props,
    owner_at,
    string_value,
    text,
    unwrap,
)
from extractors.js.index import call_names
from extractors.source import SourceFile

_ALIASES = {"del": "delete"}  # superagent
_CLIENT_VERBS = VERBS | {"request"} | set(_ALIASES)
_FETCH = {"fetch", "window.fetch", "globalThis.fetch", "$fetch", "ofetch"}
_DISPATCH = _FETCH | {"httpsCallable"}


class JsHttpCalls(ClientScan):
    """Clients, wrappers and call sites of the JS-family modules, written to `out`."""

    def __init__(self, out: HttpOut):
        self.out = out
        self.ctx = out.ctx
        self.eval = out.eval
        self.instances: dict[str, Client] = {}
        self.defaults: dict[str, Url] = {}  # client kind -> default base
        self.default_hops: dict[str, list[str]] = {}  # client kind -> interceptor line
        self.wrappers: dict[str, Wrapper] = {}
        self.taken_sites: set[tuple[str, int]] = set()
        self.used: set[str] = set()  # wrappers a library calls for the code (an SWR fetcher)
        self.client_memo: dict[tuple[str, str], Client | None] = {}
        self.angular = AngularHttp(self.ctx, self.eval, out.bases)

    # ---- call sites ----
    def scan_calls(self, sf: SourceFile) -> None:
        memo, rel = self.client_memo, sf.rel
        ng = self.angular.props(sf)
        for call, _, dotted in call_names(self.ctx, sf):
            if dotted is None:
                continue
            if ng and dotted.startswith("this.") and dotted.count(".") == 2:
                _, prop, verb = dotted.split(".")
                if prop in ng and verb in NG_VERBS and call.type == "call_expression":
                    self.angular_call(sf, call, verb)
                continue
            # most calls name no client: settle that from the memo before anything else
            head, _, verb = dotted.rpartition(".")
            if not head:
                if memo.get((rel, dotted), True) is None and dotted not in _DISPATCH:
                    continue
            elif "." not in head and verb in _CLIENT_VERBS:
                if memo.get((rel, head), True) is None and dotted not in _DISPATCH:
                    continue
            elif dotted not in _DISPATCH:
                continue
            if call.type != "call_expression":
                continue
            if dotted in _FETCH:
                args = arguments(call)
                opts = (
                    object_props(sf, args[1]) if len(args) > 1 and args[1].type == "object" else {}
                )
                method = string_value(sf, opts.get("method")) or "GET"
                self.call(sf, call, "fetch", method, args[0] if args else None, None, "literal")
            elif dotted == "httpsCallable" and len(args := arguments(call)) > 1:
                name = string_value(sf, args[1])
                if name:
                    self.out.emit(
                        sf,
                        call,
                        "POST",
                        Url([("lit", "/" + name)]),
                        None,
                        "firebase",
                        "callable",
                        function=name,
                    )
            else:
                self.client_call(sf, call, dotted)

    def client_call(self, sf: SourceFile, call: TsNode, dotted: str) -> None:
        head, _, verb = dotted.rpartition(".")
        if head and "." not in head and verb in _CLIENT_VERBS:
            client = self.scan_client_of(sf, head)
        elif not head:
            client, verb = self.scan_client_of(sf, dotted), "call"
        else:
            return
        if client is None:
            return
        args = arguments(call)
        verb = _ALIASES.get(verb, verb)
        if verb in VERBS:
            self.call(
                sf, call, client.kind, verb.upper(), args[0] if args else None, client, client.via
            )
            return
        cfg_node = args[-1] if args and args[-1].type == "object" else None
        cfg = object_props(sf, cfg_node) if cfg_node is not None else {}
        url = cfg.get("url") if args and args[0].type == "object" or not args else args[0]
        method = (string_value(sf, cfg.get("method")) or "GET").upper()
        if "baseURL" in cfg:
            client = Client(client.kind, self.eval.js(sf, cfg["baseURL"]), "instance")
        self.call(sf, call, client.kind, method, url, client, client.via)

    def angular_call(self, sf: SourceFile, call: TsNode, verb: str) -> None:
        """`this.http.get(url)` on an Angular HttpClient; an interceptor's base in front."""
        icp = self.angular.interceptor()
        client = Client("angular", None, "instance")
        if icp is not None:
            client = Client("angular", icp.base, "interceptor", [icp.hop])
        args = arguments(call)
        if verb == "request":
            method = (string_value(sf, args[0]) if args else None) or "GET"
            url = args[1] if len(args) > 1 else None
        else:
            method, url = ("GET" if verb == "jsonp" else verb.upper()), args[0] if args else None
        self.call(sf, call, "angular", method.upper(), url, client, client.via)

    def call(
        self, sf, call: TsNode, kind: str, method: str, url_node, client: Client | None, via: str
    ):
        line = SourceFile.line(call)
        if url_node is None:
            self.out.dynamic(sf.rel, line, text(sf, call), "no URL argument")
            return
        if _module_file(sf, url_node):
            return  # `new URL('./font.ttf', import.meta.url)`: a bundled file, no request
        base = client.base if client is not None else None
        hops = list(client.hops) if client is not None else []
        extra = {"hops": hops} if hops else {}
        choices = variants(self.eval, sf, url_node)
        if choices is not None:
            urls, ternary = choices
            for url in urls:
                self.out.emit(
                    sf, call, method.upper(), url, base, kind,
                    via if base is not None else "literal", candidate=True, **extra,
                )  # fmt: skip
            shown = " or ".join(u.template for u in urls)
            self.out.dynamic(
                sf.rel, SourceFile.line(ternary), text(sf, url_node),
                f"chosen at run time by `{text(sf, ternary.child_by_field_name('condition'))}`: "
                f"{shown}",
            )  # fmt: skip
            return
        url = self.eval.js(sf, url_node)
        if url is not None:
            fn = enclosing_function(call)
            names = parameter_names(sf, fn)
            first = path_param(url, names)
            owner = owner_at(self.ctx, sf.rel, call)
            if first is not None and ":symbol:" in owner and not _nested(self.ctx, sf, fn, owner):
                self.wrappers[owner] = Wrapper(
                    names, first, method.upper(), url, base, kind, via,
                    [f"{sf.rel}:{site_line(call)}", *hops], sf.rel, line, text(sf, url_node),
                )  # fmt: skip
                return
        if url is None or url.starts_with_param:
            why = (
                "URL from a function argument"
                if url is not None
                else "URL expression not statically known"
            )
            self.out.dynamic(sf.rel, line, text(sf, url_node), why)
            return
        self.out.emit(
            sf, call, method.upper(), url, base, kind, via if base is not None else "literal",
            **extra,
        )  # fmt: skip


def _module_file(sf: SourceFile, node: TsNode) -> bool:
    """`new URL(path, import.meta.url)`: a file next to the module, not an HTTP endpoint."""
    node = unwrap(node)
    if node is None or node.type != "new_expression":
        return False
    args = arguments(node)
    return len(args) > 1 and text(sf, args[1]).replace(" ", "") == "import.meta.url"


def _nested(ctx, sf: SourceFile, fn: TsNode | None, owner: str) -> bool:
    """`fn` is a callback inside the owner's own function (`useSWR(k, (u) => fetch(u))`):
    its parameters are not the owner's, so the owner is no wrapper."""
    outer = enclosing_function(fn.parent) if fn is not None and fn.parent is not None else None
    return outer is not None and owner_at(ctx, sf.rel, outer) == owner
