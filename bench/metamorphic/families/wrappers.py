"""Family 7: turn a wrapper function into a method (an object literal's, a class's static
one) or into a hook that returns it (`const request = useKbRequest()`).

A wrapper is a top-level function used elsewhere in its file. It must not read `this`
(or, for an arrow, `arguments`: the method's would differ), be reassigned, or have its
name rebound in an inner scope. Function declarations are hoisted, so their object or
class goes right after the imports (creating methods runs no code); `const` functions keep
their place. An exported wrapper stays exported as the member. The hook form is used only
when every use is a call (a fresh closure per caller must not be compared); each calling
function gets `const name = useKbName();` as its first statement. Python: a class with a
`@staticmethod`, or a factory returning the function, lines re-indented except inside
multi-line strings.
"""

from __future__ import annotations

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Edit, Piece, Plan
from bench.metamorphic.families.base import Family, claim, commit, js_insert_point
from bench.metamorphic.families.wrappers_py import plan_py
from bench.metamorphic.syntax import (
    Source,
    enclosing,
    is_js_binding,
    lexical_this,
    module_kind,
    single_const,
)

JS_FUNCS = {
    "function_declaration",
    "function_expression",
    "arrow_function",
    "method_definition",
    "function",
    "generator_function_declaration",
}


def _js_wrapper(src: Source, stmt: Node) -> tuple[str, Node, Node, bool] | None:
    """(name, declaration statement, function node, exported) of a top-level function."""
    exported = stmt.type == "export_statement"
    decl = stmt.child_by_field_name("declaration") if exported else stmt
    if decl is None or any(c.type == "default" for c in stmt.children):
        return None
    if decl.type == "function_declaration":
        return src.text(decl.child_by_field_name("name")), stmt, decl, exported
    found = single_const(src, decl)
    if found is not None and found[1].type in ("arrow_function", "function_expression", "function"):
        return src.text(found[0]), stmt, found[1], exported
    return None


def _method_text(src: Source, name: str, fn: Node) -> list:
    """`name(params) { body }` parts for a function declaration or expression."""
    params = fn.child_by_field_name("parameters")
    prefix = "async " if src.text(fn).startswith("async") else ""
    star = "*" if any(c.type == "*" for c in fn.children) else ""
    start = (fn.child_by_field_name("type_parameters") or params).start_byte
    return [f"{prefix}{star}{name}", Piece(start, fn.end_byte)]


def _is_own_name(tok: Node) -> bool:
    p = tok.parent
    return (
        p.type in ("function_declaration", "variable_declarator")
        and p.child_by_field_name("name") == tok
    )


def _refs(src: Source, name: str, stmt: Node) -> list[Node] | None:
    """Uses of the wrapper outside its declaration; None when one cannot be rewritten."""
    out = []
    for tok in src.name_tokens(name):
        if stmt.start_byte <= tok.start_byte < stmt.end_byte:
            continue
        if (
            is_js_binding(tok)
            or tok.type in ("type_identifier", "shorthand_property_identifier_pattern")
            or tok.parent.type == "export_specifier"
        ):
            return None
        if (
            tok.parent.type in ("assignment_expression", "augmented_assignment_expression")
            and tok.parent.child_by_field_name("left") == tok
        ):
            return None
        out.append(tok)
    return out


def _caller(tok: Node) -> Node | None:
    return enclosing(tok, JS_FUNCS)


