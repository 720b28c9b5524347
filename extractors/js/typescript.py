"""TS/JS/TSX/JSX (and Vue `<script>` blocks): code_file, symbol, DEFINES, IMPORTS.

Symbols are top-level declarations only — functions, arrow/function consts, classes and
their methods, methods of object-literal consts (`contactController.sendContactEmailJp`,
also inside a call's object argument: Pinia `actions`), exported consts, and anonymous
functions passed to a module-level call (`app.get('/x', (req, res) => ...)`, name
`<anonymous>`). Nested functions belong to their enclosing symbol, so a trace reads
`ContactForm --CALLS_FN--> postContact`, not through a local `handleSubmit` (CALLS_FN
edges: `js/calls.py`, through the engine's evaluator).

Node qualifiers: code_file = rel path; symbol = `<rel>#<dotted name>`
(`<rel>#<anonymous>@<line>:<col>` for anonymous ones).
Package imports are kept on the code_file node as attr `packages` (sorted names);
unresolvable relative/alias imports become `unresolved` rows of kind `import`.

Provides `ctx.shared.js` (JsSymbols, read by express, nextjs, firebase, env, http calls):
- `modules`: {rel: js.model.ModuleInfo} — imports, exports, re-exports, symbols,
  aliases, top-level const initializers, symbol ranges for `enclosing(byte)`.
Requires `ctx.shared.vue` ({rel: component symbol id}) from `vue.py`.
"""

from __future__ import annotations

import re

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext, report_syntax_errors
from extractors.js.common import (
    FUNCTION_TYPES,
    arguments,
    dotted_name,
    js_files,
    modules,
    string_value,
    text,
    unwrap,
)
from extractors.js.model import Binding, ModuleInfo
from extractors.js.resolve import Resolver
from extractors.js.symbols import CLASS_TYPES as _CLASS_TYPES
from extractors.js.symbols import add_symbol as _symbol
from extractors.js.symbols import alias_symbols as _alias_symbols
from extractors.js.symbols import anonymous_handlers
from extractors.js.symbols import component_options as _component_options
from extractors.js.symbols import declaration as _declaration
from extractors.js.symbols import inner_handlers as _inner_handlers
from extractors.js.symbols import object_members as _object_members
from extractors.lang.files import js_adapter_of
from extractors.models import import_paths
from extractors.shared import CodeSymbols, JsSymbols, VueComponents
from extractors.source import SourceFile

NAME = "typescript"
PROVIDES = (JsSymbols, CodeSymbols)
REQUIRES = (VueComponents,)
_CONFIG = re.compile(r"(^|/)(tsconfig(\.[\w.-]+)?|jsconfig)\.json$")
_ENV_OBJECTS = {"process.env", "import.meta.env"}


def extract(ctx: ComponentContext) -> None:
    files = js_files(ctx)
    configs = {rel: f.data for rel, f in ctx.files.items() if _CONFIG.search(rel)}
    components = ctx.shared.vue.components
    manifests = {rel: f.data for rel, f in ctx.files.items() if rel.endswith("package.json")}
    resolver = Resolver({f.rel for f in files} | set(components), configs, import_paths(manifests))
    mods = modules(ctx)
    for sf in files:
        mods[sf.rel] = _scan(ctx, sf, resolver, components.get(sf.rel))
    if components:
        from extractors.js.vue import link_template

        link_template(ctx)


def _scan(
    ctx: ComponentContext, sf: SourceFile, resolver: Resolver, component: str | None
) -> ModuleInfo:
    file_id = ctx.node_id("code_file", sf.rel)
    mod = ModuleInfo(sf.rel, sf, file_id, component or file_id)
    if component is not None:
        name = component.rsplit("#", 1)[1]
        mod.symbols[name] = component
        mod.exports["default"] = name
    packages: set[str] = set()
    root = sf.tree.root_node
    report_syntax_errors(ctx, sf, js_adapter_of(ctx, sf).syntax_errors())
    for stmt in root.named_children:
        _statement(ctx, mod, stmt, resolver, packages)
    _alias_symbols(ctx, mod)
    anonymous_handlers(ctx, mod)
    mod.seal()
    if getattr(sf, "virtual_of", None) is None:
        ctx.add_node(
            "code_file", sf.rel, sf.rel, sf.rel, 1, SourceFile.end_line(root),
            language=sf.language, packages=sorted(packages),
        )  # fmt: skip
    elif packages:
        ctx.shared.js.script_packages[sf.rel] = sorted(packages)
    for target, line in sorted(
        {b.target: b.line for b in mod.imports.values() if b.target}.items()
    ):
        ctx.add_edge(file_id, ctx.node_id("code_file", target), "IMPORTS", sf.rel, line)
    return mod


def _import(ctx, mod: ModuleInfo, resolver: Resolver, spec: str, line: int, packages: set[str]):
    target, package, local = resolver.resolve(mod.rel, spec)
    if package:
        packages.add(package)
    elif target is None and local:
        ctx.unresolved(mod.rel, line, "import", spec, "no file in the component for this import")
    elif target is not None and target != mod.rel:
        mod.imports.setdefault(f"\0side-effect:{spec}", Binding(spec, target, "*", None, line))
    return target, package


