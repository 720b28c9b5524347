"""Generated API clients: each SDK method is a summary (method + URL template over its
parameters) read from the generated file; each SDK call elsewhere is the http_call, marked
`generated_client: true`, with the generated method's lines as hops.

Recognised shapes (the generated file says so in its header, or calls the generator's
`__request`):
- swagger-typescript-api: `class Api extends HttpClient { users = { login: (data, params) =>
  this.request({ path: `/users/login`, method: "POST", ... }) } }`, called as
  `api.users.login(...)` on `const api = new Api({ baseUrl })`; the class default is the
  `baseUrl` field of the client class;
- openapi-typescript-codegen: `class ArticlesService { static getArticle(slug) { return
  __request(OpenAPI, { method: 'GET', url: '/articles/{slug}' }) } }`, called as
  `ArticlesService.getArticle(slug)`; the base is `OpenAPI.BASE`;
- any generated function or method calling `request({ method, url })` the same way.
"""

from __future__ import annotations

from dataclasses import replace

from tree_sitter import Node as TsNode

from extractors.http.emit import VERBS
from extractors.http.summaries import Wrapper, site_line, substitute
from extractors.http.urls import Url, enclosing_function, parameter_names
from extractors.js.common import (
    arguments,
    dotted_name,
    modules,
    object_props,
    owner_at,
    resolve_const,
    resolve_local,
    string_value,
    text,
    unwrap,
)
from extractors.js.index import call_names
from extractors.source import SourceFile

_REQUEST = {"this.request", "__request", "request", "this.httpRequest.request"}
_FETCH = ["this.customFetch", "this.instance.request", "axios.request", "fetch"]  # preferred first


def is_generated(sf: SourceFile) -> bool:
    head = sf.data[:1500].lower()
    return b"generated" in head or b"do not edit" in head or b"__request(" in sf.data


