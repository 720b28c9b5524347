"""Firebase: Cloud Functions v1/v2 exports and `firebase.json` hosting rewrites.

Functions (exported consts, `exports.x = ...` too) whose call chain roots in an import from
`firebase-functions` (`firebase-functions/v1`, `/v2/https`, `/v2/firestore`, `/v2/scheduler`):
- `https.onRequest` / v2 `onRequest` → route `ANY /<exportName>`; ROUTES_TO the handler (an
  Express app's symbol when it wraps one — that app's own Express routes stay routes, as a
  hosting rewrite reaches them, and each appears again under the function's URL,
  `METHOD /<exportName>/<path>` with attr `express_route`, same handler and middleware).
- `https.onCall` / v2 `onCall` → route `POST /<exportName>` (attr `callable`), ROUTES_TO handler.
- every other trigger (auth, firestore, pubsub/schedule, storage, v2 `onDocumentCreated`,
  `onSchedule`, ...) stays the exported `symbol` node with attrs added.
The exported symbol always gets attrs `trigger` (e.g. `https.onRequest`, `auth.user.onCreate`,
`onDocumentCreated`), `firebase_gen` (1 | 2), `resource` (document path, schedule, topic,
when written literally), `region`, `secrets` (names), `function_name`.
route attrs: `method`, `path`, `framework="firebase-functions"`, `function`, `trigger`,
`express_app` (symbol id, onRequest(app) only).

`firebase.json`: a code_file node (qualifier = its rel path) with attrs `rewrites` — the
hosting rewrites that send traffic to code, as written: `[{"source": "/api/**", "function":
"api", "region": ...}, {"source": ..., "run": {"serviceId": ..., "region": ...}}]` (static
`destination` rules are left out) — and `hosting_public` / `functions_source`. The bridge
step (warehouse/http_bridge.py) reads `rewrites` to send relative calls to the function.
"""

from __future__ import annotations

import json
import posixpath

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.js.common import (
    arguments,
    js_files,
    lookup_symbol,
    modules,
    object_props,
    resolve_const,
    string_value,
    text,
    unwrap,
)
from extractors.js.model import ModuleInfo
from extractors.shared import CodeSymbols, ExpressApps, JsSymbols
from extractors.source import SourceFile

NAME = "firebase"
PROVIDES = (CodeSymbols,)
REQUIRES = (JsSymbols, ExpressApps)
_OPTION_RESOURCE = ("document", "schedule", "topic", "bucket", "ref", "path")
_COPIED = {"ROUTES_TO", "USES_MIDDLEWARE"}


def extract(ctx: ComponentContext) -> None:
    for rel, sf in sorted(ctx.files.items()):
        if posixpath.basename(rel) == "firebase.json" and sf.virtual_of is None:
            _firebase_json(ctx, sf)
    mods = modules(ctx)
    nodes = {n.id: n for n in ctx.facts.nodes if n.kind == "symbol"}
    for sf in js_files(ctx):
        mod = mods.get(sf.rel)
        if mod is None or not any(
            (b.package or "") == "firebase-functions" for b in mod.imports.values()
        ):
            continue
        for exported, value, at in _exported_calls(mod):
            _function(ctx, mod, nodes, exported, value, at)


def _exported_calls(mod: ModuleInfo):
    for exported, local in sorted(mod.exports.items()):
        value = unwrap(mod.consts.get(local))
        if value is not None and value.type == "call_expression":
            yield exported, value, value
    for stmt in mod.sf.tree.root_node.named_children:  # CommonJS `exports.api = onRequest(...)`
        expr = (
            stmt.named_children[0]
            if stmt.type == "expression_statement" and stmt.named_children
            else None
        )
        if expr is None or expr.type != "assignment_expression":
            continue
        left = text(mod.sf, expr.child_by_field_name("left"))
        right = unwrap(expr.child_by_field_name("right"))
        if (
            left.startswith(("exports.", "module.exports."))
            and right is not None
            and right.type == "call_expression"
        ):
            yield left.rsplit(".", 1)[1], right, stmt


