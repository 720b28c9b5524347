"""Family 10: arrow <-> `function`, and `await` <-> `.then` chains.

An arrow becomes a function expression (and an anonymous function expression an arrow)
only when its body reads none of this / arguments / super / new.target, which the two
kinds bind differently; a function expression nobody can `new`. In an async function,
`const v = await E; REST` becomes `return Promise.resolve(E).then(async (v) => { REST })`
(REST declares no `var` or function that would hoist differently), and a final
`return E.then((v) => BODY)` becomes `const v = await E; BODY` when no name clashes. The
two differ by a few microtask ticks, nothing a program observes through its requests.
"""

from __future__ import annotations

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Edit, Piece, Plan
from bench.metamorphic.families.base import Family, commit
from bench.metamorphic.syntax import Source, lexical_this, of_type, walk

ASYNC_FUNCS = (
    "function_declaration",
    "function_expression",
    "arrow_function",
    "method_definition",
    "function",
)


def _arrow_to_function(src: Source, plan: Plan, a: Node) -> bool:
    if lexical_this(src, a):
        return False
    params = a.child_by_field_name("parameters") or a.child_by_field_name("parameter")
    body = a.child_by_field_name("body")
    if params is None or body is None:
        return False
    head = "async function " if src.text(a).startswith("async") else "function "
    tparams = a.child_by_field_name("type_parameters")
    ret = a.child_by_field_name("return_type")
    parts: list = [head]
    if tparams is not None:
        parts.append(Piece(tparams.start_byte, tparams.end_byte))
    parts += (
        ["(", Piece(params.start_byte, params.end_byte), ")"]
        if params.type == "identifier"
        else [Piece(params.start_byte, params.end_byte)]
    )
    if ret is not None:
        parts.append(Piece(ret.start_byte, ret.end_byte))
    if body.type == "statement_block":
        parts += [" ", Piece(body.start_byte, body.end_byte)]
    else:
        parts += [" { return ", Piece(body.start_byte, body.end_byte), "; }"]
    wrap = a.parent.type == "expression_statement" or (
        a.parent.type in ("call_expression", "member_expression")
        and a.parent.child_by_field_name("function") in (a, None)
    )
    if wrap:
        parts = ["(", *parts, ")"]
    if commit(plan, [Edit(src.rel, a.start_byte, a.end_byte, parts)]):
        plan.site(src.rel, src.data, a.start_byte, "arrow -> function expression")
        return True
    return False


def _function_to_arrow(src: Source, plan: Plan, f: Node) -> None:
    if f.child_by_field_name("name") is not None or any(c.type == "*" for c in f.children):
        return
    body = f.child_by_field_name("body")
    params = f.child_by_field_name("parameters")
    if body is None or params is None or lexical_this(src, body):
        return
    holder = f.parent
    if holder.type == "variable_declarator":
        name = src.text(holder.child_by_field_name("name"))
        if f"new {name}".encode() in src.data or f"{name}.prototype".encode() in src.data:
            return
    elif holder.type not in ("arguments", "pair"):
        return
    head = "async " if src.text(f).startswith("async") else ""
    tparams = f.child_by_field_name("type_parameters")
    ret = f.child_by_field_name("return_type")
    parts: list = [head]
    if tparams is not None:
        parts.append(Piece(tparams.start_byte, tparams.end_byte))
    parts.append(Piece(params.start_byte, params.end_byte))
    if ret is not None:
        parts.append(Piece(ret.start_byte, ret.end_byte))
    parts += [" => ", Piece(body.start_byte, body.end_byte)]
    if commit(plan, [Edit(src.rel, f.start_byte, f.end_byte, parts)]):
        plan.site(src.rel, src.data, f.start_byte, "function expression -> arrow")


def _is_async_body(src: Source, block: Node) -> Node | None:
    fn = block.parent
    if fn is None or fn.type not in ASYNC_FUNCS or fn.child_by_field_name("body") != block:
        return None
    if any(c.type == "*" for c in fn.children):
        return None
    return (
        fn
        if src.text(fn).startswith("async") or any(c.type == "async" for c in fn.children)
        else None
    )


def _hoisting(rest: list[Node]) -> bool:
    """A `var` or function declaration (anywhere below: conservative) would hoist to a
    different function once REST moves into a callback."""
    return any(
        n.type in ("function_declaration", "variable_declaration") for st in rest for n in walk(st)
    )


