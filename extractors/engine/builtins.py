"""What the languages' own libraries do to values: `+` and `%`, `||` / `??` / `or`, path and
URL joins (`path.join`, `new URL(p, base)`, `os.path.join`, `urljoin`, `Path(a) / b`),
string methods (`concat`, `format`, `join`, `replace`, `trim`), `encodeURIComponent` and
`String()` / `str()` (a hole stays a hole), `Object.entries/keys/values` (for loops).
Framework and client libraries are models, not here."""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from extractors.engine.values import (
    STRINGISH,
    ArrLit,
    Choice,
    Concat,
    Config,
    Env,
    Ext,
    Lit,
    Method,
    Obj,
    ObjLit,
    Typed,
    Unknown,
    Value,
    choice,
    concat,
)

if TYPE_CHECKING:
    from extractors.engine.protocols import EvaluatedCall as Call
    from extractors.engine.protocols import Evaluates as Evaluator

JOINS = {
    "path.join", "path.posix.join", "node:path.join", "path.resolve", "node:path.resolve",
    "os.path.join", "posixpath.join", "url.resolve", "urllib.parse.urljoin", "urlparse.urljoin",
    "requests.compat.urljoin", "<global>.urljoin",
}  # fmt: skip
# Listing a folder (https://nodejs.org/api/fs.html#fsreaddirsyncpath-options,
# https://docs.python.org/3/library/os.html#os.listdir): the names of the component's files
# and folders in it, when the folder is known (`path.join(__dirname, 'routes')`)
LIST_FOLDER = {"fs.readdirSync", "node:fs.readdirSync", "os.listdir"}
DIRNAME = {"os.path.dirname", "posixpath.dirname", "path.dirname", "node:path.dirname"}
# ECMAScript's keyed collections: what `get`, `set`, `has` and `delete` on one read or change
# is the collection, never the network (https://tc39.es/ecma262/#sec-keyed-collections)
COLLECTIONS = {"<global>.Map", "<global>.Set", "<global>.WeakMap", "<global>.WeakSet"}
# The page's own origin (https://developer.mozilla.org/en-US/docs/Web/API/Location/origin):
# a URL built on it is a same-origin URL, which a relative path already says
# (`new URL("/api/x", location.origin)` is `/api/x`).
SAME_ORIGIN = {
    f"<global>.{holder}location.origin"
    for holder in ("", "window.", "self.", "document.", "globalThis.", "window.document.")
}
IDENTITY = {
    "<global>.encodeURIComponent", "<global>.encodeURI", "<global>.String", "<global>.str",
    "urllib.parse.quote", "<global>.decodeURIComponent", "<global>.Promise.resolve",
}  # fmt: skip
STRING_KEEP = {"trim", "toString", "toLowerCase", "toUpperCase", "strip", "lower", "upper",
               "rstrip", "lstrip", "valueOf", "trimEnd", "trimStart"}  # fmt: skip
CASES = {"lower": str.lower, "upper": str.upper, "toLowerCase": str.lower,
         "toUpperCase": str.upper}  # fmt: skip
# what a literal text says of another one: JS's and Python's tests and searches
QUERIES = {"startsWith": str.startswith, "endsWith": str.endswith, "startswith": str.startswith,
           "endswith": str.endswith, "includes": str.__contains__, "indexOf": str.find,
           "lastIndexOf": str.rfind, "find": str.find, "rfind": str.rfind}  # fmt: skip
# comparisons of two literals of one type (JS's loose `1 == "1"` is left undecided)
COMPARE = {"==": lambda a, b: a == b, "===": lambda a, b: a == b, "!=": lambda a, b: a != b,
           "!==": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
           ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}  # fmt: skip
# a literal trimmed: Python's strip family with the characters given (whitespace without),
# JS's trim family (whitespace)
STRIPS = {"strip": str.strip, "rstrip": str.rstrip, "lstrip": str.lstrip, "trim": str.strip,
          "trimEnd": str.rstrip, "trimStart": str.lstrip}  # fmt: skip


