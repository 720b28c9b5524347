"""Python: code_file, symbol (functions, classes, methods), DEFINES, IMPORTS.

Modules are named from their folder (`app/services/orders.py` → `app.services.orders`,
rooted at the first folder up without `__init__.py`, and also at the component root), so
`from app.services import orders as order_service`, `from . import store` and
`import app.db` resolve to files of the component. Anything else is a package (kept on
the code_file as attr `packages`); a relative import that finds no file is `unresolved`.

Node qualifiers (as in typescript.py): code_file = rel path; symbol = `<rel>#<dotted>`
(`orders.py#OrderService.get`). Nested functions belong to their enclosing symbol.
CALLS_FN is `python/calls.py`'s (the engine's evaluator).

Provides `ctx.shared.py` (PyModules, read by the engine and infra.contentful):
- `modules`: {rel: PyModule} — bindings (imports), symbols, top-level string
  constants (`consts`), `enclosing(byte)` → the symbol (or code_file) id at a byte.
- `resolver.by_name` / `resolver.absolute(mod, spec)` — the file of a dotted module name
  and of a (relative) import spec.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.lang.files import adapter_of
from extractors.python.model import Binding, PyModule, Resolver, module_names, root_package_of
from extractors.shared import CodeSymbols, PyModules
from extractors.source import SourceFile

NAME = "python"
PROVIDES = (PyModules, CodeSymbols)
REQUIRES = ()


def text(sf: SourceFile, node: TsNode | None) -> str:
    return sf.node_text(node) if node is not None else ""


def string_value(sf: SourceFile, node: TsNode | None) -> str | None:
    """A plain string literal's value (None for f-strings with interpolation and others)."""
    if node is None or node.type != "string":
        return None
    if any(c.type == "interpolation" for c in node.children):
        return None
    return "".join(text(sf, c) for c in node.children if c.type == "string_content")


def call_args(sf: SourceFile, call: TsNode) -> tuple[list[TsNode], dict[str, TsNode]]:
    """A call's positional argument nodes and keyword name → value node (comments skipped)."""
    args = call.child_by_field_name("arguments")
    positional, named = [], {}
    for arg in args.named_children if args is not None else []:
        if arg.type == "keyword_argument":
            named[text(sf, arg.child_by_field_name("name"))] = arg.child_by_field_name("value")
        elif arg.type != "comment":
            positional.append(arg)
    return positional, named


def extract(ctx: ComponentContext) -> None:
    files = [f for f in ctx.by_language("python")]
    names = module_names([f.rel for f in files], root_package_of(ctx.root))
    by_rel = {rel: name for name, rel in reversed(list(names.items()))}
    mods: dict[str, PyModule] = {}
    for sf in sorted(files, key=lambda f: f.rel):
        mods[sf.rel] = PyModule(sf.rel, sf, by_rel.get(sf.rel, sf.rel[:-3].replace("/", ".")),
                                ctx.node_id("code_file", sf.rel))  # fmt: skip
    resolver = Resolver(mods, names)
    ctx.shared.py = PyModules(mods, resolver)
    for mod in mods.values():
        root = mod.sf.tree.root_node
        if root.has_error:
            ctx.problem("warning", mod.rel, _first_error_line(root), "syntax-error",
                        "Python syntax error: facts after it may be missing")  # fmt: skip
        packages: set[str] = set()
        _imports(ctx, resolver, mod, root, packages)
        for stmt in root.named_children:
            _top_level(ctx, mod, stmt)
        mod._ranges.sort(key=lambda r: (r[0], -r[1]))
        ctx.add_node("code_file", mod.rel, mod.rel, mod.rel, 1, SourceFile.end_line(root),
                     language="python", module=mod.modname, packages=sorted(packages))  # fmt: skip
        for target, line in sorted(
            {
                b.target: b.line for b in mod.bindings.values() if b.target and b.target != mod.rel
            }.items()
        ):
            ctx.add_edge(mod.file_id, ctx.node_id("code_file", target), "IMPORTS", mod.rel, line)


def _first_error_line(root: TsNode) -> int:
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR" or node.is_missing:
            return SourceFile.line(node)
        stack.extend(
            reversed([c for c in node.children if c.has_error or c.is_missing or c.type == "ERROR"])
        )
    return 1


