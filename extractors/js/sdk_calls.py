"""Backend SDK calls: what an app that talks to its backend through an SDK does instead of
an HTTP call to a route of its own (Firestore, Realtime Database, Firebase Auth and
Storage, Genkit).

An `sdk_call` node per call site that does I/O through the SDK, at the call's own line:
- Firestore (`firebase/firestore`, `/lite`, `firebase-admin/firestore`, `@google-cloud/
  firestore`): `getDoc`/`getDocs`/`setDoc`/`addDoc`/`updateDoc`/`deleteDoc`/
  `runTransaction`/`onSnapshot`/`getCountFromServer`..., and the chained form
  `db.collection("x").doc(id).get()` (`.get/.set/.add/.update/.delete/.onSnapshot`).
  `resource` is the document or collection path, evaluated through `doc(...)`,
  `collection(...)`, `query(...)` and the names they are stored in (unknown segments as
  `{expr}`); a transaction's (and a `writeBatch(db)` batch's `.commit()`) resource is
  every path its function builds.
- Realtime Database (`firebase/database`): `get/set/update/push/remove/onValue/...` on
  `ref(db, "path")` / `child(ref, "x")`.
- Firebase Auth (`firebase/auth`): sign-in/out, password reset, `onAuthStateChanged`...
- Firebase Storage (`firebase/storage`): uploads, downloads, deletes; `resource` the
  `ref(storage, path)` path.
- Genkit: `ai.generate(...)` on `const ai = genkit({ plugins, model })` (or `generate`
  from `@genkit-ai/ai`); `model` as written; a model plugin that reads its API key from
  the environment by itself (`googleAI()` → `GEMINI_API_KEY`) gives a READS_ENV edge from
  the call to that env_var (attrs `via`, `implicit`), so the key's impact reaches the call.

node: qualifier `<rel>:<line>:<op>`, name `<SDK> <op> <resource>`; attrs `sdk`
(firestore | firebase-database | firebase-auth | firebase-storage | genkit), `package`, `op`, `access`
(read | write | delete | listen | transaction | auth | generate), `resource`, `model`,
`about`. Edge: the enclosing symbol (or code_file) CALLS_FN the sdk_call at the call line,
attr `via="<sdk> sdk"`. Cookies by name are `cookies.py`'s.

What each SDK's functions do is its model (`extractors/models/sdk/<id>.yaml`, from the SDK's
reference documentation); this module is the mechanism that reads the models.
"""

from __future__ import annotations

from functools import cache

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.engine.env import emit_reads
from extractors.engine.texts import defined_as, text_at
from extractors.js.common import arguments, js_files, modules, object_props, text, unwrap
from extractors.js.model import ModuleInfo
from extractors.lang.files import js_adapter_of
from extractors.models.sdks import Sdk, all_sdks
from extractors.shared import EngineRun, EnvVars, JsSymbols
from extractors.source import SourceFile

NAME = "sdk_calls"
PROVIDES = ()
REQUIRES = (JsSymbols, EnvVars, EngineRun)  # after the env reads; strings by the engine
ABOUT = "SDK call to a managed backend, not an HTTP call to a route of this project"
PATH_RULES = ("join", "new_id")  # ref kinds that name a document or collection of their own


@cache
def _by_module() -> dict[str, Sdk]:
    return {spec: sdk for sdk in all_sdks() for spec in sdk.modules}


@cache
def _backends() -> tuple[str, ...]:
    """Import specs (prefixes) of a file that talks to a managed backend, once: asked of
    every import of every file, and of every method call in such a file."""
    return tuple(prefix for sdk in all_sdks() for prefix in sdk.backend)


@cache
def _namespace_names() -> frozenset[str]:
    """What `import * as fs from "firebase/firestore"` can be read as: `fs.<name>`."""
    return frozenset(name for sdk in all_sdks() for name in (*sdk.functions, *sdk.refs))


def extract(ctx: ComponentContext) -> None:
    mods = modules(ctx)
    for sf in js_files(ctx):
        mod = mods.get(sf.rel)
        if mod is not None and any(_backend(b.spec) for b in mod.imports.values()):
            _file(ctx, mod, _imported(mod))


def _backend(spec: str) -> bool:
    return spec.startswith(_backends())


def _imported(mod: ModuleInfo) -> dict[str, tuple[str, str]]:
    """local name (or `ns.fn`) → (imported name, package spec) for the SDK modules."""
    by_module = _by_module()
    out: dict[str, tuple[str, str]] = {}
    for local, b in mod.imports.items():
        if b.spec not in by_module:
            continue
        if b.imported == "*":
            out.update({f"{local}.{op}": (op, b.spec) for op in _namespace_names()})
        else:
            out[local] = (b.imported, b.spec)
    return out


def _ref(names, callee: str) -> str | None:
    """How the function called as `callee` builds a path (a `refs` kind), else None."""
    op, spec = names.get(callee, ("", ""))
    sdk = _by_module().get(spec)
    return sdk.refs.get(op) if sdk is not None else None


