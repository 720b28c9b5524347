"""Family 12: a method or a path chosen by a ternary over two literals.

This family adds behaviour on purpose: with the condition false (an env var nothing sets,
`KB_META_ALT`) the program does what it did; with it true, the other literal. Both
alternatives must appear in the facts, so the expected facts are the union: each site
records an `Alternative` (original line range, method or path, old and new literal) and
the scorer adds the alternative fact beside the original one. Sites alternate between a
method choice (`router[C ? 'put' : 'post'](…)`, `method: C ? 'PUT' : 'POST'`,
`@getattr(router, "put" if C else "post")(…)`) and a path choice (`C ? '/x/alt' : '/x'`).
"""

from __future__ import annotations

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Alternative, Edit, Plan
from bench.metamorphic.families.base import Family, commit, py_os_name
from bench.metamorphic.families.chains import _receivers
from bench.metamorphic.families.client_property import JS_CLIENTS
from bench.metamorphic.syntax import Source, of_type, string_value

ALT_METHOD = {
    "get": "post",
    "post": "put",
    "put": "patch",
    "patch": "put",
    "delete": "post",
    "head": "get",
    "options": "get",
}
ENV = "KB_META_ALT"


def alt_path(path: str) -> str | None:
    if (
        not path
        or path == "/"
        or any(c in path for c in "?#\\")
        or not (path[:1].isalnum() or path[:1] == "/")
    ):
        return None
    return path + ("alt/" if path.endswith("/") else "/alt")


def _js_cond(comp: Component, src: Source) -> str:
    expr = comp.env_expression(ENV)
    if expr is None or (
        expr.startswith("import.meta")
        and src.language == "javascript"
        and b"import " not in src.data
    ):
        return f"globalThis.{ENV}"
    return expr


def _choose_path(plan: Plan, src: Source, stmt: Node, lit: Node, path: str, choice) -> bool:
    """Replace the path literal by `choice(new_literal, old_literal)` and record it."""
    new = alt_path(path)
    if new is None:
        return False
    q = src.text(lit)[0]
    if not commit(
        plan, [Edit(src.rel, lit.start_byte, lit.end_byte, [choice(f"{q}{new}{q}", src.text(lit))])]
    ):
        return False
    _record(plan, src, stmt, lit, "path", path, new)
    plan.site(src.rel, src.data, stmt.start_byte, f"path {path} -> ternary")
    return True


def _record(plan: Plan, src: Source, stmt: Node, lit: Node, what: str, old: str, new: str) -> None:
    plan.alternatives.append(Alternative(src.rel, src.line(stmt), what, old, new, src.line(lit)))


def _js_site(comp: Component, src: Source, plan: Plan, call: Node, k: int, cond: str) -> bool:
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    prop = fn.child_by_field_name("property")
    method = src.text(prop)
    first = args.named_children[0] if args.named_children else None
    path = string_value(src, first) if first is not None else None
    stmt = call
    if (
        k % 2 == 0
        and method in ALT_METHOD
        and fn.child_by_field_name("object").type == "identifier"
    ):
        alt = ALT_METHOD[method]
        edit = Edit(
            src.rel, prop.start_byte - 1, prop.end_byte, [f"[{cond} ? '{alt}' : '{method}']"]
        )
        if src.data[prop.start_byte - 1 : prop.start_byte] == b"." and commit(plan, [edit]):
            _record(plan, src, stmt, prop, "method", method.upper(), alt.upper())
            plan.site(src.rel, src.data, call.start_byte, f"{method} -> ternary {alt}/{method}")
            return True
    if path is not None and first.type == "string":
        return _choose_path(
            plan, src, stmt, first, path, lambda new, old: f"({cond} ? {new} : {old})"
        )
    return False