def plan_js(src: Source, plan: Plan, counter: list[int]) -> None:
    strict = module_kind(src) == "esm" or b"use strict" in src.data[:200]
    for stmt in src.root.named_children:
        found = _js_wrapper(src, stmt)
        if found is None:
            continue
        name, stmt, fn, exported = found
        inner = [
            t
            for t in src.name_tokens(name)
            if stmt.start_byte <= t.start_byte < stmt.end_byte and not _is_own_name(t)
        ]
        refs = _refs(src, name, stmt)
        if refs is None or inner:
            plan.skip("name rebound, re-exported or used recursively")
            continue
        if not refs:
            continue
        if lexical_this(src, fn.child_by_field_name("body") or fn) or (
            fn.type == "arrow_function" and lexical_this(src, fn)
        ):
            plan.skip("reads this/arguments")
            continue
        calls_only = all(
            t.parent.type == "call_expression" and t.parent.child_by_field_name("function") == t
            for t in refs
        )
        variant = counter[0] % 3
        if variant == 2 and (not calls_only or exported):
            variant = 0
        if variant == 1 and not strict:
            variant = 0
        counter[0] += 1
        if any(plan.taken(src.rel, t.start_byte, t.end_byte) for t in refs) or plan.taken(
            src.rel, stmt.start_byte, stmt.end_byte
        ):
            continue
        if variant == 2:
            _hook(src, plan, name, stmt, fn, refs)
            continue
        holder = claim(plan, src, "kbApi" if variant == 0 else "KbApi")
        if holder is None:
            continue
        member = f"{holder}.{name}"
        if fn.type == "arrow_function":
            body = (
                [f"{name}: ", Piece(fn.start_byte, fn.end_byte)]
                if variant == 0
                else [f"static {name} = ", Piece(fn.start_byte, fn.end_byte), ";"]
            )
        else:
            body = (
                _method_text(src, name, fn)
                if variant == 0
                else ["static ", *_method_text(src, name, fn)]
            )
        decl = (
            [f"const {holder} = {{\n  ", *body, "\n};\n"]
            if variant == 0
            else [f"class {holder} {{\n  ", *body, "\n}\n"]
        )
        keep_export = f"export const {name} = {member};\n" if exported else ""
        edits = []
        if stmt.type == "function_declaration" or (
            exported and stmt.child_by_field_name("declaration").type == "function_declaration"
        ):
            at = js_insert_point(src)
            edits.append(Edit(src.rel, at, at, [("\n" if at else ""), *decl]))
            edits.append(Edit(src.rel, stmt.start_byte, stmt.end_byte, [keep_export]))
        else:
            edits.append(Edit(src.rel, stmt.start_byte, stmt.end_byte, [*decl, keep_export]))
        for t in refs:
            edits.append(
                Edit(
                    src.rel,
                    t.start_byte,
                    t.end_byte,
                    [member if t.type != "shorthand_property_identifier" else f"{name}: {member}"],
                )
            )
        if not commit(plan, edits):
            plan.skip("collides with another rewrite")
            continue
        plan.site(
            src.rel,
            src.data,
            stmt.start_byte,
            f"{name} -> {'object literal' if variant == 0 else 'static class'} member {member}",
        )


def _hook(src: Source, plan: Plan, name: str, stmt: Node, fn: Node, refs: list[Node]) -> None:
    hook = claim(plan, src, "useKb" + name[:1].upper() + name[1:])
    if hook is None:
        return
    # a declaration becomes a named function expression: same name, same body
    parts = [f"function {hook}() {{\n  return ", Piece(fn.start_byte, fn.end_byte), ";\n}"]
    if stmt.type == "export_statement":
        return
    edits = [Edit(src.rel, stmt.start_byte, stmt.end_byte, parts)]
    done: set[int] = set()
    for t in refs:
        caller = _caller(t)
        if caller is None:
            edits.append(Edit(src.rel, t.start_byte, t.end_byte, [f"{hook}()"]))
            continue
        if caller.id in done:
            continue
        done.add(caller.id)
        body = caller.child_by_field_name("body")
        if body is None:
            continue
        if body.type == "statement_block":
            edits.append(
                Edit(
                    src.rel,
                    body.start_byte + 1,
                    body.start_byte + 1,
                    [f" const {name} = {hook}();"],
                )
            )
        else:
            edits.append(
                Edit(
                    src.rel,
                    body.start_byte,
                    body.start_byte,
                    [f"{{ const {name} = {hook}(); return ("],
                )
            )
            edits.append(Edit(src.rel, body.end_byte, body.end_byte, ["); }"]))
    if not commit(plan, edits):
        plan.skip("collides with another rewrite")
        return
    plan.site(src.rel, src.data, stmt.start_byte, f"{name} -> returned by hook {hook}()")


def plan(comp: Component, plan_: Plan) -> None:
    counter = [0]
    for src in comp.sources("js"):
        plan_js(src, plan_, counter)
    for src in comp.sources("python"):
        plan_py(comp, src, plan_, [0])


FAMILY = Family(
    7, "wrapper_form", "turn a wrapper into a method of an object or class, or a hook", plan
)
