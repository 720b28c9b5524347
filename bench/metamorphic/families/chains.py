"""Family 11: a chained call <-> separate statements.

`router.route('/x').get(a).post(b)` becomes `const kbRoute = router.route('/x');
kbRoute.get(a); kbRoute.post(b);`, and two registrations of one path become one
`route()` chain; `app.use(a).use(b)` <-> `app.use(a); app.use(b);`;
`const app = await NestFactory.create(M); app.setGlobalPrefix('api')` <->
`const app = (await NestFactory.create(M)).setGlobalPrefix('api')`.

Splitting or joining a chain is exact only when each inner call returns its receiver. That
is known per library from its documentation (Express app/router/Route methods, Koa
router, Fastify route shorthands, Nest's `setGlobalPrefix`/`useGlobal*`/`enableVersioning`
return `this`), so a receiver must be a name this file binds to such an object
(`express()`, `express.Router()`, `new Router()`, `fastify()`, `NestFactory.create()`).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Edit, Piece, Plan
from bench.metamorphic.families.base import Family, claim, commit
from bench.metamorphic.syntax import Source, indent_of, of_type, string_value

VERBS = {"get", "post", "put", "patch", "delete", "head", "options", "all"}
FLUENT = {
    "express": VERBS | {"use", "param"},
    "koa": VERBS | {"use", "prefix", "param", "del"},
    "fastify": VERBS | {"addHook", "decorate", "route"},
    "nest": {
        "setGlobalPrefix",
        "useGlobalPipes",
        "useGlobalFilters",
        "useGlobalGuards",
        "useGlobalInterceptors",
        "enableVersioning",
    },
}
MAKERS = [
    (re.compile(r"^(express|express\.Router|Router|express\.default)\s*\("), "express"),
    (re.compile(r"^new\s+(Router|KoaRouter|KoaRouter\.default)\s*\("), "koa"),
    (re.compile(r"^(fastify|Fastify)\s*\("), "fastify"),
    (re.compile(r"^await\s+NestFactory\.create\b"), "nest"),
]


def _receivers(src: Source) -> dict[str, str]:
    """Names bound (once, const) in this file to an app or router: name -> library."""
    out: dict[str, str] = {}
    for d in of_type(src.root, "variable_declarator"):
        name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
        if (
            name is None
            or value is None
            or name.type != "identifier"
            or not src.text(d.parent).startswith("const")
        ):
            continue
        for pattern, lib in MAKERS:
            if pattern.match(src.text(value)):
                out[src.text(name)] = lib
    return out


def _links(src: Source, expr: Node) -> tuple[Node, list[tuple[str, Node]]] | None:
    """A call chain as (base, [(method, arguments), ...]) in call order."""
    links = []
    node = expr
    while node.type == "call_expression":
        fn = node.child_by_field_name("function")
        if fn is None or fn.type != "member_expression":
            return None
        links.append(
            (src.text(fn.child_by_field_name("property")), node.child_by_field_name("arguments"))
        )
        node = fn.child_by_field_name("object")
    links.reverse()
    return (node, links) if links else None


def _split(src: Source, plan: Plan, stmt: Node, recv: dict[str, str]) -> bool:
    expr = stmt.named_children[0] if stmt.named_children else None
    chain = _links(src, expr) if expr is not None else None
    if chain is None or len(chain[1]) < 2:
        return False
    base, links = chain
    lib = recv.get(src.text(base)) if base.type == "identifier" else None
    if lib is None:
        return False
    ind = indent_of(src, stmt)
    if links[0][0] == "route" and lib == "express" and all(m in VERBS for m, _ in links[1:]):
        var = claim(plan, src, "kbRoute")
        if var is None:
            return False
        parts: list = [
            f"const {var} = {src.text(base)}.route",
            Piece(links[0][1].start_byte, links[0][1].end_byte),
            ";",
        ]
        for m, args in links[1:]:
            parts += [f"\n{ind}{var}.{m}", Piece(args.start_byte, args.end_byte), ";"]
        note = "route() chain -> separate statements"
    elif all(m in FLUENT[lib] for m, _ in links[:-1]):
        parts = []
        for i, (m, args) in enumerate(links):
            parts += [
                f"\n{ind}" if i else "",
                f"{src.text(base)}.{m}",
                Piece(args.start_byte, args.end_byte),
                ";",
            ]
        note = "fluent chain -> separate statements"
    else:
        return False
    if commit(plan, [Edit(src.rel, stmt.start_byte, stmt.end_byte, parts)]):
        plan.site(src.rel, src.data, stmt.start_byte, note)
        return True
    return False


def _call_of(src: Source, stmt: Node) -> tuple[str, str, Node] | None:
    """(receiver, method, arguments) of `recv.m(args);`."""
    if stmt is None or stmt.type != "expression_statement" or not stmt.named_children:
        return None
    chain = _links(src, stmt.named_children[0])
    if chain is None or len(chain[1]) != 1 or chain[0].type != "identifier":
        return None
    return src.text(chain[0]), chain[1][0][0], chain[1][0][1]


def _join(src: Source, plan: Plan, block: Node, recv: dict[str, str]) -> None:
    stmts = list(block.named_children)
    i = 0
    while i < len(stmts) - 1:
        a, b = _call_of(src, stmts[i]), _call_of(src, stmts[i + 1])
        if a is None or b is None or a[0] != b[0] or a[0] not in recv:
            i += 1
            continue
        lib = recv[a[0]]
        same_path = (
            lib == "express" and a[1] in VERBS and b[1] in VERBS and a[1] != b[1]
            and a[2].named_child_count >= 2 and b[2].named_child_count >= 2
            and string_value(src, a[2].named_children[0]) is not None
            and src.text(a[2].named_children[0]) == src.text(b[2].named_children[0])
        )  # fmt: skip
        if same_path:
            p1, p2 = a[2].named_children, b[2].named_children
            parts: list = [
                f"{a[0]}.route(",
                Piece(p1[0].start_byte, p1[0].end_byte),
                f").{a[1]}(",
                Piece(p1[1].start_byte, a[2].end_byte),
                f".{b[1]}(",
                Piece(p2[1].start_byte, b[2].end_byte),
                ";",
            ]
            note = "two registrations of one path -> route() chain"
        elif a[1] in FLUENT[lib]:
            parts = [
                Piece(
                    stmts[i].start_byte,
                    stmts[i].end_byte - (1 if src.text(stmts[i]).endswith(";") else 0),
                ),
                f"\n{indent_of(src, stmts[i])}  .{b[1]}",
                Piece(b[2].start_byte, b[2].end_byte),
                ";",
            ]
            note = "separate statements -> fluent chain"
        else:
            i += 1
            continue
        if commit(plan, [Edit(src.rel, stmts[i].start_byte, stmts[i + 1].end_byte, parts)]):
            plan.site(src.rel, src.data, stmts[i].start_byte, note)
            i += 2
        else:
            i += 1


def _merge_declaration(src: Source, plan: Plan, block: Node, recv: dict[str, str]) -> None:
    """`const app = await X; app.setGlobalPrefix('api');` -> `const app = (await X).setGlobalPrefix('api');`."""
    stmts = list(block.named_children)
    for decl, nxt in zip(stmts, stmts[1:], strict=False):
        if decl.type != "lexical_declaration" or decl.named_child_count != 1:
            continue
        d = decl.named_children[0]
        name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
        call = _call_of(src, nxt)
        if (
            name is None
            or value is None
            or call is None
            or call[0] != src.text(name)
            or recv.get(call[0]) != "nest"
        ):
            continue
        if call[1] not in FLUENT["nest"] or re.search(
            rf"\b{re.escape(call[0])}\b", src.text(call[2])
        ):
            continue
        parts = [
            "(",
            Piece(value.start_byte, value.end_byte),
            f").{call[1]}",
            Piece(call[2].start_byte, call[2].end_byte),
        ]
        edits = [
            Edit(src.rel, value.start_byte, value.end_byte, parts),
            Edit(src.rel, nxt.start_byte, nxt.end_byte, [""]),
        ]
        if commit(plan, edits):
            plan.site(
                src.rel, src.data, nxt.start_byte, f"{call[1]} merged into the declaration's chain"
            )


def plan(comp: Component, plan_: Plan) -> None:
    for src in comp.sources("js"):
        recv = _receivers(src)
        if not recv:
            continue
        blocks = [src.root, *of_type(src.root, "statement_block")]
        for block in blocks:
            _merge_declaration(src, plan_, block, recv)
        for stmt in of_type(src.root, "expression_statement"):
            _split(src, plan_, stmt, recv)
        for block in blocks:
            _join(src, plan_, block, recv)


FAMILY = Family(11, "chain_form", "a chained call <-> separate statements", plan)
