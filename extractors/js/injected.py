"""Calls through injected class members: `this.articleService.findAll()` → CALLS_FN to
`ArticleService.findAll`.

A TypeScript class names its collaborators by type: constructor parameter properties
(`constructor(private readonly articleService: ArticleService)`, with or without
`@Inject(...)`) and typed fields (`private repo: UserRepository`). When the type is a class
defined in the component, a call `this.<member>.<method>(...)` inside the class is an edge
from the enclosing symbol (the handler method) to that class's method symbol, at the call's
line. NestJS controllers → services, services → repositories, Angular components → services.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.js.common import js_files, lookup_symbol, modules, text
from extractors.js.index import call_names
from extractors.js.model import ModuleInfo
from extractors.shared import CodeSymbols, JsSymbols
from extractors.source import SourceFile

NAME = "injected"
PROVIDES = (CodeSymbols,)
REQUIRES = (JsSymbols,)
_CLASSES = {"class_declaration", "abstract_class_declaration", "class"}


def extract(ctx: ComponentContext) -> None:
    mods = modules(ctx)
    existing = {(e.src, e.dst) for e in ctx.facts.edges if e.type == "CALLS_FN"}
    for sf in js_files(ctx):
        mod = mods.get(sf.rel)
        if mod is None or sf.language not in {"typescript", "tsx"} or b"this." not in sf.data:
            continue
        classes = [(cls, _members(ctx, mod, cls)) for cls in _classes(mod.sf.tree.root_node)]
        classes = [(cls, members) for cls, members in classes if members]
        if not classes:
            continue
        for call, _fn, dotted in call_names(ctx, sf):
            if dotted is None or not dotted.startswith("this.") or dotted.count(".") != 2:
                continue
            _, member, method = dotted.split(".")
            for cls, members in classes:
                if cls.start_byte <= call.start_byte < cls.end_byte and member in members:
                    target = members[member]
                    callee = _method(ctx, target, method)
                    caller = mod.enclosing(call.start_byte)
                    if callee and (caller, callee) not in existing:
                        existing.add((caller, callee))
                        ctx.add_edge(
                            caller, callee, "CALLS_FN", sf.rel, SourceFile.line(call),
                            via="injected", member=member,
                        )  # fmt: skip


def _classes(root: TsNode):
    """Top-level classes, exported or not (decorated ones sit inside export statements)."""
    for stmt in root.named_children:
        node = stmt.child_by_field_name("declaration") if stmt.type == "export_statement" else stmt
        if node is not None and node.type in _CLASSES:
            yield node


def _members(ctx, mod: ModuleInfo, cls: TsNode) -> dict[str, str]:
    """member name -> class symbol id of its declared type, for types defined here."""
    sf = mod.sf
    out: dict[str, str] = {}
    body = cls.child_by_field_name("body")
    for member in body.named_children if body is not None else []:
        typed: list[tuple[TsNode, TsNode]] = []
        if (
            member.type == "method_definition"
            and text(sf, member.child_by_field_name("name")) == "constructor"
        ):
            params = member.child_by_field_name("parameters")
            for param in params.named_children if params is not None else []:
                modifiers = {c.type for c in param.children}
                if "accessibility_modifier" in modifiers or "readonly" in modifiers:
                    name, kind = (
                        param.child_by_field_name("pattern"),
                        param.child_by_field_name("type"),
                    )
                    if name is not None and kind is not None:
                        typed.append((name, kind))
        elif member.type in {"public_field_definition", "field_definition"}:
            name, kind = member.child_by_field_name("name"), member.child_by_field_name("type")
            if name is not None and kind is not None:
                typed.append((name, kind))
        for name, kind in typed:
            type_name = text(sf, kind).lstrip(":").strip()
            if all(part.isidentifier() for part in type_name.split(".")):  # `ns.Service` too
                symbol = lookup_symbol(ctx, mod.rel, type_name)
                if symbol is not None:
                    out[text(sf, name)] = symbol
    return out


def _method(ctx, class_symbol: str, method: str) -> str | None:
    qualifier = class_symbol.split(":symbol:", 1)[1]
    rel, _, cls = qualifier.partition("#")
    mod = modules(ctx).get(rel)
    return mod.symbols.get(f"{cls}.{method}") if mod is not None else None
