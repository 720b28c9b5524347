"""Family 8: reach the HTTP client through a property — a plugin object
(`kbPlugins.$http.get(...)`), an instance property set in a constructor
(`this.$http = axios`, read as `kbClient.$http`), or the global object (`globalThis.fetch`).

An imported client (axios, superagent, ky, …; Python requests/httpx/aiohttp) is stored on
the holder right after the imports and every use reads it from there. A direct call of
the client (`axios(config)`) is left alone: through a property it would receive a
different `this`. `globalThis.fetch(...)` passes the global object, which fetch accepts.
"""

from __future__ import annotations

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Edit, Plan
from bench.metamorphic.families.base import Family, claim, commit, js_insert_point
from bench.metamorphic.syntax import Source, is_js_binding, py_import_end, py_name_nodes, walk

JS_CLIENTS = {
    "axios",
    "superagent",
    "ky",
    "ofetch",
    "got",
    "node-fetch",
    "cross-fetch",
    "isomorphic-fetch",
    "redaxios",
    "wretch",
    "superagent-promise",
}
PY_CLIENTS = {"requests", "httpx", "aiohttp", "urllib3"}


def _js_client_imports(src: Source) -> list[tuple[str, str]]:
    """(local name, package) of default/namespace imports or requires of a client."""
    out = []
    for stmt in src.root.named_children:
        if stmt.type == "import_statement":
            pkg = src.text(stmt.child_by_field_name("source"))[1:-1]
            clause = next((c for c in stmt.named_children if c.type == "import_clause"), None)
            if pkg in JS_CLIENTS and clause is not None:
                for c in clause.named_children:
                    if c.type == "identifier":
                        out.append((src.text(c), pkg))
                    elif c.type == "namespace_import":
                        out.append((src.text(c.named_children[-1]), pkg))
        elif stmt.type in ("lexical_declaration", "variable_declaration"):
            for d in stmt.named_children:
                name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
                if (
                    name is None
                    or value is None
                    or name.type != "identifier"
                    or value.type != "call_expression"
                ):
                    continue
                args = value.child_by_field_name("arguments")
                if (
                    src.text(value.child_by_field_name("function")) == "require"
                    and args.named_child_count == 1
                    and src.text(args.named_children[0])[1:-1] in JS_CLIENTS
                ):
                    out.append((src.text(name), src.text(args.named_children[0])[1:-1]))
    return out


def plan_js(src: Source, plan: Plan, counter: list[int]) -> None:
    for local, pkg in _js_client_imports(src):
        uses = [t for t in src.name_tokens(local) if not _in_import(t)]
        if any(t.type != "identifier" or is_js_binding(t) for t in uses):
            plan.skip("client name rebound, typed or shorthand")
            continue
        if any(
            t.parent.type == "call_expression" and t.parent.child_by_field_name("function") == t
            for t in uses
        ):
            plan.skip("client called directly (this would change)")
            continue
        if not uses:
            continue
        variant = counter[0] % 2
        counter[0] += 1
        holder = claim(plan, src, "kbPlugins" if variant == 0 else "kbClient")
        if holder is None:
            continue
        at = js_insert_point(src)
        if variant == 0:
            decl = f"const {holder} = {{ $http: {local} }};\n"
        else:
            cls = claim(plan, src, "KbClient")
            if cls is None:
                continue
            field = f"  $http: typeof {local};\n" if src.language in ("typescript", "tsx") else ""
            decl = f"class {cls} {{\n{field}  constructor() {{\n    this.$http = {local};\n  }}\n}}\nconst {holder} = new {cls}();\n"
        edits = [Edit(src.rel, at, at, [("\n" if at else "") + decl])]
        edits += [Edit(src.rel, t.start_byte, t.end_byte, [f"{holder}.$http"]) for t in uses]
        if commit(plan, edits):
            how = "plugin object" if variant == 0 else "instance property (this.$http)"
            plan.site(
                src.rel, src.data, uses[0].start_byte, f"{local} ({pkg}) -> {how} {holder}.$http"
            )
    _global_fetch(src, plan)


def _global_fetch(src: Source, plan: Plan) -> None:
    toks = src.name_tokens("fetch")
    calls = [
        t
        for t in toks
        if t.parent.type == "call_expression" and t.parent.child_by_field_name("function") == t
    ]
    if not calls or len(calls) != len(toks):
        return
    edits = [Edit(src.rel, t.start_byte, t.end_byte, ["globalThis.fetch"]) for t in calls]
    if commit(plan, edits):
        plan.site(src.rel, src.data, calls[0].start_byte, "fetch -> globalThis.fetch")


def _in_import(node) -> bool:
    p = node.parent
    while p is not None:
        if p.type == "import_statement":
            return True
        if p.type == "variable_declarator" and p.child_by_field_name("name") == node:
            return True
        p = p.parent
    return False


def plan_py(src: Source, plan: Plan) -> None:
    for stmt in src.root.named_children:
        if stmt.type != "import_statement":
            continue
        for n in stmt.named_children:
            if n.type != "dotted_name" or src.text(n) not in PY_CLIENTS:
                continue
            name = src.text(n)
            uses = [
                u
                for u in py_name_nodes(src, name)
                if not (stmt.start_byte <= u.start_byte < stmt.end_byte)
            ]
            if not uses or any(
                u.parent.type != "attribute" or u.parent.child_by_field_name("object") != u
                for u in uses
            ):
                if uses:
                    plan.skip("client module used other than as a.b")
                continue
            if any(a.type in ("global_statement",) for a in walk(src.root)):
                continue
            holder = claim(plan, src, "_KbPlugins")
            if holder is None:
                continue
            at = py_import_end(src)
            edits = [Edit(src.rel, at, at, [f"\n\n\nclass {holder}:\n    http = {name}\n"])]
            edits += [Edit(src.rel, u.start_byte, u.end_byte, [f"{holder}.http"]) for u in uses]
            if commit(plan, edits):
                plan.site(
                    src.rel,
                    src.data,
                    uses[0].start_byte,
                    f"{name} -> class attribute {holder}.http",
                )


def plan(comp: Component, plan_: Plan) -> None:
    counter = [0]
    for src in comp.sources("js"):
        plan_js(src, plan_, counter)
    for src in comp.sources("python"):
        plan_py(src, plan_)


FAMILY = Family(8, "client_property", "reach the client through a property or plugin", plan)
