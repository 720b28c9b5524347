"""Family 4: wrap route or mount registrations in a loop over a static list of objects.

A run of two or more consecutive registration statements on the same receiver
(`router.get('/a', h); router.post('/b', m, h2)`, `app.include_router(x, prefix='/v1')`)
becomes one loop over a list literal, in the same order. Arguments are evaluated at the
same point as before: plain data (names, member reads, literals, functions) goes in the
list; a list element whose arguments call something becomes a thunk called at
registration time. Django `urlpatterns = [path(...), ...]` becomes an empty list appended
to in a loop (`path`/`re_path` are pure constructors). No `await`/`yield`/`super` in
arguments (they cannot move into a thunk), no spread of unknown arguments.
"""

from __future__ import annotations

from tree_sitter import Node

from bench.metamorphic.component import SERVER_PACKAGES, Component
from bench.metamorphic.edits import Edit, Piece, Plan
from bench.metamorphic.families.base import Family, claim
from bench.metamorphic.syntax import Source, indent_of, of_type, py_expr, string_value

JS_METHODS = {"get", "post", "put", "patch", "delete", "del", "head", "options", "all", "use"}
PY_METHODS = {
    "include_router",
    "register_blueprint",
    "add_url_rule",
    "add_api_route",
    "mount",
    "add_route",
    "register",
}
JS_PURE = {
    "identifier", "member_expression", "string", "template_string", "number", "arrow_function",
    "function_expression", "function", "property_identifier", "true", "false", "null", "undefined",
    "string_fragment", "statement_block", "formal_parameters", "array", "object", "pair",
}  # fmt: skip
PY_PURE = {"identifier", "attribute", "string", "integer", "float", "true", "false", "none", "list", "tuple", "dictionary", "pair", "string_content", "string_start", "string_end", "lambda", "keyword_argument"}  # fmt: skip


def _js_pure(node: Node) -> bool:
    """No call, new, assignment or update in what is evaluated now (function bodies are not)."""
    if node.type in ("arrow_function", "function_expression", "function"):
        return True
    if not node.is_named:
        return True
    if node.type not in JS_PURE:
        return False
    return all(_js_pure(c) for c in node.children if c.is_named or c.type == "`")


def _js_forbidden(node: Node) -> bool:
    return bool(of_type(node, "await_expression", "yield_expression", "super"))


def _js_registration(src: Source, stmt: Node) -> tuple[str, str, Node] | None:
    if stmt.type != "expression_statement" or not stmt.named_children:
        return None
    call = stmt.named_children[0]
    if call.type != "call_expression":
        return None
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if fn is None or fn.type != "member_expression" or args is None or args.type != "arguments":
        return None
    obj, prop = fn.child_by_field_name("object"), fn.child_by_field_name("property")
    if obj.type not in ("identifier", "this", "member_expression") or any(
        n.type == "call_expression" for n in of_type(obj, "call_expression")
    ):
        return None
    method = src.text(prop)
    if method not in JS_METHODS or not args.named_children:
        return None
    return src.text(obj), method, args


def _js_runs(src: Source) -> list[list[tuple[Node, str, str, Node]]]:
    runs = []
    for block in [src.root, *of_type(src.root, "statement_block")]:
        run: list[tuple[Node, str, str, Node]] = []
        for stmt in [*block.named_children, None]:
            reg = _js_registration(src, stmt) if stmt is not None else None
            if reg is not None and (not run or run[0][1] == reg[0]):
                run.append((stmt, *reg))
                continue
            if len(run) >= 2:
                runs.append(run)
            run = [(stmt, *reg)] if reg is not None else []
    return runs