def _statement(ctx, mod: ModuleInfo, stmt: TsNode, resolver: Resolver, packages: set[str]):
    sf = mod.sf
    kind = stmt.type
    if kind == "import_statement":
        spec = string_value(sf, stmt.child_by_field_name("source"))
        if spec is None:
            return
        line = SourceFile.line(stmt)
        target, package = _import(ctx, mod, resolver, spec, line, packages)
        clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
        for child in clause.named_children if clause else []:
            if child.type == "identifier":
                mod.imports[text(sf, child)] = Binding(spec, target, "default", package, line)
            elif child.type == "namespace_import":
                ident = next((c for c in child.named_children if c.type == "identifier"), None)
                if ident is not None:
                    mod.imports[text(sf, ident)] = Binding(spec, target, "*", package, line)
            elif child.type == "named_imports":
                for spec_node in child.named_children:
                    name = spec_node.child_by_field_name("name")
                    alias = spec_node.child_by_field_name("alias") or name
                    if name is not None:
                        mod.imports[text(sf, alias)] = Binding(
                            spec, target, text(sf, name), package, line
                        )
    elif kind == "export_statement":
        _export(ctx, mod, stmt, resolver, packages)
    elif kind in {"function_declaration", "generator_function_declaration"} | _CLASS_TYPES:
        _declaration(ctx, mod, stmt, exported=False)
    elif kind in {"lexical_declaration", "variable_declaration"}:
        _variables(ctx, mod, stmt, resolver, packages, exported=False)
    elif kind == "expression_statement":
        _commonjs(ctx, mod, stmt, resolver, packages)
    elif kind == "ERROR":
        _recover(ctx, mod, stmt, resolver, packages, 0)


def _recover(ctx, mod: ModuleInfo, error: TsNode, resolver, packages, depth: int) -> None:
    """Keep declarations tree-sitter folded into an ERROR node after a syntax error."""
    for child in error.named_children:
        if child.type == "ERROR" and depth < 4:
            _recover(ctx, mod, child, resolver, packages, depth + 1)
        elif child.type == "function_expression" and child.child_by_field_name("name"):
            name = text(mod.sf, child.child_by_field_name("name"))
            if name not in mod.symbols:
                _symbol(ctx, mod, name, child, child, False, "function")
        elif child.type != "ERROR":
            _statement(ctx, mod, child, resolver, packages)


def _export(ctx, mod: ModuleInfo, stmt: TsNode, resolver: Resolver, packages: set[str]):
    sf = mod.sf
    is_default = any(c.type == "default" for c in stmt.children)
    decl = stmt.child_by_field_name("declaration")
    source = string_value(sf, stmt.child_by_field_name("source"))
    if decl is not None:
        if decl.type in {"lexical_declaration", "variable_declaration"}:
            names = _variables(ctx, mod, decl, resolver, packages, exported=True)
        else:
            names = _declaration(ctx, mod, decl, exported=True)
        for name in names:
            mod.exports["default" if is_default else name] = name
        return
    value = unwrap(stmt.child_by_field_name("value"))
    if is_default and value is not None:
        if value.type == "identifier":
            mod.exports["default"] = text(sf, value)
        else:
            mod.consts["default"] = value
            mod.exports["default"] = "default"
            if value.type in FUNCTION_TYPES | {"class"}:
                _symbol(ctx, mod, "default", stmt, value, True, "function")
            elif mod.owner_id != mod.file_id:  # a Vue SFC's `export default {…}`
                _component_options(ctx, mod, value)
        return
    target = None
    if source is not None:
        target, _ = _import(ctx, mod, resolver, source, SourceFile.line(stmt), packages)
    clause = next((c for c in stmt.named_children if c.type == "export_clause"), None)
    if clause is None:
        if source is not None and target is not None:
            ns = next((c for c in stmt.named_children if c.type == "namespace_export"), None)
            if ns is None:
                mod.star_reexports.append(target)
        return
    for spec_node in clause.named_children:
        name = spec_node.child_by_field_name("name")
        alias = spec_node.child_by_field_name("alias") or name
        if name is None:
            continue
        if source is None:
            mod.exports[text(sf, alias)] = text(sf, name)
        elif target is not None:
            mod.reexports[text(sf, alias)] = (target, text(sf, name))