def compared(op: str, left: Value, right: Value) -> bool | None:
    """Two literals of one type compared (`method == "GET"`, `i < 3`), else None: JS's loose
    `1 == "1"`, a null, or a value not known is left undecided."""
    if op not in COMPARE or not isinstance(left, Lit) or not isinstance(right, Lit):
        return None
    a, b = left.value, right.value
    if a is None or b is None or not (type(a) is type(b) or {type(a), type(b)} <= {int, float}):
        return None
    return COMPARE[op](a, b)


def truthy(value: Value) -> bool | None:
    """Whether a value is certainly truthy (True), certainly falsy (False), or unknown."""
    if isinstance(value, Lit):
        return bool(value.value)
    if isinstance(value, (ObjLit, ArrLit)):
        return True
    if isinstance(value, Concat) and any(  # text with a non-empty literal part
        isinstance(p, Lit) and isinstance(p.value, str) and p.value for p in value.parts
    ):
        return True
    return None


def logical(op: str, left: Value, right: Value) -> Value:
    if op == "and":
        sure = truthy(left)
        return right if sure else left if sure is False else right
    sure = truthy(left)
    if sure is True or (op == "??" and isinstance(left, Lit) and left.value is not None):
        return left
    if (
        sure is False
        and op == "or"
        or (op == "??" and isinstance(left, Lit) and left.value is None)
    ):
        return right
    if isinstance(left, Env) and left.default is None:
        return Env(left.name, right, left.via)  # `process.env.X || 'default'`
    if isinstance(left, Config) and left.default is None:
        return Config(left.key, left.source, right)
    return choice([left, right])


def texty(value: Value) -> bool:
    """Certainly text: a string literal, or a concatenation with one (`'/a/' + x`)."""
    if isinstance(value, Lit):
        return isinstance(value.value, str)
    return isinstance(value, Concat) and any(texty(p) for p in value.parts)


def binary(op: str, left: Value, right: Value, expr: str) -> Value:
    if op == "+":
        numbers = isinstance(left, Lit) and isinstance(right, Lit)
        if numbers and all(isinstance(v.value, (int, float)) for v in (left, right)):
            return Lit(left.value + right.value)  # type: ignore[union-attr]
        if isinstance(left, STRINGISH) and isinstance(right, STRINGISH):
            return concat(left, right)
        return Unknown(expr[:120], "sum of values not known to be strings")
    decided = compared(op, left, right)
    if decided is not None:
        return Lit(decided)
    numeric = isinstance(left, Lit) and isinstance(left.value, (int, float))
    if op == "/" and isinstance(left, STRINGISH) and isinstance(right, STRINGISH) and not numeric:
        return join_paths([left, right])  # pathlib: Path(a) / "b"
    if op == "%" and isinstance(left, Lit) and isinstance(left.value, str):
        items = list(right.items) if isinstance(right, ArrLit) else [right]
        return percent_format(left.value, items)
    return Unknown(expr[:120], f"operator {op}")


def same_origin(value: Value | None) -> bool:
    """The page's own origin (`window.location.origin`): empty text before a path."""
    return isinstance(value, Ext) and value.dotted in SAME_ORIGIN


def folder_entries(ev: Evaluator, rel: str, folder: Value | None) -> Value:
    """The names directly inside a folder of the component, sorted: the folder written
    from the file's own (`__dirname`, `os.path.dirname(__file__)`) or from the component's
    root (the working directory a server starts in)."""
    if not isinstance(folder, Lit) or not isinstance(folder.value, str):
        return Unknown("readdir", "a folder not known statically")
    inside = posixpath.normpath(folder.value.lstrip("/")).removeprefix("./")
    inside = "" if inside == "." else inside
    names = sorted({f[len(inside) + 1 :].split("/", 1)[0] if inside else f.split("/", 1)[0]
                    for f in ev.program.ctx.files if not inside or f.startswith(inside + "/")})  # fmt: skip
    if not names:
        return Unknown("readdir", f"no folder {inside or '.'} in the component")
    return ArrLit(tuple(Lit(n) for n in names))


