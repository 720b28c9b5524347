"""Family 9: template literal <-> string concatenation; f-string <-> `str.format`.

Only URL-ish strings are touched (a static part holding '/' or '?'), on one line, without
escapes (their meaning differs between the two syntaxes). A template becomes
`'a/' + x + '/b'`, with `'' +` first when it starts with a substitution (so `+` is string
concatenation from the first operand); a `+` chain becomes a template only when one of its
first two operands is a string (otherwise the original adds numbers first). Operands that
bind looser than `+` are parenthesised. `+` converts an object operand with ToPrimitive
where a template uses ToString: they differ only for objects whose valueOf returns a
primitive, which URL parts are not. Python's f"…{x}…" and "…{}…".format(x) call the same
`format()` in the same order, so both directions are exact; nested format specs, `=`
and quotes inside the expression are left alone.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Edit, Piece, Plan
from bench.metamorphic.families.base import Family, commit
from bench.metamorphic.syntax import Source, of_type

TIGHT = {
    "identifier",
    "member_expression",
    "call_expression",
    "subscript_expression",
    "string",
    "number",
    "template_string",
    "parenthesized_expression",
    "this",
}


URLISH = re.compile(r"url|uri|base|root|path|api|host|endpoint", re.I)


def _urlish(text: str) -> bool:
    return "/" in text or "?" in text


def _js_quote(text: str) -> str:
    return "'" + text.replace("'", "\\'") + "'"


def _template_to_concat(src: Source, plan: Plan, t: Node) -> None:
    if t.parent.type == "call_expression" and t.parent.child_by_field_name("arguments") == t:
        return  # tagged template
    raw = src.text(t)
    subs = [c for c in t.named_children if c.type == "template_substitution"]
    if not subs or "\n" in raw or "\\" in raw:
        return
    statics: list[str] = []
    pos = t.start_byte + 1
    pieces: list = []
    for s in subs:
        statics.append(src.data[pos : s.start_byte].decode())
        expr = s.named_children[0] if s.named_children else None
        if expr is None:
            return
        pieces.append(expr)
        pos = s.end_byte
    tail = src.data[pos : t.end_byte - 1].decode()
    if not _urlish("".join(statics) + tail) and not any(URLISH.search(src.text(e)) for e in pieces):
        return
    parts: list = []
    for i, (text, expr) in enumerate(zip(statics, pieces, strict=True)):
        if text:
            parts += [("" if not parts else " + "), _js_quote(text)]
        elif i == 0:
            parts.append("''")
        wrap = expr.type not in TIGHT
        parts += [
            " + ",
            "(" if wrap else "",
            Piece(expr.start_byte, expr.end_byte),
            ")" if wrap else "",
        ]
    if tail:
        parts += [" + ", _js_quote(tail)]
    needs_parens = t.parent.type in (
        "member_expression",
        "call_expression",
        "subscript_expression",
        "unary_expression",
        "binary_expression",
        "await_expression",
    )
    if needs_parens:
        parts = ["(", *parts, ")"]
    if commit(plan, [Edit(src.rel, t.start_byte, t.end_byte, parts)]):
        plan.site(src.rel, src.data, t.start_byte, "template literal -> concatenation")


def _chain(node: Node) -> list[Node]:
    """Operands of a left-associated `+` chain."""
    if node.type == "binary_expression" and node.child_by_field_name("operator").type == "+":
        return [*_chain(node.child_by_field_name("left")), node.child_by_field_name("right")]
    return [node]


def _concat_to_template(src: Source, plan: Plan, b: Node) -> None:
    if (
        b.parent.type == "binary_expression"
        and b.parent.child_by_field_name("operator").type == "+"
    ):
        return  # not the whole chain
    ops = _chain(b)
    if len(ops) < 2 or not any(o.type == "string" for o in ops[:2]):
        return
    if "\n" in src.text(b):
        return
    literals = [src.text(o)[1:-1] for o in ops if o.type == "string"]
    if not _urlish("".join(literals)) or any(c in x for x in literals for c in ("`", "${", "\\")):
        return
    parts: list = ["`"]
    for o in ops:
        if o.type == "string":
            parts.append(src.text(o)[1:-1])
        else:
            parts += ["${", Piece(o.start_byte, o.end_byte), "}"]
    parts.append("`")
    if commit(plan, [Edit(src.rel, b.start_byte, b.end_byte, parts)]):
        plan.site(src.rel, src.data, b.start_byte, "concatenation -> template literal")


def plan_js(src: Source, plan: Plan) -> None:
    for t in of_type(src.root, "template_string"):
        _template_to_concat(src, plan, t)
    for b in of_type(src.root, "binary_expression"):
        if b.child_by_field_name("operator").type == "+":
            _concat_to_template(src, plan, b)


# --- Python -------------------------------------------------------------------------------


def _fstring_to_format(src: Source, plan: Plan, s: Node) -> None:
    start = next((c for c in s.children if c.type == "string_start"), None)
    if (
        start is None
        or "f" not in src.text(start).lower()
        or '"""' in src.text(start)
        or "'''" in src.text(start)
    ):
        return
    inters = [c for c in s.named_children if c.type == "interpolation"]
    text = src.text(s)
    if not inters or "\n" in text or "\\" in text:
        return
    out: list = [src.text(start).replace("f", "").replace("F", "")]
    args: list = []
    pos = start.end_byte
    for it in inters:
        out.append(src.data[pos : it.start_byte].decode())
        expr = it.child_by_field_name("expression") or (
            it.named_children[0] if it.named_children else None
        )
        conv = next((c for c in it.named_children if c.type == "type_conversion"), None)
        spec = next((c for c in it.named_children if c.type == "format_specifier"), None)
        if (
            expr is None
            or b"=" in src.data[expr.end_byte : it.end_byte].split(b"!")[0].split(b":")[0]
            or (
                spec is not None and any(c.type == "format_expression" for c in spec.named_children)
            )
        ):
            return
        field = "{" + (src.text(conv) if conv else "") + (src.text(spec) if spec else "") + "}"
        if spec is not None and not field.startswith("{:") and conv is None:
            field = (
                "{" + src.text(spec) + "}"
                if src.text(spec).startswith(":")
                else "{:" + src.text(spec) + "}"
            )
        out.append(field)
        args.append(expr)
        pos = it.end_byte
    end = next(c for c in s.children if c.type == "string_end")
    literal = "".join(out) + src.data[pos : end.start_byte].decode() + src.text(end)
    if not _urlish(literal):
        return
    parts: list = [literal, ".format("]
    for i, a in enumerate(args):
        parts += [", "] if i else []
        parts.append(Piece(a.start_byte, a.end_byte))
    parts.append(")")
    if s.parent.type in ("concatenated_string",):
        return
    if commit(
        plan,
        [
            Edit(
                src.rel,
                s.start_byte,
                s.end_byte,
                ["(", *parts, ")"] if s.parent.type == "attribute" else parts,
            )
        ],
    ):
        plan.site(src.rel, src.data, s.start_byte, "f-string -> str.format")