def _variables(ctx, mod, decl: TsNode, resolver, packages, exported: bool) -> list[str]:
    sf, names = mod.sf, []
    for declarator in decl.named_children:
        if declarator.type != "variable_declarator":
            continue
        target = declarator.child_by_field_name("name")
        value = unwrap(declarator.child_by_field_name("value"))
        if target is None or value is None:
            continue
        if (
            value.type == "call_expression"
            and text(sf, value.child_by_field_name("function")) == "require"
        ):
            spec = string_value(sf, (arguments(value) or [None])[0])
            if spec is not None:
                _require(ctx, mod, target, spec, resolver, packages, SourceFile.line(value))
                continue
        if target.type == "object_pattern" and text(sf, value).replace(" ", "") in _ENV_OBJECTS:
            _env_names(mod, target)
        if target.type != "identifier":
            continue
        name = text(sf, target)
        names.append(name)
        mod.consts[name] = value
        if value.type in FUNCTION_TYPES:
            _symbol(ctx, mod, name, declarator, declarator, exported, "function")
            _inner_handlers(ctx, mod, name, value)
        elif value.type == "class":
            _symbol(ctx, mod, name, declarator, declarator, exported, "class")
        elif value.type == "object":
            _symbol(ctx, mod, name, declarator, declarator, exported, "object")
            _object_members(ctx, mod, name, value, exported, depth=0)
        elif mod.sf.virtual_of is not None:
            continue  # Vue script setup: state belongs to the component symbol
        elif value.type in {"call_expression", "new_expression"} or exported:
            _symbol(ctx, mod, name, declarator, declarator, exported, "variable")
            for arg in arguments(value) if value.type == "call_expression" else []:
                if arg.type == "object":
                    _object_members(ctx, mod, name, arg, exported, depth=1)
    return names


def _env_names(mod: ModuleInfo, pattern: TsNode) -> None:
    for prop in pattern.named_children:
        if prop.type == "shorthand_property_identifier_pattern":
            mod.env_names[text(mod.sf, prop)] = text(mod.sf, prop)
        elif prop.type == "pair_pattern":
            key, value = prop.child_by_field_name("key"), prop.child_by_field_name("value")
            if key is not None and value is not None and value.type == "identifier":
                mod.env_names[text(mod.sf, value)] = text(mod.sf, key)


def _require(ctx, mod, target: TsNode, spec, resolver, packages, line: int) -> None:
    sf = mod.sf
    file, package = _import(ctx, mod, resolver, spec, line, packages)
    if target.type == "identifier":
        mod.imports[text(sf, target)] = Binding(spec, file, "*", package, line, cjs=True)
    elif target.type == "object_pattern":
        for prop in target.named_children:
            if prop.type == "shorthand_property_identifier_pattern":
                mod.imports[text(sf, prop)] = Binding(spec, file, text(sf, prop), package, line)
            elif prop.type == "pair_pattern":
                key, value = prop.child_by_field_name("key"), prop.child_by_field_name("value")
                if key is not None and value is not None and value.type == "identifier":
                    mod.imports[text(sf, value)] = Binding(spec, file, text(sf, key), package, line)


def _required_spec(sf: SourceFile, node: TsNode) -> str | None:
    """`require('./x')` → './x'."""
    if (
        node.type == "call_expression"
        and text(sf, node.child_by_field_name("function")) == "require"
    ):
        return string_value(sf, (arguments(node) or [None])[0])
    return None


def _commonjs(ctx, mod: ModuleInfo, stmt: TsNode, resolver=None, packages=None) -> None:
    """`module.exports = x | {a, b} | expr`, `exports.a = ...`, `exports.a = require(spec)`."""
    sf = mod.sf
    expr = stmt.named_children[0] if stmt.named_children else None
    if expr is None or expr.type != "assignment_expression":
        return
    left = dotted_name(sf, expr.child_by_field_name("left"))
    right = unwrap(expr.child_by_field_name("right"))
    if left is None or right is None:
        return
    spec = _required_spec(sf, right)
    if spec is not None and resolver is not None and left.startswith(("exports.", "module.")):
        name = "default" if left == "module.exports" else left.rsplit(".", 1)[1]
        if left == "module.exports" or left.count(".") <= 2:
            line = SourceFile.line(right)
            file, package = _import(ctx, mod, resolver, spec, line, packages)
            local = f"\0reexport:{name}"
            mod.imports[local] = Binding(spec, file, "*", package, line, cjs=True)
            mod.exports[name] = local
        return
    if left == "module.exports":
        if right.type == "identifier":
            mod.exports["default"] = text(sf, right)
        elif right.type in FUNCTION_TYPES | {
            "call_expression",
            "new_expression",
            "member_expression",
        }:
            mod.consts.setdefault("default", right)  # `module.exports = Router().use(...)`
            mod.exports["default"] = "default"
            if right.type in FUNCTION_TYPES and "default" not in mod.symbols:
                _symbol(ctx, mod, "default", stmt, right, True, "function")
        elif right.type == "object":
            for child in right.named_children:
                if child.type == "shorthand_property_identifier":
                    mod.exports[text(sf, child)] = text(sf, child)
                elif child.type == "pair":
                    key, value = (
                        child.child_by_field_name("key"),
                        child.child_by_field_name("value"),
                    )
                    if key is not None and value is not None and value.type == "identifier":
                        mod.exports[text(sf, key)] = text(sf, value)
    elif left.startswith(("exports.", "module.exports.")) and left.count(".") <= 2:
        name = left.rsplit(".", 1)[1]
        if right.type == "identifier":
            mod.exports[name] = text(sf, right)
        elif right.type in FUNCTION_TYPES:
            mod.consts[name] = right
            _symbol(ctx, mod, name, stmt, stmt, True, "function")
            mod.exports[name] = name
        else:  # `module.exports.routes = { … }`, `exports.base = '/api'`: the value itself
            mod.consts[name] = right
            mod.exports[name] = name