def _imported_module(ev: Evaluator, c: Call) -> Value:
    """`importlib.import_module("app.routers.kites")`, or a relative name with its
    package (`import_module(".kites", __package__)`): the component's module."""
    name, package = c.arg(0), c.arg(1) if len(c.view.args) > 1 else c.kwarg("package")
    if not isinstance(name, Lit) or not isinstance(name.value, str):
        return Unknown("import_module", "a module name not known statically")
    dotted = name.value
    if dotted.startswith("."):
        if not isinstance(package, Lit) or not isinstance(package.value, str):
            return Unknown("import_module", "a relative module name without its package")
        dotted = package.value + dotted
    found = ev.program.import_name(ev, dotted)
    return found if found is not None else Ext(dotted)


def join_paths(parts: list[Value]) -> Value:
    """`a/b` from path pieces: one slash between pieces, whether a piece is a literal or text
    that begins with one (`f"/skus/{sku}"`), and a hole between pieces stands for text."""
    out: list[Value] = []
    for part in parts:
        if out:
            tail = _edge_text(out[-1], -1)
            part = _without_leading_slashes(part)
            if tail is None or not tail.endswith("/"):
                out.append(Lit("/"))
        out.append(part)
    return concat(*out)


def _edge_text(value: Value, end: int) -> str | None:
    """The literal text a value begins (`end` 0) or ends (-1) with, None for a hole."""
    if isinstance(value, Concat):
        value = value.parts[end]
    return value.value if isinstance(value, Lit) and isinstance(value.value, str) else None


def _without_leading_slashes(value: Value) -> Value:
    head = _edge_text(value, 0)
    if head is None or not head.startswith("/"):
        return value
    if isinstance(value, Concat):
        return concat(Lit(head.lstrip("/")), *value.parts[1:])
    return Lit(head.lstrip("/"))


def percent_format(template: str, items: list[Value]) -> Value:
    parts: list[Value] = []
    chunks = template.split("%s")
    for i, chunk in enumerate(chunks):
        parts.append(Lit(chunk.replace("%%", "%")))
        if i < len(chunks) - 1:
            parts.append(items[i] if i < len(items) else Unknown("%s", "missing argument"))
    return concat(*parts)


def brace_format(template: str, call: Call) -> Value:
    """`'{}/{name}'.format(a, name=b)`."""
    parts: list[Value] = []
    i, auto = 0, 0
    while i < len(template):
        j = template.find("{", i)
        if j < 0 or j + 1 >= len(template):
            parts.append(Lit(template[i:]))
            break
        if template[j + 1] == "{":
            parts.append(Lit(template[i : j + 1]))
            i = j + 2
            continue
        k = template.find("}", j)
        if k < 0:
            parts.append(Lit(template[i:]))
            break
        parts.append(Lit(template[i:j]))
        field = template[j + 1 : k].split(":")[0].split("!")[0]
        if field == "":
            value = call.arg(auto)
            auto += 1
        elif field.isdigit():
            value = call.arg(int(field))
        else:
            value = call.kwarg(field)
        parts.append(value if value is not None else Unknown("{" + field + "}", "format field"))
        i = k + 1
    return concat(*parts)