def _chain(sf: SourceFile, call: TsNode) -> tuple[str, list[str], list[TsNode]]:
    """`functions.firestore.document('x').onCreate(h)` → ("functions", [...names], [calls])."""
    names: list[str] = []
    calls: list[TsNode] = []
    node = call
    while node is not None:
        if node.type == "call_expression":
            calls.append(node)
            node = unwrap(node.child_by_field_name("function"))
        elif node.type == "member_expression":
            names.append(text(sf, node.child_by_field_name("property")))
            node = unwrap(node.child_by_field_name("object"))
        elif node.type == "identifier":
            return text(sf, node), names[::-1], calls
        else:
            return "", [], []
    return "", [], []


def _function(ctx, mod: ModuleInfo, nodes, exported: str, call: TsNode, at: TsNode) -> None:
    sf = mod.sf
    root, names, calls = _chain(sf, call)
    binding = mod.imports.get(root)
    if binding is None or binding.package != "firebase-functions":
        return
    v2 = "/v2" in binding.spec or (binding.imported not in {"*", "default"} and not names)
    trigger_names = ([binding.imported] if binding.imported not in {"*", "default"} else []) + names
    trigger = ".".join(n for n in trigger_names if n not in {"region", "runWith"})
    last = trigger_names[-1] if trigger_names else ""
    args = arguments(call)
    options = next((a for a in args if a.type == "object"), None)
    attrs = {"trigger": trigger, "firebase_gen": 2 if v2 else 1, "function_name": exported}
    attrs.update(_options(ctx, mod, options, calls))
    symbol = mod.symbols.get(mod.exports.get(exported, exported))
    line = SourceFile.line(at)
    if symbol is None:
        symbol = ctx.add_node(
            "symbol", f"{sf.rel}#{exported}", exported, sf.rel, line, SourceFile.end_line(at),
            exported=True, symbol_kind="variable",
        )  # fmt: skip
        ctx.add_edge(mod.file_id, symbol, "DEFINES", sf.rel, line)
    elif symbol in nodes:
        nodes[symbol].attrs.update(attrs)
    if last not in {"onRequest", "onCall"}:
        return
    handler_node = unwrap(args[-1]) if args else None
    handler, app = _handler(ctx, mod, handler_node)
    method = "ANY" if last == "onRequest" else "POST"
    name = f"{method} /{exported}"
    route_attrs = {"method": method, "path": f"/{exported}", "framework": "firebase-functions"}
    route_attrs |= {"function": exported, "trigger": trigger}
    if last == "onCall":
        route_attrs["callable"] = True
    if app:
        route_attrs["express_app"] = handler
    route = ctx.add_node("route", name, name, sf.rel, line, SourceFile.end_line(at), **route_attrs)
    if handler:
        ctx.add_edge(route, handler, "ROUTES_TO", sf.rel, line)
    if app and handler:
        _function_routes(ctx, exported, handler.split(":symbol:", 1)[1], trigger)


def _function_routes(ctx, exported: str, app_key: str, trigger: str) -> None:
    """The wrapped Express app's routes again under the function's own URL
    (`https://<region>-<project>.cloudfunctions.net/<name>/<path>`): same handler, same
    middleware, attr `express_route`. Through a hosting rewrite the app sees the request
    path unchanged, so there its routes keep their own path."""
    wanted = set(ctx.shared.express.apps.get(app_key, []))
    if not wanted:
        return
    nodes = {n.id: n for n in ctx.facts.nodes if n.id in wanted}
    edges = [e for e in ctx.facts.edges if e.src in wanted and e.type in _COPIED]
    taken = {n.id for n in ctx.facts.nodes if n.kind == "route"}
    for route_id in ctx.shared.express.apps[app_key]:
        node = nodes.get(route_id)
        if node is None:
            continue
        path = f"/{exported}" + (
            "" if node.attrs.get("path") == "/" else node.attrs.get("path", "")
        )
        name = f"{node.attrs.get('method')} {path}"
        qualifier = name if ctx.node_id("route", name) not in taken else f"{name}@{exported}"
        copy = ctx.add_node(
            "route", qualifier, name, node.file, node.line, node.end_line,
            method=node.attrs.get("method"), path=path, framework="firebase-functions",
            function=exported, trigger=trigger, express_route=route_id,
        )  # fmt: skip
        for e in edges:
            if e.src == route_id:
                ctx.add_edge(copy, e.dst, e.type, e.file, e.line, **e.attrs)