def _imports(ctx, resolver: Resolver, mod: PyModule, root: TsNode, packages: set[str]) -> None:
    sf = mod.sf
    for node in adapter_of(ctx, sf).imports():
        line = SourceFile.line(node)
        if node.type == "import_statement":
            for item in node.children_by_field_name("name"):
                dotted = item.child_by_field_name("name") if item.type == "aliased_import" else item
                alias = item.child_by_field_name("alias") if item.type == "aliased_import" else None
                spec = text(sf, dotted)
                target = resolver.by_name.get(spec)
                if target is None:
                    _missing(ctx, resolver, mod, node, spec, packages)
                    continue
                local = text(sf, alias) if alias is not None else spec
                mod.bindings[local] = Binding(spec, target, None, line)
                if alias is None:  # `import app.db` also makes `app` usable
                    for i in range(1, spec.count(".") + 1):
                        prefix = ".".join(spec.split(".")[:i])
                        if prefix in resolver.by_name:
                            mod.bindings.setdefault(
                                prefix, Binding(prefix, resolver.by_name[prefix], None, line)
                            )
            continue
        mod_node = node.child_by_field_name("module_name")
        spec = text(sf, mod_node)
        absolute = resolver.absolute(mod, spec)
        base = resolver.by_name.get(absolute or "")
        if base is None:
            if spec.startswith("."):
                ctx.unresolved(
                    mod.rel,
                    line,
                    "import",
                    text(sf, node),
                    f"relative import {spec} matches no file of the component",
                )
            else:
                _missing(ctx, resolver, mod, node, spec, packages)
            continue
        for item in node.children_by_field_name("name"):
            dotted = item.child_by_field_name("name") if item.type == "aliased_import" else item
            alias = item.child_by_field_name("alias") if item.type == "aliased_import" else None
            name = text(sf, dotted)
            local = text(sf, alias) if alias is not None else name
            sub = resolver.by_name.get(f"{absolute}.{name}")
            mod.bindings[local] = (
                Binding(spec, sub, None, line) if sub else Binding(spec, base, name, line)
            )
        if any(c.type == "wildcard_import" for c in node.children):
            mod.bindings[f"*{base}"] = Binding(spec, base, None, line)


def _missing(ctx, resolver: Resolver, mod: PyModule, node: TsNode, spec: str, packages) -> None:
    """A module of a local package that has no file is unresolved; anything else a package."""
    top = spec.split(".")[0]
    if top in resolver.by_name and top != spec:
        reason = f"module {spec} not found in the component (package {top} is local)"
        ctx.unresolved(mod.rel, SourceFile.line(node), "import", text(mod.sf, node), reason)
    else:
        packages.add(top)


def _definition(node: TsNode) -> tuple[TsNode, TsNode]:
    """(definition, span): the def/class node and what its line range covers."""
    if node.type == "decorated_definition":
        inner = node.child_by_field_name("definition")
        return (inner, node) if inner is not None else (node, node)
    return node, node


def _add_symbol(ctx, mod: PyModule, name: str, defn: TsNode, span: TsNode, kind: str) -> str:
    decorators = [text(mod.sf, d)[1:].split("(")[0] for d in span.children if d.type == "decorator"]
    node_id = ctx.add_node(
        "symbol", f"{mod.rel}#{name}", name, mod.rel, SourceFile.line(defn),
        SourceFile.end_line(span), exported=not name.split(".")[-1].startswith("_"),
        symbol_kind=kind, decorators=decorators,
        is_async=any(c.type == "async" for c in defn.children),
    )  # fmt: skip
    ctx.add_edge(mod.file_id, node_id, "DEFINES", mod.rel, SourceFile.line(defn))
    mod.symbols[name] = node_id
    mod._ranges.append((span.start_byte, span.end_byte, node_id))
    return node_id


def _top_level(ctx, mod: PyModule, stmt: TsNode) -> None:
    sf = mod.sf
    defn, span = _definition(stmt)
    if defn.type == "function_definition":
        _add_symbol(ctx, mod, text(sf, defn.child_by_field_name("name")), defn, span, "function")
    elif defn.type == "class_definition":
        cls = text(sf, defn.child_by_field_name("name"))
        _add_symbol(ctx, mod, cls, defn, span, "class")
        body = defn.child_by_field_name("body")
        for member in body.named_children if body is not None else []:
            mdef, mspan = _definition(member)
            if mdef.type == "function_definition":
                name = f"{cls}.{text(sf, mdef.child_by_field_name('name'))}"
                _add_symbol(ctx, mod, name, mdef, mspan, "method")
    elif stmt.type in {"expression_statement", "assignment"}:
        assign = stmt.named_children[0] if stmt.type == "expression_statement" else stmt
        if assign.type == "assignment":
            left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
            value = string_value(sf, right)
            if left is not None and left.type == "identifier" and value is not None:
                mod.consts[text(sf, left)] = value
    elif stmt.type in {"if_statement", "try_statement"}:  # `if TYPE_CHECKING:` / try-import
        for child in stmt.named_children:
            if child.type == "block":
                for inner in child.named_children:
                    _top_level(ctx, mod, inner)