class GeneratedClients:
    def __init__(self, calls):
        self.calls = calls
        self.ctx = calls.ctx
        self.eval = calls.eval
        self.methods: dict[tuple[str, str], Wrapper] = {}  # (rel, "Api.users.login") -> summary
        self.defaults: dict[tuple[str, str], Url] = {}  # (rel, class) -> default base
        self.generated: set[str] = set()
        self._memo: dict[tuple[str, str], tuple[Wrapper, Url | None] | None] = {}

    # ---- summaries, from the generated files ----
    def scan(self, sf: SourceFile) -> None:
        if not is_generated(sf):
            return
        self.generated.add(sf.rel)
        calls = call_names(self.ctx, sf)
        fetches = sorted((_FETCH.index(d), c.start_byte, c) for c, _, d in calls if d in _FETCH)
        fetch = fetches[0][2] if fetches else None
        tail = [f"{sf.rel}:{site_line(fetch)}"] if fetch is not None else []
        for call, callee, dotted in calls:
            verb = _client_verb(sf, callee)
            if dotted not in _REQUEST and verb is None:
                continue
            args = arguments(call)
            cfg = next((a for a in reversed(args) if a.type == "object"), None)
            props = object_props(sf, cfg) if cfg is not None else {}
            # swagger-typescript-api: `path` is the URL; codegen: `url`, `path` its values
            raw = next((props[k] for k in ("url", "path") if k in props and props[k].type != "object"), None)  # fmt: skip
            method = string_value(sf, props.get("method")) or verb
            fn = enclosing_function(call)
            key = _member_key(sf, fn)
            url = self.eval.js(sf, raw) if raw is not None else None
            if not method or url is None or key is None:
                continue
            names = parameter_names(sf, fn)
            hops = [f"{sf.rel}:{fn.start_point[0] + 1}", f"{sf.rel}:{raw.start_point[0] + 1}"]
            self.methods[(sf.rel, key)] = Wrapper(
                names, "", method.upper(), url, None, "fetch", "generated", hops + tail,
                sf.rel, fn.start_point[0] + 1, text(sf, raw),
                {"generated_client": True, "sdk_method": key},
            )  # fmt: skip
            if (
                dotted == "__request"
                and args
                and key.split(".")[0] not in {k for _, k in self.defaults}
            ):
                base = self._config_base(sf, args[0])
                if base is not None:
                    self.defaults[(sf.rel, key.split(".")[0])] = base
        for cls, node in _class_fields(sf, "baseUrl") if b"baseUrl" in sf.data else ():
            url = self.eval.js(sf, node)
            if url is not None:
                self.defaults[(sf.rel, cls)] = url
        self._delegates(sf, calls)
        self._client_defaults(sf, calls)

    def _delegates(self, sf: SourceFile, calls) -> None:
        """`async getPet(p) { return (await this.getPetRaw(p)).value(); }` (openapi-generator
        typescript-fetch): the method that delegates to a summarised one is one too."""
        for call, _, dotted in calls:
            if not dotted or not dotted.startswith("this.") or dotted.count(".") != 1:
                continue
            fn = enclosing_function(call)
            key = _member_key(sf, fn)
            inner = self.methods.get((sf.rel, f"{key.split('.')[0]}.{dotted[5:]}")) if key else None
            if inner is None or (sf.rel, key) in self.methods:
                continue
            self.methods[(sf.rel, key)] = replace(
                inner, params=parameter_names(sf, fn), line=fn.start_point[0] + 1,
                hops=[f"{sf.rel}:{fn.start_point[0] + 1}", *inner.hops],
                extra={**inner.extra, "sdk_method": key},
            )  # fmt: skip

    def _client_defaults(self, sf: SourceFile, calls) -> None:
        """The generated client's base: `createClient(createConfig({ baseUrl }))`
        (@hey-api), or a top-level `BASE_PATH` (openapi-generator)."""
        for call, _, dotted in calls:
            if dotted in {"createClient", "createConfig"}:
                cfg = next((a for a in arguments(call) if a.type == "object"), None)
                raw = object_props(sf, cfg).get("baseUrl") if cfg is not None else None
                url = self.eval.js(sf, raw) if raw is not None else None
                if url is not None:
                    self.defaults[(sf.rel, "client")] = url
        mod = modules(self.ctx).get(sf.rel)
        if mod is not None and "BASE_PATH" in mod.consts:
            url = self.eval.js(sf, mod.consts["BASE_PATH"])
            if url is not None:
                self.defaults[(sf.rel, "BASE_PATH")] = url

    def client_files(self) -> set[str]:
        """Generated files of a client with SDK methods: the methods' files, and generated
        files beside them (its runtime/core), whose own requests are the client's internals."""
        roots = {r.rsplit("/", 2)[0] if r.count("/") >= 2 else "" for r, _ in self.methods}
        roots |= {r.rsplit("/", 1)[0] if "/" in r else "" for r, _ in self.methods}
        return {
            rel for rel in self.generated
            if any(not root or rel.startswith(root + "/") for root in roots)
        }  # fmt: skip

    def _config_base(self, sf: SourceFile, node: TsNode) -> Url | None:
        """`OpenAPI.BASE` of the codegen's config object."""
        name = text(sf, node) if node.type == "identifier" else ""
        found = resolve_const(self.ctx, sf.rel, name) if name else None
        obj = unwrap(found[1]) if found else None
        if not found or obj is None or obj.type != "object":
            return None
        raw = object_props(found[0], obj).get("BASE")
        return self.eval.js(found[0], raw) if raw is not None else None

    # ---- call sites, everywhere else ----
    def resolve(self, sf: SourceFile, dotted: str) -> tuple[Wrapper, Url | None] | None:
        """The SDK method a dotted callee names, and the base of its client instance."""
        key = (sf.rel, dotted)
        if key in self._memo:
            return self._memo[key]
        found = self._memo[key] = self._resolve(sf, dotted)
        return found

    def _resolve(self, sf: SourceFile, dotted: str) -> tuple[Wrapper, Url | None] | None:
        head, _, rest = dotted.partition(".")
        if dotted.count(".") > 2:
            return None
        where = resolve_local(self.ctx, sf.rel, head)
        if where is None:
            return None
        if not rest:  # a generated function: `getPetById({ path: { petId } })`
            w = self.methods.get(where)
            return (w, self._default(where[0])) if w is not None else None
        mod = modules(self.ctx).get(where[0])
        value = unwrap(mod.consts.get(where[1])) if mod is not None else None
        instance_base: Url | None = None
        if value is not None and value.type == "new_expression":  # `const api = new Api(cfg)`
            ctor = dotted_name(mod.sf, value.child_by_field_name("constructor"))
            where = resolve_local(self.ctx, mod.rel, ctor) if ctor else None
            raw = _config_prop(mod.sf, value, ("baseUrl", "basePath"))
            instance_base = self.eval.js(mod.sf, raw) if raw is not None else None
            if where is None:
                return None
        w = self.methods.get((where[0], f"{where[1]}.{rest}"))
        if w is None:
            return None
        if instance_base is None:
            instance_base = self._default(where[0])
        return w, instance_base

    def _default(self, rel: str) -> Url | None:
        bases = [u for (r, _), u in self.defaults.items() if r == rel]
        bases = bases or list(self.defaults.values())
        return bases[0] if len({b.template for b in bases}) == 1 else None

    def sites(self) -> None:
        if not self.methods:
            return
        for rel, mod in sorted(modules(self.ctx).items()):
            if rel in self.generated:
                continue
            sf = mod.sf
            for call, _, dotted in call_names(self.ctx, sf):
                if dotted is None or call.type != "call_expression":
                    continue
                found = self.resolve(sf, dotted)
                if found is not None:
                    self.emit(sf, call, found, arguments(call), call)

    def emit(self, sf, at: TsNode, found, args: list[TsNode], call: TsNode, **extra) -> None:
        w, base = found
        url = substitute(self.eval, sf, w, args)
        if url is None:
            return
        self.calls.out.emit(
            sf, at, w.method, url, base, w.client, "generated",
            owner=owner_at(self.ctx, sf.rel, call), hops=list(w.hops), **w.extra, **extra,
        )  # fmt: skip