def plan_js(src: Source, plan: Plan, counter: list[int]) -> None:
    for run in _js_runs(src):
        if any(_js_forbidden(args) for *_, args in run):
            plan.skip("await/yield/super in registration arguments")
            continue
        if any(c.type == "comment" for *_, args in run for c in args.children):
            plan.skip("comment inside arguments")
            continue
        start, end = run[0][0].start_byte, run[-1][0].end_byte
        var = claim(plan, src, "kbRoute")
        if var is None or plan.taken(src.rel, start, end):
            continue
        receiver = run[0][1]
        methods = sorted({m for _, _, m, _ in run})
        by_path = all(string_value(src, args.named_children[0]) is not None for *_, args in run)
        thunk = not all(_js_pure(a) for *_, args in run for a in args.named_children)
        for_of = counter[0] % 2 == 0
        ind = indent_of(src, run[0][0])
        parts: list = [f"for (const {var} of [\n" if for_of else "[\n"]
        for _, _, method, args in run:
            items = list(args.named_children)
            parts.append(ind + "  { ")
            if len(methods) > 1:
                parts.append(f"method: '{method}', ")
            if by_path:
                parts += ["path: ", Piece(items[0].start_byte, items[0].end_byte), ", "]
                items = items[1:]
            parts.append(("handlers: " if by_path else "args: ") + ("() => [" if thunk else "["))
            for i, a in enumerate(items):
                parts += [", "] if i else []
                parts.append(Piece(a.start_byte, a.end_byte))
            parts.append("] },\n")
        call_fn = f"{receiver}[{var}.method]" if len(methods) > 1 else f"{receiver}.{methods[0]}"
        spread = f"...{var}.{'handlers' if by_path else 'args'}" + ("()" if thunk else "")
        call_args = f"{var}.path, {spread}" if by_path else spread
        if for_of:
            parts.append(f"{ind}]) {{\n{ind}  {call_fn}({call_args});\n{ind}}}")
        else:
            parts.append(f"{ind}].forEach(({var}) => {{\n{ind}  {call_fn}({call_args});\n{ind}}});")
        alt = len([p for p in parts if isinstance(p, str)]) - 1
        plan.edits.append(Edit(src.rel, start, end, parts, alt_parts=(alt,)))
        plan.site(
            src.rel,
            src.data,
            start,
            f"{len(run)} {receiver}.{'/'.join(methods)} registrations -> loop",
        )
        counter[0] += 1


# --- Python -------------------------------------------------------------------------------


def _py_pure(node: Node) -> bool:
    if node.type == "lambda":
        return True
    if not node.is_named:
        return True
    return node.type in PY_PURE and all(_py_pure(c) for c in node.children)


def _py_registration(src: Source, stmt: Node) -> tuple[str, Node] | None:
    call = py_expr(stmt)
    if call is None or call.type != "call":
        return None
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if fn is None or fn.type != "attribute" or args is None or args.type != "argument_list":
        return None
    if src.text(fn.child_by_field_name("attribute")) not in PY_METHODS or fn.child_by_field_name(
        "object"
    ).type not in ("identifier", "attribute"):
        return None
    if any(a.type in ("list_splat", "dictionary_splat", "comment") for a in args.children):
        return None
    return src.text(fn), args


def plan_py(src: Source, plan: Plan) -> None:
    blocks = [src.root, *of_type(src.root, "block")]
    for block in blocks:
        if block.parent is not None and block.parent.type == "class_definition":
            continue
        run: list[tuple[Node, str, Node]] = []
        for stmt in [*block.named_children, None]:
            reg = _py_registration(src, stmt) if stmt is not None else None
            if reg is not None and (not run or run[0][1] == reg[0]):
                run.append((stmt, *reg))
                continue
            if len(run) >= 2:
                _py_loop(src, plan, run)
            run = [(stmt, *reg)] if reg is not None else []
    _py_urlpatterns(src, plan)


def _py_args(src: Source, args: Node) -> tuple[list, list]:
    pos: list = []
    kw: list = []
    for a in args.named_children:
        if a.type == "keyword_argument":
            kw += [
                f'"{src.text(a.child_by_field_name("name"))}": ',
                Piece(
                    a.child_by_field_name("value").start_byte,
                    a.child_by_field_name("value").end_byte,
                ),
                ", ",
            ]
        else:
            pos += [Piece(a.start_byte, a.end_byte), ", "]
    return pos, kw