def call(ev: Evaluator, c: Call) -> Value | None:
    callee = c.callee
    if isinstance(callee, Ext):
        dotted = callee.dotted
        if dotted == "<global>.require" and c.view.args:
            spec = c.arg(0)
            if isinstance(spec, Lit) and isinstance(spec.value, str):
                return ev.program.required(ev, c.rel, spec.value)
        if dotted in JOINS:
            return join_paths([v for v in c.args() if v is not None])
        if dotted in IDENTITY and c.view.args:
            return c.arg(0)
        if dotted in {"<global>.list", "<global>.tuple"} and isinstance(c.arg(0), ArrLit):
            return c.arg(0)  # a list of a known list (`list(route.methods)[0]`)
        if dotted == "<global>.sorted" and isinstance(c.arg(0), ArrLit):
            items = c.arg(0).items  # type: ignore[union-attr]
            texts = all(isinstance(i, Lit) and isinstance(i.value, str) for i in items)
            return ArrLit(tuple(sorted(items, key=lambda i: i.value))) if texts else c.arg(0)  # type: ignore[union-attr]
        if dotted in {"<global>.URL", "url.URL"} and c.view.args:
            base = c.arg(1)
            if (
                isinstance(base, Ext) and base.dotted == "<global>.import.meta.url"
            ):  # a file beside it
                folder = c.rel.rsplit("/", 1)[0] if "/" in c.rel else ""
                base = Lit(f"file:///{folder}/")
            if same_origin(base):
                base = Lit("")
            return join_paths([base, c.arg(0)]) if base is not None else c.arg(0)  # type: ignore[list-item]
        if dotted in {"pathlib.Path", "pathlib.PurePosixPath"} and c.view.args:
            return join_paths([v for v in c.args() if v is not None])
        if dotted in LIST_FOLDER and c.view.args:  # a folder of route modules loaded in a loop
            return folder_entries(ev, c.rel, c.arg(0))
        if dotted in DIRNAME and isinstance(c.arg(0), Lit) and isinstance(c.arg(0).value, str):
            return Lit(posixpath.dirname(c.arg(0).value))  # type: ignore[union-attr]
        if dotted == "importlib.import_module" and c.view.args:
            return _imported_module(ev, c)
        if dotted in {"<global>.Object.entries", "<global>.Object.keys", "<global>.Object.values"}:
            return object_items(ev, c.arg(0), callee.path[-1])
        if dotted == "<global>.Object.assign":
            return _merged(c)
        if dotted == "<global>.getattr" and len(c.view.args) >= 2:
            return _attribute(ev, c)
        if dotted in COLLECTIONS and c.view.new:  # `new Map()`: known, and no client
            return Typed(callee, dotted)
    if isinstance(callee, Method):
        target, name = callee.target, callee.name
        if isinstance(target, STRINGISH):
            if name in CASES and isinstance(target, Lit) and isinstance(target.value, str):
                return Lit(CASES[name](target.value))
            if name in STRIPS and isinstance(target, Lit) and isinstance(target.value, str):
                chars = c.arg(0) if c.view.args else None
                if chars is None or (isinstance(chars, Lit) and isinstance(chars.value, str)):
                    return Lit(STRIPS[name](target.value, chars.value if chars else None))
            if name in STRING_KEEP:
                return target
            if name in QUERIES and isinstance(target, Lit) and isinstance(target.value, str):
                needle = c.arg(0) if len(c.view.args) == 1 else None
                if isinstance(needle, Lit) and isinstance(needle.value, str):
                    return Lit(QUERIES[name](target.value, needle.value))
            if name == "concat":
                return concat(target, *[v for v in c.args() if v is not None])
            if name == "format" and isinstance(target, Lit) and isinstance(target.value, str):
                return brace_format(target.value, c)
            if name == "join" and isinstance(target, Lit) and c.view.args:
                items = c.arg(0)
                if isinstance(items, ArrLit):
                    sep = Lit(str(target.value))
                    out: list[Value] = []
                    for i, item in enumerate(items.items):
                        out += [sep, item] if i else [item]
                    return concat(*out)
            if name in {"replace", "replaceAll"}:
                return _replace(target, c)
            affix = c.arg(0) if name in {"removesuffix", "removeprefix"} and c.view.args else None
            if isinstance(target, Lit) and isinstance(affix, Lit) and isinstance(affix.value, str):
                cut = str.removesuffix if name == "removesuffix" else str.removeprefix
                return Lit(cut(str(target.value), affix.value))  # `name.removesuffix(".py")`
            return Unknown(f"{name}()", f"string method {name}")
        if isinstance(target, ArrLit) and name == "join":
            sep = c.arg(0) if c.view.args else Lit(",")
            out = []
            for i, item in enumerate(target.items):
                out += [sep, item] if i else [item]  # type: ignore[list-item]
            return concat(*out)
        if isinstance(target, ArrLit) and name in {"concat"}:
            extra = [v for v in c.args() if v is not None]
            items = list(target.items)
            for v in extra:
                items += list(v.items) if isinstance(v, ArrLit) else [v]
            return ArrLit(tuple(items))
    return None