def _client_verb(sf: SourceFile, callee: TsNode | None) -> str | None:
    """`(options.client ?? client).get` / `client.post` in a generated file (@hey-api)."""
    if callee is None or callee.type != "member_expression":
        return None
    verb = text(sf, callee.child_by_field_name("property"))
    obj = unwrap(callee.child_by_field_name("object"))
    if verb not in VERBS or obj is None:
        return None
    named = obj.type == "binary_expression" or "client" in text(sf, obj).lower()
    return verb.upper() if named else None


def _config_prop(sf: SourceFile, new: TsNode, keys: tuple[str, ...]) -> TsNode | None:
    """`new Api({ baseUrl })` or `new PetApi(new Configuration({ basePath }))`."""
    for arg in arguments(new):
        arg = unwrap(arg)
        if arg is not None and arg.type == "new_expression":
            found = _config_prop(sf, arg, keys)
            if found is not None:
                return found
        elif arg is not None and arg.type == "object":
            props = object_props(sf, arg)
            found = next((props[k] for k in keys if k in props), None)
            if found is not None:
                return found
    return None


def _member_key(sf: SourceFile, fn: TsNode | None) -> str | None:
    """`Api.users.login` (a class field's object member) or `ArticlesService.getArticle`."""
    names: list[str] = []
    node = fn
    while node is not None:
        kind = node.type
        if kind in {"pair", "method_definition", "public_field_definition"}:
            key = node.child_by_field_name("key") or node.child_by_field_name("name")
            if key is not None:
                names.append(string_value(sf, key) or text(sf, key))
        elif kind in {"class_declaration", "class"}:
            name = node.child_by_field_name("name")
            if name is None:
                return None
            names.append(text(sf, name))
            break
        elif kind in {"function_declaration", "variable_declarator"}:
            name = node.child_by_field_name("name")
            names.append(text(sf, name) if name is not None else "")
            break
        node = node.parent
    names = [n for n in names if n]
    return ".".join(reversed(names)) if names else None


def _class_fields(sf: SourceFile, field: str) -> list[tuple[str, TsNode]]:
    out = []
    stack = list(sf.tree.root_node.named_children)  # classes are top-level (maybe exported)
    while stack:
        node = stack.pop()
        if node.type == "export_statement":
            stack.extend(node.named_children)
            continue
        if node.type in {"class_declaration", "class"}:
            name = node.child_by_field_name("name")
            body = node.child_by_field_name("body")
            for member in body.named_children if body is not None else []:
                key = member.child_by_field_name("name")
                value = member.child_by_field_name("value")
                if member.type != "public_field_definition" or key is None or value is None:
                    continue
                if text(sf, key) == field and name is not None:
                    out.append((text(sf, name), value))
    return out