def _py_loop(src: Source, plan: Plan, run: list[tuple[Node, str, Node]]) -> None:
    start, end = run[0][0].start_byte, run[-1][0].end_byte
    a, k, t = (
        claim(plan, src, "_kb_args"),
        claim(plan, src, "_kb_kwargs"),
        claim(plan, src, "_kb_thunk"),
    )
    if a is None or k is None or t is None or plan.taken(src.rel, start, end):
        return
    thunk = not all(_py_pure(x) for _, _, args in run for x in args.named_children)
    ind = indent_of(src, run[0][0])
    fn = run[0][1]
    parts: list = [f"for {a}, {k} in [\n" if not thunk else f"for {t} in [\n"]
    for _, _, args in run:
        pos, kw = _py_args(src, args)
        parts += [ind + "    " + ("lambda: " if thunk else "") + "((", *pos, "), {", *kw, "}),\n"]
    call = f"{fn}(*{a}, **{k})"
    if thunk:
        parts.append(f"{ind}]:\n{ind}    {a}, {k} = {t}()\n{ind}    {call}")
    else:
        parts.append(f"{ind}]:\n{ind}    {call}")
    alt = len([p for p in parts if isinstance(p, str)]) - 1
    plan.edits.append(Edit(src.rel, start, end, parts, alt_parts=(alt,)))
    plan.site(src.rel, src.data, start, f"{len(run)} {fn} calls -> loop")


def _py_urlpatterns(src: Source, plan: Plan) -> None:
    for stmt in src.root.named_children:
        expr = py_expr(stmt)
        if (
            expr is None
            or expr.type != "assignment"
            or src.text(expr.child_by_field_name("left")) != "urlpatterns"
        ):
            continue
        lst = expr.child_by_field_name("right")
        if lst is None or lst.type != "list" or lst.named_child_count < 2:
            continue
        items = [c for c in lst.named_children if c.type != "comment"]
        ok = all(
            c.type == "call" and src.text(c.child_by_field_name("function")) in ("path", "re_path", "url")
            and all(a.type != "list_splat" and a.type != "dictionary_splat" for a in c.child_by_field_name("arguments").named_children)
            for c in items
        )  # fmt: skip
        if not ok:
            plan.skip("urlpatterns element that is not a path() call")
            continue
        f, a, k = (
            claim(plan, src, "_kb_path"),
            claim(plan, src, "_kb_args"),
            claim(plan, src, "_kb_kwargs"),
        )
        if None in (f, a, k) or plan.taken(src.rel, stmt.start_byte, stmt.end_byte):
            continue
        parts: list = [f"urlpatterns = []\nfor {f}, {a}, {k} in [\n"]
        for c in items:
            pos, kw = _py_args(src, c.child_by_field_name("arguments"))
            parts += [
                f"    ({src.text(c.child_by_field_name('function'))}, (",
                *pos,
                "), {",
                *kw,
                "}),\n",
            ]
        parts.append(f"]:\n    urlpatterns.append({f}(*{a}, **{k}))")
        alt = len([p for p in parts if isinstance(p, str)]) - 1
        plan.edits.append(Edit(src.rel, stmt.start_byte, stmt.end_byte, parts, alt_parts=(alt,)))
        plan.site(src.rel, src.data, stmt.start_byte, f"urlpatterns of {len(items)} -> loop")


def plan(comp: Component, plan_: Plan) -> None:
    counter = [0]
    server = bool(comp.dependencies() & SERVER_PACKAGES)
    for src in comp.sources("js") if server else []:
        plan_js(src, plan_, counter)
    for src in comp.sources("python"):
        plan_py(src, plan_)


FAMILY = Family(4, "loop", "wrap registrations in a loop over a static list", plan)
