"""Requests made by a library on the code's behalf: data-fetching hooks whose key is the URL,
and GraphQL clients whose endpoint is given once.

- SWR: `useSWR(key, fetcher)` / `useSWRImmutable` fetch `key` (a URL, or the first element
  of an array key; `cond ? url : null` is a conditional fetch of `url`). A fetcher that is a
  wrapper (`(url) => fetch(BASE + url)`) is applied to the key, so its base and method count
  and it is no longer "called by nobody". A key that is no URL (`'profile'`) is skipped.
- GraphQL: `new ApolloClient({ uri })`, `new HttpLink({ uri })`, `createHttpLink({ uri })`,
  `new GraphQLClient(url)`, urql `createClient({ url })`, graphql-request `request(url, doc)`
  are POSTs to their endpoint (`graphql: true`): an external host lands in the hosts catalog,
  a same-origin `/api/graphql` reaches its route.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.http.summaries import substitute
from extractors.http.urls import Url
from extractors.js.common import (
    arguments,
    lookup_symbol,
    modules,
    object_props,
    package_of,
    text,
    unwrap,
)
from extractors.js.index import call_names
from extractors.js.model import ModuleInfo

SWR = {"useSWR", "useSWRImmutable"}
SWR_PACKAGES = {"swr", "swr/immutable"}
GRAPHQL = {
    "ApolloClient": ("@apollo/client", "uri"),
    "HttpLink": ("@apollo/client", "uri"),
    "createHttpLink": ("@apollo/client", "uri"),
    "GraphQLClient": ("graphql-request", 0),
    "request": ("graphql-request", 0),
    "createClient": ("urql", "url"),
}
_EMPTY = {"null", "undefined", "false"}


def _key_node(node: TsNode | None) -> TsNode | None:
    """The URL inside a key: `[url, arg]` → url; `cond ? url : null` → url."""
    node = unwrap(node)
    if node is not None and node.type == "array" and node.named_children:
        return _key_node(node.named_children[0])
    if node is not None and node.type == "ternary_expression":
        yes, no = (node.child_by_field_name(f) for f in ("consequence", "alternative"))
        if no is not None and no.type in _EMPTY:
            return _key_node(yes)
    return node


def _looks_like_url(url: Url) -> bool:
    first = url.parts[0] if url.parts else ("lit", "")
    return first[0] == "env" or first[1].startswith(("/", "http://", "https://"))


def library_calls(calls) -> None:
    ctx = calls.ctx
    for _rel, mod in sorted(modules(ctx).items()):
        data = mod.sf.data
        has_swr = b"useSWR" in data
        has_gql = any(p.package and p.package.split("/")[0] in _GQL_ROOTS for p in mod.imports.values())  # fmt: skip
        if not has_swr and not has_gql:
            continue
        for call, _fn, dotted in call_names(ctx, mod.sf):
            if dotted is None or "." in dotted:
                continue
            if has_swr and dotted in SWR and package_of(ctx, mod.rel, dotted) in SWR_PACKAGES:
                _swr(calls, mod, call)
            elif has_gql and dotted in GRAPHQL:
                _graphql(calls, mod, call, dotted)


_GQL_ROOTS = {"@apollo", "graphql-request", "urql"}


def _swr(calls, mod: ModuleInfo, call: TsNode) -> None:
    sf = mod.sf
    args = arguments(call)
    key = _key_node(args[0]) if args else None
    url = calls.eval.js(sf, key) if key is not None else None
    if url is None or url.starts_with_param or not _looks_like_url(url):
        return
    fetcher = text(sf, args[1]) if len(args) > 1 and args[1].type == "identifier" else None
    symbol = lookup_symbol(calls.ctx, mod.rel, fetcher) if fetcher else None
    w = calls.wrappers.get(symbol) if symbol else None
    if w is not None and len(w.params) >= 1:
        calls.used.add(symbol)
        full = substitute(calls.eval, sf, w, [key] + [None] * (len(w.params) - 1))
        if full is not None and not full.starts_with_param:
            calls.out.emit(
                sf, call, w.method, full, w.base, w.client, "wrapper",
                wrapper=symbol, hops=list(w.hops), hook="swr", **w.extra,
            )  # fmt: skip
            return
    calls.out.emit(sf, call, "GET", url, None, "swr", "literal", hook="swr")


def _graphql(calls, mod: ModuleInfo, call: TsNode, name: str) -> None:
    sf = mod.sf
    package, where = GRAPHQL[name]
    if not (package_of(calls.ctx, mod.rel, name) or "").startswith(package):
        return
    args = arguments(call)
    if isinstance(where, int):
        raw = args[where] if len(args) > where else None
    else:
        cfg = next((a for a in args if a.type == "object"), None)
        raw = object_props(sf, cfg).get(where) if cfg is not None else None
    url = calls.eval.js(sf, raw) if raw is not None else None
    if url is None or url.starts_with_param or not _looks_like_url(url):
        return
    calls.out.emit(sf, call, "POST", url, None, "graphql", "literal", graphql=True)
