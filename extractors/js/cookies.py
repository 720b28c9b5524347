"""Cookies by name: where code reads, sets and deletes a cookie, so its impact is findable.

Recognised (the name a string literal or a const that evaluates to one):
- Next.js `cookies()` from `next/headers`: `(await cookies()).get("x")`, `.set/.delete/.has`,
  also through a name (`const store = await cookies(); store.get("x")`);
- any `<expr>.cookies.get|set|delete|has("x")` (NextRequest / NextResponse cookies);
- `cookies-next` `getCookie/setCookie/deleteCookie/hasCookie("x")`, `js-cookie`
  `Cookies.get/set/remove("x")`;
- Express `res.cookie("x", ...)` / `res.clearCookie("x")`;
- `document.cookie = "x=..."` (a template or concatenation whose text starts `x=`).

A `cookie` node per name per component (qualifier and name = the cookie name, at its
first access); an `sdk_call` node per access at its own line (qualifier
`<rel>:<line>:cookie.<op>:<name>`, attrs `sdk="cookie"`, `package`, `op`, `access` read |
write | delete, `resource` the name), ACCESSES → the cookie (attr `access`), and the
enclosing symbol CALLS_FN the access (attr `via="cookie"`). Setting a cookie is never an
HTTP call.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.engine.texts import defined_as, text_at
from extractors.js.common import arguments, js_files, modules, text, unwrap
from extractors.js.model import ModuleInfo
from extractors.lang.files import js_adapter_of
from extractors.shared import EngineRun, JsSymbols
from extractors.source import SourceFile, matches

NAME = "cookies"
PROVIDES = ()
REQUIRES = (JsSymbols, EngineRun)  # strings evaluated by the engine's evaluator
STORE_OPS = {"get": "read", "has": "read", "set": "write", "delete": "delete"}
FUNCTIONS = {  # package → imported function → access
    "cookies-next": {
        "getCookie": "read", "hasCookie": "read", "setCookie": "write", "deleteCookie": "delete",
    },
}  # fmt: skip
OBJECTS = {"js-cookie": {"get": "read", "set": "write", "remove": "delete"}}
EXPRESS = {"cookie": "write", "clearCookie": "delete"}
_DOCUMENT_QUERY = """
(assignment_expression left: (member_expression) @left right: (_) @right) @set
"""


def extract(ctx: ComponentContext) -> None:
    mods = modules(ctx)
    cookies: dict[str, str] = {}  # cookie name → node id
    taken: set[str] = set()  # sdk_call qualifiers made
    for sf in js_files(ctx):
        mod = mods.get(sf.rel)
        if mod is None or b"ookie" not in sf.data:
            continue
        for call, fn, dotted in js_adapter_of(ctx, sf).call_names:
            if call.type != "call_expression" or fn is None:
                continue
            found = _access(ctx, mod, fn, dotted)
            if found is None:
                continue
            package, op, access = found
            args = arguments(call)
            name = text_at(ctx, mod.rel, args[0]) if args else None
            if name:
                _emit(ctx, mod, call, (cookies, taken), name, package, op, access)
        if b"document.cookie" in sf.data:
            for _, m in matches(sf.language, _DOCUMENT_QUERY, sf.tree.root_node):
                if text(sf, m["left"][0]).replace(" ", "") != "document.cookie":
                    continue
                value = text_at(ctx, mod.rel, m["right"][0])
                name = (value or "").split("=", 1)[0].strip()
                if "=" in (value or "") and name and "{" not in name:
                    seen = (cookies, taken)
                    _emit(ctx, mod, m["set"][0], seen, name, "document.cookie", "set", "write")


def _access(ctx, mod: ModuleInfo, fn: TsNode, dotted: str | None) -> tuple[str, str, str] | None:
    """(package, op, access) when the callee is a cookie read/write, else None."""
    if dotted is not None:
        head, _, prop = dotted.rpartition(".")
        binding = mod.imports.get(head or dotted)
        if binding is not None and not head and binding.spec in FUNCTIONS:
            access = FUNCTIONS[binding.spec].get(binding.imported)
            return (binding.spec, binding.imported, access) if access else None
        if binding is not None and head and binding.spec in OBJECTS:
            access = OBJECTS[binding.spec].get(prop)
            return (binding.spec, prop, access) if access else None
    if fn.type != "member_expression":
        return None
    prop = text(mod.sf, fn.child_by_field_name("property"))
    obj = unwrap(fn.child_by_field_name("object"))
    if obj is None:
        return None
    if prop in EXPRESS and obj.type == "identifier" and text(mod.sf, obj) in {"res", "response"}:
        return "express", prop, EXPRESS[prop]
    if prop not in STORE_OPS:
        return None
    if obj.type == "member_expression" and text(mod.sf, obj.child_by_field_name("property")) == (
        "cookies"
    ):
        return "request/response cookies", prop, STORE_OPS[prop]
    if obj.type == "identifier":  # `const store = await cookies()`
        found = defined_as(ctx, mod.rel, obj)
        obj = unwrap(found.node) if found is not None else obj
        mod = modules(ctx).get(found.rel, mod) if found is not None else mod
    if obj.type == "call_expression":
        binding = mod.imports.get(text(mod.sf, obj.child_by_field_name("function")))
        if binding is not None and binding.spec == "next/headers" and binding.imported == "cookies":
            return "next/headers", prop, STORE_OPS[prop]
    return None


def _emit(ctx, mod: ModuleInfo, call, seen: tuple, name, package, op, access) -> None:
    cookies, taken = seen
    line = SourceFile.line(call)
    if name not in cookies:
        cookies[name] = ctx.add_node("cookie", name, name, mod.rel, line, first_access=access)
    verb = {"read": "read", "write": "set", "delete": "delete"}[access]
    qualifier = f"{mod.rel}:{line}:cookie.{op}:{name}"
    if qualifier in taken:  # the same access twice on one line
        qualifier += f"@{call.start_point[1] + 1}"
    taken.add(qualifier)
    node = ctx.add_node(
        "sdk_call", qualifier, f"{verb} cookie {name}", mod.rel,
        line, SourceFile.end_line(call), sdk="cookie", package=package, op=op, access=access,
        resource=name, about="cookie access in code; no request of its own",
    )  # fmt: skip
    ctx.add_edge(node, cookies[name], "ACCESSES", mod.rel, line, access=access)
    ctx.add_edge(mod.enclosing(call.start_byte), node, "CALLS_FN", mod.rel, line, via="cookie")
