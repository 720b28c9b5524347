"""JS-family HTTP clients for http/js.py: axios/ky/got/superagent instances, their
`create`/`extend` bases, `defaults.baseURL`, and which client a name in a file is.

`ClientScan` is a mixin of `JsHttpCalls` (it fills `instances`/`defaults` there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node as TsNode

from extractors.http.urls import Url
from extractors.js.common import (
    arguments,
    dotted_name,
    modules,
    object_props,
    package_of,
    resolve_local,
    text,
    unwrap,
)
from extractors.js.index import file_index
from extractors.source import SourceFile

CLIENT_PACKAGES = {
    "axios": "axios",
    "ky": "ky",
    "got": "got",
    "redaxios": "axios",
    "ofetch": "fetch",
    "superagent": "superagent",
}


@dataclass
class Client:
    kind: str  # axios | ky | got | fetch | superagent | angular
    base: Url | None = None
    via: str = "instance"
    hops: list[str] = field(default_factory=list)  # e.g. the interceptor that sets the base


class ClientScan:
    """Client discovery: which names are HTTP clients, with what base."""

    ctx: Any
    eval: Any
    instances: dict[str, Client]
    defaults: dict[str, Url]
    default_hops: dict[str, list[str]]
    client_memo: dict[tuple[str, str], Client | None]

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
            return Client(root, self.defaults.get(root), "default", self.default_hops.get(root, []))
        found = resolve_local(self.ctx, sf.rel, name)
        client = self.instances.get(f"{found[0]}#{found[1]}") if found else None
        if client is not None and client.via == "default":  # `export const http = axios`
            kind = client.kind
            return Client(kind, self.defaults.get(kind), "default", self.default_hops.get(kind, []))
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
            elif value.type == "call_expression" and (
                wrapped := _wrapped_client(sf, value, names)
            ):  # `superagentPromise(superagent, Promise)`: the same client, promisified
                self.instances[key] = Client(self.client_root(sf, wrapped), None, "default")
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


def _wrapped_client(sf: SourceFile, call: TsNode, names: set[str]) -> str | None:
    """The client a plain function call wraps: `promisify(superagent, Promise)` → superagent."""
    if dotted_name(sf, call.child_by_field_name("function")) in names:
        return None
    first = next(iter(arguments(call)), None)
    name = text(sf, first) if first is not None and first.type == "identifier" else None
    return name if name in names else None
