"""Family 2: move a base URL into a config object, a `defaults.baseURL =` statement, or an
env var with a default.

Sites: a module-level constant holding a URL (absolute, or a path under a URL-ish name),
an `axios.create({ baseURL })` option, a `baseURL`/`BASE` property that ends an object
literal, a Python module constant or `base_url=` keyword. The env variants read a fresh
name nothing sets (`KB_META_<NAME>`, with the bundler's public prefix), so the default is
what runs: `process.env.X || '…'`, `import.meta.env.VITE_X || '…'`, `os.getenv("X", "…")`.
The `defaults.baseURL =` form is axios' documented instance default (same merged config);
a property moved to an assignment after the literal must be its last one (key order
kept), on an object nobody freezes.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Edit, Piece, Plan
from bench.metamorphic.families.base import (
    Family,
    claim,
    commit,
    insert,
    py_os_name,
    replace,
)
from bench.metamorphic.families.base_url_inline import Config, inline_head, option_value, pure
from bench.metamorphic.syntax import Source, indent_of, module_kind, of_type, py_expr, string_value

ABSOLUTE = re.compile(r"^https?://[^\s'\"`?#]+$")
URLISH_NAME = re.compile(r"(url|uri|base|root|host|endpoint|api)", re.I)
BASE_KEYS = {"baseURL", "baseUrl", "BASE", "base_url", "apiUrl", "apiURL"}


def is_base(name: str, value: str) -> bool:
    if ABSOLUTE.match(value):
        return True
    return (
        bool(URLISH_NAME.search(name))
        and value.startswith("/")
        and " " not in value
        and "?" not in value
    )


def env_name(name: str) -> str:
    return "KB_META_" + re.sub(
        r"[^A-Za-z0-9]+", "_", re.sub(r"([a-z])([A-Z])", r"\1_\2", name)
    ).upper().strip("_")


def _quote(src: Source, lit: Node) -> str:
    return src.text(lit)


# --- JavaScript ---------------------------------------------------------------------------


def _js_const(comp: Component, src: Source, plan: Plan, decl: Node, i: int) -> None:
    name_node = decl.child_by_field_name("name")
    value = decl.child_by_field_name("value")
    if name_node is None or value is None or name_node.type != "identifier":
        return
    lit = string_value(src, value)
    name = src.text(name_node)
    if lit is None:
        if (
            URLISH_NAME.search(name)
            and value.type != "string"
            and pure(src, value)
            and _mentions_env(src, value)
        ):
            _into_config(src, plan, decl, value, name)
        return
    if not is_base(name, lit):
        return
    env = comp.env_expression(env_name(name))
    if env is not None and env.startswith("import.meta") and module_kind(src) != "esm":
        env = None
    if env is not None and i % 2 == 0:
        if replace(plan, src, value, f"{env} || {_quote(src, value)}"):
            plan.equivalent_bases[env.rsplit(".", 1)[-1].lower()] = lit
            plan.site(
                src.rel,
                src.data,
                value.start_byte,
                f"{name}: env var {env.rsplit('.', 1)[-1]} with default",
            )
        return
    _into_config(src, plan, decl, value, name)


def _into_config(src: Source, plan: Plan, decl: Node, value: Node, name: str) -> None:
    cfg = claim(plan, src, "kbConfig")
    stmt = decl.parent
    if (
        cfg is None
        or stmt.parent is None
        or stmt.parent.type not in ("program", "export_statement")
    ):
        plan.skip("no place for a config object")
        return
    top = stmt if stmt.parent.type == "program" else stmt.parent
    if not replace(plan, src, value, f"{cfg}.baseURL"):
        return
    insert(
        plan,
        src,
        top.start_byte,
        f"const {cfg} = {{ baseURL: {_quote(src, value)} }};\n{indent_of(src, top)}",
    )
    plan.site(src.rel, src.data, value.start_byte, f"{name}: into config object {cfg}")


def _mentions_env(src: Source, node: Node) -> bool:
    text = src.text(node)
    return "process.env" in text or "import.meta.env" in text


def _axios_create(src: Source, plan: Plan, call: Node) -> None:
    """`const api = axios.create({ baseURL: X, ... })` -> without it, then
    `api.defaults.baseURL = X;`."""
    fn = call.child_by_field_name("function")
    if (
        fn is None
        or fn.type != "member_expression"
        or src.text(fn.child_by_field_name("property")) != "create"
    ):
        return
    args = call.child_by_field_name("arguments")
    obj = args.named_children[0] if args is not None and args.named_child_count == 1 else None
    decl = call.parent
    if obj is None or obj.type != "object" or decl.type != "variable_declarator":
        return
    pairs = obj.named_children
    idx = next(
        (
            k
            for k, p in enumerate(pairs)
            if p.type == "pair" and src.text(p.child_by_field_name("key")) == "baseURL"
        ),
        None,
    )
    if idx is None:
        return
    if any(p.type == "spread_element" for p in pairs[idx + 1 :]):
        plan.skip("a spread after baseURL may override it")
        return
    stmt = decl.parent
    name = decl.child_by_field_name("name")
    if (
        stmt.type != "lexical_declaration"
        or name is None
        or name.type != "identifier"
        or stmt.named_child_count != 1
    ):
        plan.skip("axios.create not a single declaration")
        return
    pair = pairs[idx]
    value = pair.child_by_field_name("value")
    start = pairs[idx - 1].end_byte if idx > 0 else pair.start_byte
    end = pair.end_byte if idx > 0 else (pairs[1].start_byte if len(pairs) > 1 else pair.end_byte)
    host = stmt.parent if stmt.parent.type == "export_statement" else stmt
    # the value moves as a piece: what is read in it (an env var) is mapped to its new line
    head = f"\n{indent_of(src, host)}{src.text(name)}.defaults.baseURL = "
    moved = [head, Piece(value.start_byte, value.end_byte), ";"]
    if not commit(plan, [Edit(src.rel, start, end, [""]),
                         Edit(src.rel, host.end_byte, host.end_byte, moved)]):  # fmt: skip
        return
    plan.site(
        src.rel, src.data, pair.start_byte, "axios.create baseURL -> instance defaults.baseURL ="
    )


def _last_property(src: Source, plan: Plan, decl: Node) -> None:
    """`const C = { ..., baseURL: 'x' }` -> `const C = { ... }; C.baseURL = 'x';`."""
    name = decl.child_by_field_name("name")
    obj = decl.child_by_field_name("value")
    if (
        name is None
        or obj is None
        or obj.type != "object"
        or name.type != "identifier"
        or obj.named_child_count < 2
    ):
        return
    last = obj.named_children[-1]
    if last.type != "pair" or src.text(last.child_by_field_name("key")) not in BASE_KEYS:
        return
    value = last.child_by_field_name("value")
    lit = string_value(src, value)
    if lit is None or not is_base("base", lit):
        return
    if (
        decl.child_by_field_name("type") is not None
        or b"freeze" in src.data
        or b"as const" in src.data
    ):
        plan.skip("typed or frozen config object")
        return
    stmt = decl.parent
    host = stmt.parent if stmt.parent.type == "export_statement" else stmt
    if host.parent is None or host.parent.type != "program" or stmt.named_child_count != 1:
        return
    prev = obj.named_children[-2]
    if not replace(plan, src, (prev.end_byte, last.end_byte), ""):
        return
    key = src.text(last.child_by_field_name("key"))
    insert(plan, src, host.end_byte, f"\n{src.text(name)}.{key} = {src.text(value)};")
    plan.site(
        src.rel,
        src.data,
        last.start_byte,
        f"{src.text(name)}.{key}: property -> assignment statement",
    )


def plan_js(comp: Component, src: Source, plan: Plan) -> None:
    count = 0
    for stmt in src.root.named_children:
        decls = stmt.named_children if stmt.type == "lexical_declaration" else []
        if stmt.type == "export_statement":
            inner = stmt.child_by_field_name("declaration")
            decls = (
                inner.named_children
                if inner is not None and inner.type == "lexical_declaration"
                else []
            )
        for decl in decls:
            if decl.type == "variable_declarator":
                _js_const(comp, src, plan, decl, count)
                _last_property(src, plan, decl)
                count += 1
    for call in of_type(src.root, "call_expression"):
        _axios_create(src, plan, call)
    cfg = Config(src, plan)
    for pair in of_type(src.root, "pair"):
        key = pair.child_by_field_name("key")
        if key is not None and src.text(key) in BASE_KEYS and pair.parent.type == "object":
            option_value(src, plan, cfg, pair)
    for lit in of_type(src.root, "string", "template_string"):
        if lit.parent is not None and lit.parent.type not in (
            "import_statement",
            "jsx_attribute",
            "export_statement",
        ):
            inline_head(src, plan, cfg, lit)
    cfg.flush()


# --- Python -------------------------------------------------------------------------------


def plan_py(src: Source, plan: Plan) -> None:
    targets: list[tuple[str, Node]] = []
    for stmt in src.root.named_children:
        expr = py_expr(stmt)
        if expr is not None and expr.type == "assignment":
            left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
            if (
                left is not None
                and right is not None
                and left.type == "identifier"
                and right.type == "string"
            ):
                targets.append((src.text(left), right))
    for kw in of_type(src.root, "keyword_argument"):
        name, value = kw.child_by_field_name("name"), kw.child_by_field_name("value")
        if (
            src.text(name) in ("base_url", "baseurl", "base")
            and value is not None
            and value.type == "string"
        ):
            targets.append((src.text(name), value))
    os_name: str | None = None
    for i, (name, value) in enumerate(targets):
        lit = _py_string(src, value)
        if lit is None or not is_base(name, lit):
            continue
        if i % 2 == 1 and value.parent.type == "assignment":
            cls = claim(plan, src, "KbConfig")
            stmt = value.parent if value.parent.parent.type == "module" else value.parent.parent
            if cls and replace(plan, src, value, f"{cls}.base_url"):
                insert(
                    plan,
                    src,
                    stmt.start_byte,
                    f"class {cls}:\n    base_url = {src.text(value)}\n\n\n",
                )
                plan.site(src.rel, src.data, value.start_byte, f"{name}: into config class {cls}")
            continue
        os_name = os_name or py_os_name(src, plan)
        if os_name is None:
            plan.skip("no name for os")
            return
        env = env_name(name)
        if replace(plan, src, value, f'{os_name}.getenv("{env}", {src.text(value)})'):
            plan.equivalent_bases[env.lower()] = lit
            plan.site(src.rel, src.data, value.start_byte, f"{name}: os.getenv({env}, default)")


def _py_string(src: Source, node: Node) -> str | None:
    text = src.text(node)
    if (
        any(c.type == "interpolation" for c in node.children)
        or text[:1] not in "'\""
        or text[:3] in ('"""', "'''")
    ):
        return None
    raw = text[1:-1]
    return None if "\\" in raw else raw


def plan(comp: Component, plan_: Plan) -> None:
    for src in comp.sources("js"):
        plan_js(comp, src, plan_)
    for src in comp.sources("python"):
        plan_py(src, plan_)


FAMILY = Family(
    2, "base_url", "move a base URL into config, a defaults statement or an env var", plan
)