def _await_to_then(src: Source, plan: Plan, block: Node) -> None:
    stmts = [c for c in block.named_children]
    for i, st in enumerate(stmts):
        if st.type != "lexical_declaration" or st.named_child_count != 1:
            continue
        d = st.named_children[0]
        name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
        if (
            name is None
            or value is None
            or name.type != "identifier"
            or value.type != "await_expression"
        ):
            continue
        rest = stmts[i + 1 :]
        if _hoisting(rest):
            plan.skip("declarations that hoist after the await")
            return
        expr = value.named_children[0]
        inner_async = any(n.type == "await_expression" for r in rest for n in walk(r))
        arrow = "async (" if inner_async else "("
        end = rest[-1].end_byte if rest else st.end_byte
        parts: list = [
            "return Promise.resolve(",
            Piece(expr.start_byte, expr.end_byte),
            f").then({arrow}{src.text(name)}) => {{",
        ]
        if rest:
            parts.append(Piece(st.end_byte, end))
        parts.append("\n});")
        if commit(plan, [Edit(src.rel, st.start_byte, end, parts)]):
            plan.site(src.rel, src.data, st.start_byte, "await -> .then chain")
        return


def _declared(block: Node, src: Source) -> set[str]:
    out = set()
    for st in block.named_children:
        if st.type in ("lexical_declaration", "variable_declaration"):
            for d in st.named_children:
                for n in (
                    walk(d.child_by_field_name("name")) if d.child_by_field_name("name") else []
                ):
                    if n.type in ("identifier", "shorthand_property_identifier_pattern"):
                        out.add(src.text(n))
    fn = block.parent
    params = fn.child_by_field_name("parameters") if fn is not None else None
    for n in walk(params) if params is not None else []:
        if n.type in ("identifier", "shorthand_property_identifier_pattern"):
            out.add(src.text(n))
    return out


def _then_to_await(src: Source, plan: Plan, block: Node) -> None:
    stmts = [c for c in block.named_children if c.type != "comment"]
    if not stmts or stmts[-1].type != "return_statement" or not stmts[-1].named_children:
        return
    ret = stmts[-1]
    call = ret.named_children[0]
    if call.type != "call_expression":
        return
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if (
        fn.type != "member_expression"
        or src.text(fn.child_by_field_name("property")) != "then"
        or args.named_child_count != 1
    ):
        return
    cb = args.named_children[0]
    if cb.type != "arrow_function" or src.text(cb).startswith("async"):
        return
    param = cb.child_by_field_name("parameter") or cb.child_by_field_name("parameters")
    names: list[str] = []
    if param is not None and param.type == "identifier":
        names = [src.text(param)]
    elif (
        param is not None
        and param.type == "formal_parameters"
        and all(
            p.type == "required_parameter"
            and p.child_by_field_name("pattern").type == "identifier"
            and p.child_by_field_name("type") is None
            for p in param.named_children
        )
        and param.named_child_count <= 1
    ):
        names = [src.text(p) for p in param.named_children]
    else:
        return
    body = cb.child_by_field_name("body")
    taken = _declared(block, src)
    if body.type == "statement_block":
        if (set(names) | _declared(body, src)) & taken:
            return
    elif set(names) & taken:
        return
    target = fn.child_by_field_name("object")
    head = f"const {names[0]} = await " if names else "await "
    parts: list = [head, Piece(target.start_byte, target.end_byte), ";\n"]
    if body.type == "statement_block":
        parts.append(Piece(body.start_byte + 1, body.end_byte - 1))
    else:
        parts += ["return ", Piece(body.start_byte, body.end_byte), ";"]
    if commit(plan, [Edit(src.rel, ret.start_byte, ret.end_byte, parts)]):
        plan.site(src.rel, src.data, ret.start_byte, ".then chain -> await")


def plan_js(src: Source, plan: Plan) -> None:
    for block in of_type(src.root, "statement_block"):
        if _is_async_body(src, block) is not None:
            before = len(plan.sites)
            _then_to_await(src, plan, block)
            if len(plan.sites) == before:
                _await_to_then(src, plan, block)
    arrows = of_type(src.root, "arrow_function")
    for i, a in enumerate(arrows):
        if i % 2 == 0:
            _arrow_to_function(src, plan, a)
    for f in of_type(src.root, "function_expression", "function"):
        _function_to_arrow(src, plan, f)


def plan(comp: Component, plan_: Plan) -> None:
    for src in comp.sources("js"):
        plan_js(src, plan_)


FAMILY = Family(10, "function_form", "async/await <-> .then, arrow <-> function", plan)