def _format_to_fstring(src: Source, plan: Plan, call: Node) -> None:
    fn = call.child_by_field_name("function")
    if (
        fn is None
        or fn.type != "attribute"
        or src.text(fn.child_by_field_name("attribute")) != "format"
    ):
        return
    lit = fn.child_by_field_name("object")
    args = call.child_by_field_name("arguments")
    if (
        lit.type != "string"
        or args is None
        or any(a.type != "identifier" and a.type != "attribute" for a in args.named_children)
    ):
        return
    text = src.text(lit)
    quote = text[-1]
    prefix = text[: len(text) - len(text.lstrip("rRbBuU"))]
    if (
        "b" in prefix.lower()
        or "\n" in text
        or "\\" in text
        or text.count("{}") != args.named_child_count
        or "{{" in text
        or "}}" in text
    ):
        return
    body = text[len(prefix) + 1 : -1]
    if body.replace("{}", "").count("{") or body.replace("{}", "").count("}") or not _urlish(body):
        return
    parts: list = ["f" + prefix + quote]
    chunks = body.split("{}")
    for i, chunk in enumerate(chunks):
        parts.append(chunk)
        if i < len(chunks) - 1:
            a = args.named_children[i]
            if quote in src.text(a):
                return
            parts += ["{", Piece(a.start_byte, a.end_byte), "}"]
    parts.append(quote)
    if commit(plan, [Edit(src.rel, call.start_byte, call.end_byte, parts)]):
        plan.site(src.rel, src.data, call.start_byte, "str.format -> f-string")


def plan_py(src: Source, plan: Plan) -> None:
    for s in of_type(src.root, "string"):
        _fstring_to_format(src, plan, s)
    for c in of_type(src.root, "call"):
        _format_to_fstring(src, plan, c)


def plan(comp: Component, plan_: Plan) -> None:
    for src in comp.sources("js"):
        plan_js(src, plan_)
    for src in comp.sources("python"):
        plan_py(src, plan_)


FAMILY = Family(
    9, "string_form", "template literal <-> concatenation, f-string <-> str.format", plan
)
