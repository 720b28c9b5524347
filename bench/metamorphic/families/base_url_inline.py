"""Family 2's inline forms: a base URL written inside a call or an option object moves
into one `kbConfig` object per file (literals right after the imports; a pure expression
just before the statement that evaluates it, never out of a function)."""

from __future__ import annotations

import re

from tree_sitter import Node

from bench.metamorphic.edits import Plan
from bench.metamorphic.families.base import claim, insert, js_insert_point, replace
from bench.metamorphic.syntax import Source, enclosing, string_value

PURE = {
    "string", "template_string", "identifier", "member_expression", "binary_expression",
    "parenthesized_expression", "meta_property", "number", "property_identifier",
    "string_fragment", "template_substitution", "import", "null", "undefined",
}  # fmt: skip


def pure(src: Source, node: Node) -> bool:
    """Literals, names, member reads and ||/??/+ of them: evaluating it earlier or later
    reads the same values and runs no code."""
    for n in _named(node):
        if n.type not in PURE:
            return False
        if n.type == "binary_expression" and src.text(n.child_by_field_name("operator")) not in (
            "||",
            "??",
            "+",
        ):
            return False
    return True


def _named(node: Node) -> list[Node]:
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(c for c in n.children if c.is_named)
    return out


HEAD = re.compile(r"^https?://[^/${}\s'\"`]+(/[^${}\s?#'\"`\\]*)?")
FUNCTIONS = {
    "function_declaration",
    "function_expression",
    "arrow_function",
    "method_definition",
    "function",
    "class_body",
}


class Config:
    """One `kbConfig` object per file: literal bases go after the imports."""

    def __init__(self, src: Source, plan: Plan):
        self.src, self.plan = src, plan
        self.name = claim(plan, src, "kbConfig")
        self.keys: list[tuple[str, str]] = []

    def key_for(self, literal_text: str) -> str | None:
        if self.name is None:
            return None
        for k, v in self.keys:
            if v == literal_text:
                return f"{self.name}.{k}"
        k = "baseURL" if not self.keys else f"baseURL{len(self.keys) + 1}"
        self.keys.append((k, literal_text))
        return f"{self.name}.{k}"

    def flush(self) -> None:
        if self.keys and self.name is not None:
            body = ", ".join(f"{k}: {v}" for k, v in self.keys)
            at = js_insert_point(self.src)
            insert(
                self.plan,
                self.src,
                at,
                ("\n" if at else "") + f"const {self.name} = {{ {body} }};\n",
            )


def _inside_function(node: Node) -> bool:
    return enclosing(node, FUNCTIONS) is not None


def _top_statement(node: Node) -> Node:
    n = node
    while n.parent is not None and n.parent.type != "program":
        n = n.parent
    return n


def option_value(src: Source, plan: Plan, cfg: Config, pair: Node) -> None:
    """`new Api({ baseUrl: <expr> })` -> `baseUrl: kbConfig.baseURL`, the value moved out."""
    value = pair.child_by_field_name("value")
    if value is None or not pure(src, value) or pair.parent.parent.type != "arguments":
        return
    if plan.taken(src.rel, value.start_byte, value.end_byte):
        return
    if string_value(src, value) is not None:
        key = cfg.key_for(src.text(value))
        if key and replace(plan, src, value, key):
            plan.site(
                src.rel,
                src.data,
                value.start_byte,
                f"{src.text(pair.child_by_field_name('key'))} option: into config object",
            )
        return
    top = _top_statement(pair)
    if _inside_function(pair):
        plan.skip("base expression evaluated inside a function")
        return
    name = claim(plan, src, "kbBase")
    if name and replace(plan, src, value, f"{name}.baseURL"):
        insert(plan, src, top.start_byte, f"const {name} = {{ baseURL: {src.text(value)} }};\n")
        plan.site(
            src.rel,
            src.data,
            value.start_byte,
            f"{src.text(pair.child_by_field_name('key'))} option: into config object {name}",
        )


def inline_head(src: Source, plan: Plan, cfg: Config, lit: Node) -> None:
    """A URL literal starting with scheme://host: the head moves into the config object."""
    text = src.text(lit)
    body = text[1:-1]
    m = HEAD.match(body)
    if m is None or plan.taken(src.rel, lit.start_byte, lit.end_byte):
        return
    head, rest = m.group(0), body[m.end() :]
    if lit.type == "string" and any(c in rest for c in "`$\\"):
        return
    key = cfg.key_for(repr_js(head))
    if key and replace(plan, src, lit, "`${" + key + "}" + rest + "`" if rest else key):
        plan.site(src.rel, src.data, lit.start_byte, f"URL head {head} into config object")


def repr_js(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