def _file(ctx: ComponentContext, mod: ModuleInfo, names: dict[str, tuple[str, str]]) -> None:
    taken: set[str] = set()
    by_module = _by_module()
    for call, fn, dotted in js_adapter_of(ctx, mod.sf).call_names:
        if call.type != "call_expression":
            continue
        attrs = None
        if dotted in names:
            op, spec = names[dotted]
            sdk = by_module[spec]
            if op not in sdk.functions:
                continue  # a ref builder, a config call
            attrs = {"sdk": sdk.id, "package": spec, "op": op, "access": sdk.functions[op]}
            if op == sdk.transaction:
                attrs["resource"] = " + ".join(_paths_in(ctx, mod, names, call))
            elif sdk.refs:
                attrs["resource"] = _path(ctx, mod, names, (arguments(call) or [None])[0])
        elif fn is not None and fn.type == "member_expression":
            attrs = _method(ctx, mod, names, call, fn)
        if attrs:
            _emit(ctx, mod, call, attrs, taken)


def _method(ctx, mod: ModuleInfo, names, call: TsNode, fn: TsNode) -> dict | None:
    prop = text(mod.sf, fn.child_by_field_name("property"))
    obj = unwrap(fn.child_by_field_name("object"))
    for sdk in all_sdks():
        if sdk.instance is not None and prop in sdk.instance[2]:
            return _instance_call(ctx, mod, call, obj, prop, sdk)
    for sdk in all_sdks():
        if sdk.batch is None or prop != sdk.batch[1] or obj is None or obj.type != "identifier":
            continue
        made = defined_as(ctx, mod.rel, obj)
        made_node = unwrap(made.node) if made is not None else None
        if made_node is not None and made_node.type == "call_expression":
            op, spec = names.get(text(mod.sf, made_node.child_by_field_name("function")), ("", ""))
            if op == sdk.batch[0] and spec in sdk.modules:
                paths = " + ".join(_paths_in(ctx, mod, names, call))
                return {"sdk": sdk.id, "package": spec, "op": f"{op}.{prop}",
                        "access": sdk.batch[2], "resource": paths}  # fmt: skip
    chained = obj is not None and obj.type == "call_expression"
    if not chained or not any(_backend(b.spec) for b in mod.imports.values()):
        return None
    for sdk in all_sdks():
        if sdk.chain is not None and prop in sdk.chain.methods:
            path = _chain_path(ctx, mod, obj, sdk)
            if path:
                return {"sdk": sdk.id, "package": _spec(mod, sdk), "op": prop,
                        "access": sdk.chain.methods[prop], "resource": path}  # fmt: skip
    return None


def _spec(mod: ModuleInfo, sdk: Sdk) -> str:
    specs = sorted(b.spec for b in mod.imports.values() if b.spec in sdk.modules)
    return specs[0] if specs else sdk.chain.package  # type: ignore[union-attr]


def _chain_path(ctx, mod: ModuleInfo, call: TsNode, sdk: Sdk) -> str | None:
    """`db.collection("a").doc(id).collection("b")` → `a/{id}/b` (None: not such a chain)."""
    chain = sdk.chain
    assert chain is not None
    parts: list[str] = []
    seen: set[str] = set()
    node: TsNode | None = call
    while node is not None and node.type == "call_expression":
        fn = unwrap(node.child_by_field_name("function"))
        if fn is None or fn.type != "member_expression":
            break
        prop = text(mod.sf, fn.child_by_field_name("property"))
        if prop in chain.segments:
            seen.add(prop)
            args = arguments(node)
            parts.append(_segment(ctx, mod, args[0]) if args else "{new id}")
        elif prop not in chain.passes:
            break  # the root: `admin.firestore()`, `getFirestore()`
        node = unwrap(fn.child_by_field_name("object"))
    return "/".join(reversed(parts)) if seen & chain.needs else None


def _segment(ctx, mod: ModuleInfo, node: TsNode | None) -> str:
    value = text_at(ctx, mod.rel, node)
    return value if value is not None else "{" + text(mod.sf, node).strip() + "}"


def _path(ctx, mod: ModuleInfo, names, node: TsNode | None, depth: int = 0) -> str | None:
    """The document or object path a ref expression stands for, through the names it is
    kept in."""
    node = unwrap(node)
    if node is None or depth > 8:
        return None
    if node.type == "identifier":
        found = defined_as(ctx, mod.rel, node)
        owner = modules(ctx).get(found.rel) if found is not None else None
        if found is None or owner is None or found.node == node:
            return None
        return _path(ctx, owner, _imported(owner), found.node, depth + 1)
    if node.type != "call_expression":
        return None
    callee = text(mod.sf, node.child_by_field_name("function"))
    rule = _ref(names, callee)
    args = arguments(node)
    if rule is None or not args:
        return _chained_path(ctx, mod, node) if "." in callee else None
    base = _path(ctx, mod, names, args[0], depth + 1)
    if rule == "base":
        return base
    segments = [_segment(ctx, mod, a) for a in args[1:]]
    if rule == "new_id" and base is not None and not segments:
        segments = ["{new id}"]
    return "/".join(([base] if base else []) + segments) or None