def _attribute(ev: Evaluator, c: Call) -> Value | None:
    """Python's `getattr(obj, "name", default)`: the member, each one when the name is a
    choice of literals (`getattr(router, "put" if flag else "post")`); the default where
    the member is not known (`getattr(settings, "API_PREFIX", "/api")` with no such
    setting, or a module reading its own name while it is first run)."""
    target, name = c.arg(0), c.arg(1)
    names = name.options if isinstance(name, Choice) else (name,)
    if target is None or not all(isinstance(n, Lit) and isinstance(n.value, str) for n in names):
        return None
    members = [ev.member(target, str(n.value), c.rel, c.node, c.depth + 1) for n in names]  # type: ignore[union-attr]
    default = c.arg(2) if len(c.view.args) >= 3 else None
    if default is not None:
        members = [default if isinstance(m, Unknown) else m for m in members]
    return choice(members, name.condition) if isinstance(name, Choice) else members[0]


def _replace(target: Value, c: Call) -> Value:
    old, new = c.arg(0), c.arg(1)
    literal = isinstance(target, Lit) and isinstance(old, Lit) and isinstance(new, Lit)
    if literal and isinstance(target.value, str) and isinstance(old.value, str):  # type: ignore[union-attr]
        return Lit(target.value.replace(old.value, str(new.value), 1))  # type: ignore[union-attr]
    return target


def object_items(ev: Evaluator, obj: Value | None, how: str) -> Value:
    """`Object.entries(o)` as `[[key, value], ...]` (keys, values likewise), for loops."""
    if isinstance(obj, Obj) and obj.props:  # a table a model made (a folder's modules)
        pick = {"keys": lambda k, v: Lit(k), "values": lambda k, v: v}
        make = pick.get(how, lambda k, v: ArrLit((Lit(k), v)))
        return ArrLit(tuple(make(k, v) for k, v in obj.props))
    if not isinstance(obj, ObjLit):
        return Unknown(how, "entries of an object not known statically")
    a = ev.program.adapter(obj.site.rel)
    node = a.node_at(obj.site) if a is not None else None
    from extractors.lang.expr import EObject

    view = a.view(node) if a is not None and node is not None else None
    if not isinstance(view, EObject):
        return Unknown(how, "object literal not found")
    items: list[Value] = []
    for entry in view.entries:
        if entry.key is None or entry.kind == "spread":
            continue
        value = ev.object_member(obj, entry.key, 1)
        if how == "keys":
            items.append(Lit(entry.key))
        elif how == "values":
            items.append(value)
        else:
            items.append(ArrLit((Lit(entry.key), value)))
    return ArrLit(tuple(items))


def _merged(c: Call) -> Value:
    values = [v for v in c.args() if v is not None]
    objects = [v for v in values if isinstance(v, ObjLit)]
    if not objects:
        return Unknown("Object.assign", "no object literal")
    first = objects[-1]
    return ObjLit(first.site, first.act, first.extra)


def collection(value: Value) -> bool:
    """An instance of a keyed collection (`new Map()`): its methods make no request."""
    return (
        isinstance(value, Typed)
        and isinstance(value.type, Ext)
        and value.type.dotted in COLLECTIONS
    )
