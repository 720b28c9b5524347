"""Outbound HTTP calls: fetch, axios (calls, `axios({method, url})`, `axios.create` instances,
`axios.defaults.baseURL`), ky, got, thin wrappers (`ApiService.post('/orders')` whose method
calls an instance with its `path` parameter), generated SDKs (`'/r/{id}'.replace(...)` +
`request({method, url})`), Firebase `httpsCallable(functions, 'name')`, and Python
`requests` / `httpx` (also `httpx.Client(base_url=...)` instances) — see http_python.py.

http_call node (the contract `warehouse/http_bridge.py` reads; keep stable):
- qualifier `<name>@<rel>:<line>`; name `METHOD {ENV_VAR}path`, `METHOD https://host/path` or
  `METHOD /relative/path`; file:line of the call site (for a wrapper: of the wrapper's caller).
- attrs: `method` (upper case), `url_template` (full URL, `{ENV}` for env parts and `{param}`
  for runtime values), `env_var` (env var the base comes from, if any), `base` (literal base
  URL, e.g. `https://api.sendgrid.com` or an instance's literal baseURL), `path` (what follows
  the base or env var), `resolved_via` (wrapper | instance | default | constant | env |
  literal | callable), `client` (fetch, axios, ky, got, requests, httpx, firebase),
  `wrapper` (symbol id, when the call went through one), `function` (callables only).
CALLS_HTTP: enclosing symbol (or code_file) → http_call, file:line of the call site.
Catalog rows `hosts`: every absolute host literally written (a `{VAR}` part kept as is).
A URL that cannot be known statically → `unresolved` kind `http_call`, "dynamic URL: ...".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext, SourceFile
from extractors.facts import CatalogRow
from extractors.js_common import (
    CALLS_KEY,
    arguments,
    dotted_name,
    js_files,
    modules,
    object_props,
    owner_at,
    package_of,
    resolve_local,
    string_value,
    text,
    unwrap,
)
from extractors.js_index import call_names, file_index
from extractors.url_eval import Evaluator, Url, enclosing_function, join, parameter_names

NAME = "http_calls"
CLIENT_PACKAGES = {
    "axios": "axios",
    "ky": "ky",
    "got": "got",
    "redaxios": "axios",
    "ofetch": "fetch",
}
VERBS = {"get", "delete", "head", "options", "post", "put", "patch"}
_CLIENT_VERBS = VERBS | {"request"}
_FETCH = {"fetch", "window.fetch", "globalThis.fetch", "$fetch", "ofetch"}
_DISPATCH = _FETCH | {"httpsCallable"}
_ORIGIN = re.compile(r"^([a-z][a-z0-9+.-]*://[^/?#]+)(.*)$", re.I)


@dataclass
class Client:
    kind: str  # axios | ky | got | fetch
    base: Url | None = None
    via: str = "instance"


@dataclass
class Wrapper:
    index: int
    method: str
    base: Url | None
    client: str
    via: str
    tail: Url | None = None
    rel: str = ""
    line: int = 0
    expr: str = ""


class HttpCalls:
    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.eval = Evaluator(ctx)
        self.instances: dict[str, Client] = {}
        self.defaults: dict[str, Url] = {}  # client kind -> default base
        self.wrappers: dict[str, Wrapper] = {}
        self.taken: set[str] = set()
        self.hosts: set[tuple[str, str, int]] = set()
        self.taken_sites: set[tuple[str, int]] = set()
        self.client_memo: dict[tuple[str, str], Client | None] = {}

    # ---- clients ----
    def client_root(self, sf: SourceFile, name: str) -> str | None:
        package = package_of(self.ctx, sf.rel, name)
        if package in CLIENT_PACKAGES:
            return CLIENT_PACKAGES[package]
        mod = modules(self.ctx).get(sf.rel)
        imported = mod is not None and name in mod.imports
        return name if name in {"axios", "ky", "got"} and not imported else None

    def client_of(self, sf: SourceFile, name: str) -> Client | None:
        root = self.client_root(sf, name)
        if root:
            return Client(root, self.defaults.get(root), "default")
        found = resolve_local(self.ctx, sf.rel, name)
        client = self.instances.get(f"{found[0]}#{found[1]}") if found else None
        if client is not None and client.via == "default":  # `export const http = axios`
            return Client(client.kind, self.defaults.get(client.kind), "default")
        return client

    def scan_clients(self, sf: SourceFile) -> None:
        mod = modules(self.ctx)[sf.rel]
        names = {n for n, b in mod.imports.items() if b.package in CLIENT_PACKAGES}
        names |= {n for n in ("axios", "ky", "got") if n.encode() in sf.data}
        if not names:
            return
        for name, values in file_index(self.ctx, sf).decls.items():
            value = unwrap(values[-1])
            key = f"{sf.rel}#{name}"
            if value.type == "identifier" and text(sf, value) in names:
                self.instances[key] = Client(self.client_root(sf, text(sf, value)), None, "default")
            elif value.type == "call_expression" and text(sf, value).split(".", 1)[0] in names:
                callee = dotted_name(sf, value.child_by_field_name("function")) or ""
                head, _, verb = callee.rpartition(".")
                root = self.client_root(sf, head) if head and "." not in head else None
                if root and verb in {"create", "extend"}:
                    cfg = next((a for a in arguments(value) if a.type == "object"), None)
                    props = object_props(sf, cfg) if cfg is not None else {}
                    raw = props.get("baseURL") or props.get("prefixUrl") or props.get("prefix")
                    self.instances[key] = Client(root, self.eval.js(sf, raw) if raw else None)
        for left_node, right in file_index(self.ctx, sf).defaults:
            left = text(sf, left_node).replace(" ", "")
            if left.endswith(".defaults.baseURL"):
                head = left[: -len(".defaults.baseURL")]
                url = self.eval.js(sf, right)
                root = self.client_root(sf, head)
                if root and url:
                    self.defaults[root] = url
                elif url and (client := self.client_of(sf, head)) is not None:
                    client.base = url

    def scan_client_of(self, sf: SourceFile, name: str) -> Client | None:
        """client_of, memoized per (file, name): instances and defaults are settled once
        scan_clients has run over every file, and nothing mutates a returned Client."""
        key = (sf.rel, name)
        memo = self.client_memo
        if key in memo:
            return memo[key]
        client = memo[key] = self.client_of(sf, name)
        return client

    # ---- call sites ----
    def scan_calls(self, sf: SourceFile) -> None:
        memo, rel = self.client_memo, sf.rel
        for call, _, dotted in call_names(self.ctx, sf):
            if dotted is None:
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
                    self.emit(
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

    def call(
        self, sf, call: TsNode, kind: str, method: str, url_node, client: Client | None, via: str
    ):
        line = SourceFile.line(call)
        if url_node is None:
            self.ctx.unresolved(
                sf.rel, line, "http_call", text(sf, call), "dynamic URL: no URL argument"
            )
            return
        url = self.eval.js(sf, url_node)
        base = client.base if client is not None else None
        if url is not None and url.starts_with_param:
            fn = enclosing_function(call)
            names = parameter_names(sf, fn)
            owner = owner_at(self.ctx, sf.rel, call)
            if url.parts[0][1] in names and ":symbol:" in owner:
                tail = Url(url.parts[1:], url.via)
                self.wrappers[owner] = Wrapper(
                    names.index(url.parts[0][1]), method.upper(), base, kind, via, tail,
                    sf.rel, line, text(sf, url_node),
                )  # fmt: skip
                return
        if url is None or url.starts_with_param:
            why = (
                "URL from a function argument"
                if url is not None
                else "URL expression not statically known"
            )
            self.ctx.unresolved(
                sf.rel, line, "http_call", text(sf, url_node), f"dynamic URL: {why}"
            )
            return
        self.emit(sf, call, method.upper(), url, base, kind, via if base is not None else "literal")

    def wrapper_calls(self) -> None:
        """Each call of a wrapper becomes an http_call at the caller's line."""
        sites = self.ctx.shared.get(CALLS_KEY, [])
        for _ in range(3):  # wrappers of wrappers
            before = len(self.wrappers)
            for site in sites:
                wrapper = self.wrappers.get(site.callee)
                if wrapper is None or (site.caller, site.node.start_byte) in self.taken_sites:
                    continue
                sf = modules(self.ctx)[site.rel].sf
                args = arguments(site.node)
                node = args[wrapper.index] if wrapper.index < len(args) else None
                url = self.eval.js(sf, node) if node is not None else None
                if url is not None and url.starts_with_param:
                    names = parameter_names(sf, enclosing_function(site.node))
                    if url.parts[0][1] in names and ":symbol:" in site.caller:
                        inner = Url(url.parts[1:], url.via).add(wrapper.tail or Url())
                        self.wrappers.setdefault(
                            site.caller,
                            Wrapper(
                                names.index(url.parts[0][1]),
                                wrapper.method,
                                wrapper.base,
                                wrapper.client,
                                wrapper.via,
                                inner,
                                site.rel,
                                SourceFile.line(site.node),
                                text(sf, node),
                            ),
                        )
                        self.taken_sites.add((site.caller, site.node.start_byte))
                        continue
                self.taken_sites.add((site.caller, site.node.start_byte))
                if url is None or url.starts_with_param:
                    expr = text(sf, node) if node is not None else "(no argument)"
                    callee = site.callee.rsplit("#", 1)[-1]
                    self.ctx.unresolved(
                        site.rel,
                        SourceFile.line(site.node),
                        "http_call",
                        expr,
                        f"dynamic URL: argument {expr} of {callee}",
                    )
                    continue
                url.add(wrapper.tail or Url())
                self.emit(
                    sf,
                    site.node,
                    wrapper.method,
                    url,
                    wrapper.base,
                    wrapper.client,
                    "wrapper",
                    wrapper=site.callee,
                    owner=site.caller,
                )
            if len(self.wrappers) == before:
                break
        used = {site.callee for site in sites}
        for symbol, wrapper in sorted(self.wrappers.items()):
            if symbol not in used:
                self.ctx.unresolved(
                    wrapper.rel,
                    wrapper.line,
                    "http_call",
                    wrapper.expr,
                    f"dynamic URL: parameter of {symbol.rsplit('#', 1)[-1]}, which nothing in the component calls",
                )

    # ---- output ----
    def emit(
        self,
        sf,
        call: TsNode,
        method: str,
        url: Url,
        base: Url | None,
        client: str,
        via: str,
        owner: str | None = None,
        **extra,
    ) -> None:
        line = SourceFile.line(call)
        full = join(base, url) if base is not None else url
        template = full.template
        attrs: dict = {"method": method, "url_template": template, "client": client}
        env = next((v for k, v in full.parts if k == "env"), None)
        if env:
            attrs["env_var"] = env
        first = full.parts[0] if full.parts else ("lit", "")
        if first[0] == "env":
            attrs["path"] = Url(full.parts[1:]).template
        elif base is not None and base.parts and all(k == "lit" for k, _ in base.parts):
            attrs["base"], attrs["path"] = base.template.rstrip("/"), url.template
        elif (origin := _ORIGIN.match(template)) is not None:
            attrs["base"], attrs["path"] = origin.group(1), origin.group(2) or "/"
        else:
            attrs["path"] = template
        if (origin := _ORIGIN.match(template)) is not None:
            self.hosts.add((origin.group(1).split("://", 1)[1], sf.rel, line))
        if via == "literal":
            via = "constant" if "constant" in full.via else "env" if env else "literal"
        attrs["resolved_via"] = via
        attrs.update(extra)
        name = f"{method} {template}"
        qualifier = f"{name}@{sf.rel}:{line}"
        if qualifier in self.taken:
            qualifier += f":{call.start_point[1] + 1}"
        self.taken.add(qualifier)
        node_id = self.ctx.add_node(
            "http_call", qualifier, name, sf.rel, line, SourceFile.end_line(call), **attrs
        )
        owner = owner or owner_at(self.ctx, sf.rel, call)
        self.ctx.add_edge(owner, node_id, "CALLS_HTTP", sf.rel, line)

    def catalog(self) -> None:
        for host, rel, line in sorted(self.hosts):
            self.ctx.facts.catalog.append(
                CatalogRow("hosts", self.ctx.project, self.ctx.component, host, rel, line)
            )


def extract(ctx: ComponentContext) -> None:
    calls = HttpCalls(ctx)
    files = [sf for sf in js_files(ctx) if sf.rel in modules(ctx)]
    for sf in files:
        calls.scan_clients(sf)
    for sf in files:
        calls.scan_calls(sf)
    calls.wrapper_calls()
    from extractors.http_python import scan_python

    for sf in sorted(ctx.by_language("python"), key=lambda f: f.rel):
        scan_python(calls, sf)
    calls.catalog()