def _chained_path(ctx, mod: ModuleInfo, node: TsNode) -> str | None:
    """The namespaced form of a path, by the first SDK whose chain reads it."""
    for sdk in all_sdks():
        if sdk.chain is not None and (path := _chain_path(ctx, mod, node, sdk)):
            return path
    return None


def _paths_in(ctx, mod: ModuleInfo, names, call: TsNode) -> list[str]:
    """Every outermost document or collection path built in the function around `call`."""
    scope = call.parent
    while scope is not None and scope.type not in {
        "function_declaration", "arrow_function", "function_expression", "method_definition",
        "program",
    }:  # fmt: skip
        scope = scope.parent
    out: list[str] = []
    for other, _, dotted in js_adapter_of(ctx, mod.sf).call_names:
        if scope is not None and not (scope.start_byte <= other.start_byte < scope.end_byte):
            continue
        if _ref(names, dotted or "") not in PATH_RULES:
            continue
        outer = unwrap(other.parent.parent) if other.parent is not None else None
        if _is_ref(mod, names, outer):
            continue  # an inner `collection(...)` of a `doc(collection(...), id)`
        path = _path(ctx, mod, names, other)
        if path and path not in out:
            out.append(path)
    return out


def _is_ref(mod: ModuleInfo, names, node: TsNode | None) -> bool:
    if node is None or node.type != "call_expression":
        return False
    return _ref(names, text(mod.sf, node.child_by_field_name("function"))) is not None


def _instance_call(ctx, mod: ModuleInfo, call: TsNode, obj: TsNode | None, op: str, sdk: Sdk):
    """`ai.generate(…)` on `const ai = genkit({ plugins, model })`: the model as written, and
    the env var each model plugin reads by itself (no `apiKey` given)."""
    module, maker, _ = sdk.instance  # type: ignore[misc]
    found = defined_as(ctx, mod.rel, obj) if obj is not None else None
    made = unwrap(found.node) if found is not None else None
    owner = modules(ctx).get(found.rel) if found is not None else None
    if made is None or owner is None or made.type != "call_expression":
        return None
    ctor = text(owner.sf, made.child_by_field_name("function"))
    binding = owner.imports.get(ctor)
    if binding is None or binding.spec != module or binding.imported != maker:
        return None
    config = next((a for a in arguments(made) if a.type == "object"), None)
    props = object_props(owner.sf, config) if config is not None else {}
    attrs = {"sdk": sdk.id, "package": module, "op": op, "access": sdk.functions.get(op, "")}
    options = next((a for a in arguments(call) if a.type == "object"), None)
    model = object_props(mod.sf, options).get("model") if options is not None else None
    if model is not None:
        attrs["model"] = text(mod.sf, model)
    elif "model" in props:
        attrs["model"] = text(owner.sf, props["model"])
    plugins = props.get("plugins")
    envs: list[tuple[str, str]] = []
    for plugin in plugins.named_children if plugins is not None else []:
        if plugin.type != "call_expression":
            continue
        pb = owner.imports.get(text(owner.sf, plugin.child_by_field_name("function")))
        if pb is None:
            continue
        attrs.setdefault("plugins", []).append(pb.spec)
        given = next((a for a in arguments(plugin) if a.type == "object"), None)
        explicit = given is not None and "apiKey" in object_props(owner.sf, given)
        if pb.spec in sdk.plugin_env and not explicit:
            envs.append((sdk.plugin_env[pb.spec], pb.spec))
    attrs["_envs"] = envs
    return attrs


def _emit(ctx, mod: ModuleInfo, call: TsNode, attrs: dict, taken: set[str]) -> None:
    envs = attrs.pop("_envs", [])
    line = SourceFile.line(call)
    qualifier = f"{mod.rel}:{line}:{attrs['op']}"
    if qualifier in taken:
        qualifier += f"@{call.start_point[1] + 1}"
    taken.add(qualifier)
    label = f"{next(s.label for s in all_sdks() if s.id == attrs['sdk'])} {attrs['op']}"
    detail = attrs.get("resource") or attrs.get("model")
    name = f"{label} {detail}" if detail else label
    if not attrs.get("resource"):
        attrs.pop("resource", None)
    node = ctx.add_node(
        "sdk_call", qualifier, name, mod.rel, line, SourceFile.end_line(call),
        about=ABOUT, **attrs,
    )  # fmt: skip
    owner = mod.enclosing(call.start_byte)
    ctx.add_edge(owner, node, "CALLS_FN", mod.rel, line, via=f"{attrs['sdk']} sdk")
    emit_reads(ctx, [(node, env, mod.rel, line, {"via": f"{attrs['sdk']} plugin {plugin}",
                                                 "implicit": True}) for env, plugin in envs])  # fmt: skip
