"""Build-time constants a bundler writes into the code: each one a `setting` at its line.

`replace({ __api_url__: '/api' })` (@rollup/plugin-replace, also wrapped by an adapter as
`const replace = fromRollup(rollupReplace)`), `new DefinePlugin({ 'process.env.API':
JSON.stringify('...') })` (webpack) and Vite's `define: { __API__: '...' }` swap a token
for a value when the bundle is built: the value the code runs with is in the build config,
not in the source that reads it. Each replaced key is one `setting` (name = the key as
written, `value` = the string it becomes or the expression as written, `source` = the
plugin), DECLARED by the config file. `refers_to` names what the code sees: the config key
whose value is that token (`API_URL: '__api_url__'` → `API_URL`, `used_at` its file:line),
or the env var a `process.env.X` key stands for; `env_vars` lists the variables the value
itself reads (`process.env.API_URL || 'http://localhost:8000'`).
"""

from __future__ import annotations

import re

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.js.common import (
    arguments,
    dotted_name,
    js_files,
    modules,
    object_props,
    string_value,
    text,
    unwrap,
)
from extractors.js.model import ModuleInfo
from extractors.lang.files import js_adapter_of
from extractors.shared import JsSymbols
from extractors.source import named_descendants

NAME = "buildconsts"
PROVIDES = ()
REQUIRES = (JsSymbols,)
_PLUGINS = {"@rollup/plugin-replace": "rollup replace", "webpack": "webpack DefinePlugin"}
_OPTIONS = {"include", "exclude", "preventAssignment", "delimiters", "sourceMap", "sourcemap"}
_OPTIONS |= {"objectGuards", "values"}
_ENV_READ = re.compile(r"process\.env\.([A-Za-z_][A-Za-z0-9_]*)|import\.meta\.env\.(\w+)")
_ENV_KEY = re.compile(r"^(?:process\.env|import\.meta\.env)\.([A-Za-z_][A-Za-z0-9_]*)$")


def extract(ctx: ComponentContext) -> None:
    for sf in js_files(ctx):
        mod = modules(ctx).get(sf.rel)
        if mod is None or not any(p.encode() in sf.data for p in (*_PLUGINS, "vite")):
            continue
        for options, source in _option_objects(ctx, mod):
            _settings(ctx, mod, options, source)


def _option_objects(ctx: ComponentContext, mod: ModuleInfo) -> list[tuple[TsNode, str]]:
    """The objects of replacements: a replace plugin's options, DefinePlugin's argument, a
    Vite config's `define`."""
    sf, found = mod.sf, []
    plugins = {n: _PLUGINS[b.package] for n, b in mod.imports.items() if b.package in _PLUGINS}
    for name, value in mod.consts.items():  # `const replace = fromRollup(rollupReplace)`
        value = unwrap(value)
        if value is not None and value.type == "call_expression":
            wrapped = [plugins.get(text(sf, a)) for a in arguments(value)]
            if any(wrapped):
                plugins[name] = next(w for w in wrapped if w)
    vite = any(b.package == "vite" for b in mod.imports.values())
    for call, _fn, dotted in js_adapter_of(ctx, sf).call_names:
        args = arguments(call)
        first = unwrap(args[0]) if args else None
        if first is None or first.type != "object":
            continue
        head = (dotted or "").split(".")[0]
        if call.type == "call_expression" and plugins.get(dotted or "") == "rollup replace":
            values = unwrap(object_props(sf, first).get("values"))  # `values: {...}` form
            found.append(
                (
                    values if values is not None and values.type == "object" else first,
                    "rollup replace",
                )
            )
        elif call.type == "new_expression" and (dotted or "").endswith("DefinePlugin"):
            if plugins.get(head) == "webpack DefinePlugin":
                found.append((first, "webpack DefinePlugin"))
        elif vite and dotted == "defineConfig":
            define = unwrap(object_props(sf, first).get("define"))
            if define is not None and define.type == "object":
                found.append((define, "vite define"))
    return found


def _settings(ctx, mod: ModuleInfo, options: TsNode, source: str) -> None:
    sf = mod.sf
    for pair in options.named_children:
        if pair.type != "pair":
            continue
        key_node, value = pair.child_by_field_name("key"), unwrap(pair.child_by_field_name("value"))
        key = string_value(sf, key_node) if key_node.type == "string" else text(sf, key_node)
        if not key or key in _OPTIONS or value is None:
            continue
        if (
            value.type == "call_expression"
            and dotted_name(sf, value.child_by_field_name("function")) == "JSON.stringify"
        ):
            value = unwrap((arguments(value) or [value])[0])
        literal = string_value(sf, value)
        line = pair.start_point[0] + 1
        attrs: dict = {
            "value": literal if literal is not None else " ".join(text(sf, value).split()),
            "about": f"build-time constant: {source} writes this value for {key}",
            "source": source,
        }
        env_key = _ENV_KEY.match(key)
        token = _token_key(ctx, key) if not env_key else None
        if token is not None:
            attrs["refers_to"], attrs["used_at"] = token
        elif env_key:
            attrs["refers_to"] = env_key.group(1)
        reads = sorted({a or b for a, b in _ENV_READ.findall(text(sf, value))})
        if reads:
            attrs["env_vars"] = reads
        node_id = ctx.add_node("setting", f"{mod.rel}:{line}:{key}", key, mod.rel, line, **attrs)
        ctx.add_edge(mod.file_id, node_id, "DECLARES", mod.rel, line)


def _token_key(ctx: ComponentContext, token: str) -> tuple[str, str] | None:
    """(config key, "rel:line") of the first `KEY: '<token>'` pair in the code."""
    quoted = [f"{q}{token}{q}".encode() for q in "'\"`"]
    for rel, mod in sorted(modules(ctx).items()):
        if not any(q in mod.sf.data for q in quoted):
            continue
        for node in named_descendants(mod.sf.tree.root_node):
            if (
                node.type == "pair"
                and string_value(mod.sf, node.child_by_field_name("value")) == token
            ):
                key = node.child_by_field_name("key")
                return text(mod.sf, key), f"{rel}:{node.start_point[0] + 1}"
    return None