def _handler(ctx, mod: ModuleInfo, node: TsNode | None) -> tuple[str | None, bool]:
    if node is None:
        return None, False
    if node.type in {"arrow_function", "function_expression"}:
        return mod.enclosing(node.start_byte), False
    dotted = text(mod.sf, node)
    symbol = lookup_symbol(ctx, mod.rel, dotted)
    apps = ctx.shared.express.apps
    key = symbol.split(":symbol:", 1)[1] if symbol else None
    return symbol, key in apps


def _options(ctx, mod: ModuleInfo, options: TsNode | None, calls: list[TsNode]) -> dict:
    sf = mod.sf
    out: dict = {}
    for call in calls[1:]:  # `.document('x')`, `.schedule('every 5 minutes')`, `.region('x')`
        fn = call.child_by_field_name("function")
        prop = (
            text(sf, fn.child_by_field_name("property")) if fn.type == "member_expression" else ""
        )
        value = string_value(sf, (arguments(call) or [None])[0])
        if value and prop == "region":
            out["region"] = value
        elif value and prop in {"document", "schedule", "topic", "object", "ref", "bucket"}:
            out["resource"] = value
    first = (arguments(calls[0]) or [None])[0] if calls else None
    if first is not None and string_value(sf, first):
        out["resource"] = string_value(sf, first)  # v2: onDocumentCreated('x/{id}', ...)
    if options is None:
        return out
    props = object_props(sf, options)
    for key in _OPTION_RESOURCE:
        value = _literal(ctx, mod, props.get(key))
        if isinstance(value, str):
            out["resource"] = value
    region = _literal(ctx, mod, props.get("region"))
    if region:
        out["region"] = region
    secrets = props.get("secrets")
    if secrets is not None and secrets.type == "array":
        names = [_literal(ctx, mod, s) for s in secrets.named_children]
        out["secrets"] = sorted(n for n in names if isinstance(n, str))
    return out


def _literal(ctx, mod: ModuleInfo, node: TsNode | None):
    node = unwrap(node)
    if node is None:
        return None
    value = string_value(mod.sf, node)
    if value is not None:
        return value
    if node.type in {"identifier", "shorthand_property_identifier"}:
        found = resolve_const(ctx, mod.rel, text(mod.sf, node))
        return string_value(found[0], unwrap(found[1])) if found else None
    return None


def _firebase_json(ctx: ComponentContext, sf: SourceFile) -> None:
    try:
        data = json.loads(sf.text)
    except (ValueError, RecursionError) as exc:
        ctx.problem("warning", sf.rel, None, "bad-json", f"firebase.json unreadable: {exc}")
        return
    hosting = data.get("hosting") if isinstance(data, dict) else None
    sites = hosting if isinstance(hosting, list) else [hosting] if isinstance(hosting, dict) else []
    rewrites, public = [], []
    for site in sites:
        if site.get("public"):
            public.append(site["public"])
        for rule in site.get("rewrites") or []:
            if isinstance(rule, dict) and ("function" in rule or "run" in rule):
                rewrites.append(
                    {
                        k: v
                        for k, v in rule.items()
                        if k in {"source", "regex", "function", "run", "region"}
                    }
                )
    functions = data.get("functions") if isinstance(data, dict) else None
    sources = [
        f.get("source")
        for f in (functions if isinstance(functions, list) else [functions])
        if isinstance(f, dict)
    ]
    attrs = {
        "rewrites": rewrites,
        "hosting_public": public,
        "functions_source": [s for s in sources if s],
    }
    existing = ctx.find_node(ctx.node_id("code_file", sf.rel))
    if existing is not None:
        existing.attrs.update(attrs)
    else:
        ctx.add_node(
            "code_file",
            sf.rel,
            sf.rel,
            sf.rel,
            1,
            sf.data.count(b"\n") + 1,
            language="json",
            **attrs,
        )