def _fetch_method(src: Source, plan: Plan, pair: Node, cond: str) -> bool:
    value = pair.child_by_field_name("value")
    lit = string_value(src, value) if value is not None else None
    if lit is None or lit.lower() not in ALT_METHOD:
        return False
    call = pair.parent.parent.parent if pair.parent.parent is not None else None
    if call is None or call.type != "call_expression":
        return False
    alt = ALT_METHOD[lit.lower()].upper()
    q = src.text(value)[0]
    if commit(
        plan,
        [
            Edit(
                src.rel,
                value.start_byte,
                value.end_byte,
                [f"{cond} ? {q}{alt}{q} : {src.text(value)}"],
            )
        ],
    ):
        _record(plan, src, call, value, "method", lit.upper(), alt)
        plan.site(src.rel, src.data, value.start_byte, f"method {lit} -> ternary")
        return True
    return False


def plan_js(comp: Component, src: Source, plan: Plan, counter: list[int]) -> None:
    receivers = set(_receivers(src))
    clients = {
        src.text(n)
        for stmt in src.root.named_children
        if stmt.type == "import_statement"
        and src.text(stmt.child_by_field_name("source"))[1:-1] in JS_CLIENTS
        for n in of_type(stmt, "identifier")
    }
    cond = _js_cond(comp, src)
    for call in of_type(src.root, "call_expression"):
        fn = call.child_by_field_name("function")
        if fn is None:
            continue
        if fn.type == "member_expression":
            obj = fn.child_by_field_name("object")
            registers = (
                src.text(obj) in receivers | clients
                and src.text(fn.child_by_field_name("property")) in ALT_METHOD
            )
            if registers and _js_site(comp, src, plan, call, counter[0], cond):
                counter[0] += 1
        elif src.text(fn) == "fetch":
            args = call.child_by_field_name("arguments")
            done = False
            if (
                counter[0] % 2 == 0
                and args.named_child_count >= 2
                and args.named_children[1].type == "object"
            ):
                for pair in args.named_children[1].named_children:
                    if (
                        pair.type == "pair"
                        and src.text(pair.child_by_field_name("key")) == "method"
                    ):
                        done = _fetch_method(src, plan, pair, cond)
            if not done and args.named_children and args.named_children[0].type == "string":
                first = args.named_children[0]
                path = string_value(src, first)
                done = path is not None and _choose_path(
                    plan, src, call, first, path, lambda new, old: f"({cond} ? {new} : {old})"
                )
            counter[0] += done


PY_VERBS = {"get", "post", "put", "patch", "delete", "head", "options"}


def plan_py(src: Source, plan: Plan, counter: list[int]) -> None:
    for dec in of_type(src.root, "decorator"):
        call = dec.named_children[0] if dec.named_children else None
        if call is None or call.type != "call":
            continue
        fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
        if fn.type != "attribute" or not args.named_children:
            continue
        method = src.text(fn.child_by_field_name("attribute"))
        first = args.named_children[0]
        if method not in PY_VERBS and method != "route":
            continue
        os_name = py_os_name(src, plan)
        if os_name is None:
            return
        cond = f'{os_name}.getenv("{ENV}")'
        if counter[0] % 2 == 0 and method in PY_VERBS:
            alt = ALT_METHOD[method]
            obj = src.text(fn.child_by_field_name("object"))
            if commit(
                plan,
                [
                    Edit(
                        src.rel,
                        fn.start_byte,
                        fn.end_byte,
                        [f'getattr({obj}, "{alt}" if {cond} else "{method}")'],
                    )
                ],
            ):
                _record(plan, src, dec, fn, "method", method.upper(), alt.upper())
                plan.site(src.rel, src.data, dec.start_byte, f"@{method} -> getattr ternary")
                counter[0] += 1
            continue
        text = src.text(first)
        if first.type == "string" and text[:1] in "'\"":
            counter[0] += _choose_path(
                plan,
                src,
                dec,
                first,
                text[1:-1],
                lambda new, old, c=cond: f"({new} if {c} else {old})",
            )


def plan(comp: Component, plan_: Plan) -> None:
    counter = [0]
    for src in comp.sources("js"):
        plan_js(comp, src, plan_, counter)
    for src in comp.sources("python"):
        plan_py(src, plan_, counter)


FAMILY = Family(12, "ternary", "a method or path chosen by a ternary over two literals", plan)
