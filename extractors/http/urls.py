"""Static evaluation of URL expressions (JS family and Python) into templates.

A URL is a list of parts: ("lit", text), ("env", NAME) or ("param", name). Constants are
followed across imports, `process.env.X` / `import.meta.env.X` / `os.environ[...]` become env
parts, template substitutions and `encodeURIComponent(id)` that cannot be known become
`{id}` params. A URL whose *first* part is a param came from a function argument: the
caller decides (a wrapper) or it is dynamic.
"""

from __future__ import annotations

import re

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.http.destructure import destructured
from extractors.http.urlvalue import Url
from extractors.js.common import (
    dotted_name,
    modules,
    resolve_const,
    string_value,
    text,
    unwrap,
)
from extractors.js.index import local_value
from extractors.source import SourceFile, matches

MAX_DEPTH = 12
ANGULAR_ENV = re.compile(r"(^|/)environments?/environment(\.[\w-]+)?\.ts$")
_ENV_OBJECTS = {"process.env", "import.meta.env"}
_PARAM_WRAPPERS = {"encodeURIComponent", "encodeURI", "String", "Number", "escape", "quote"}
_PY_LOCALS = "(assignment left: (identifier) @n right: (_) @v)"
_FUNCTIONS = {
    "function_declaration",
    "function_expression",
    "arrow_function",
    "method_definition",
    "generator_function_declaration",
    "function_definition",  # python
}


def param(name: str) -> Url:
    return Url([("param", name)])


def enclosing_function(node: TsNode) -> TsNode | None:
    while node is not None and node.type not in _FUNCTIONS:
        node = node.parent
    return node


def parameter_names(sf: SourceFile, fn: TsNode | None) -> list[str]:
    if fn is not None and (single := fn.child_by_field_name("parameter")) is not None:
        return [text(sf, single)] if single.type == "identifier" else [""]  # `url => ...`
    params = fn.child_by_field_name("parameters") if fn is not None else None
    names = []
    for p in params.named_children if params else []:
        target = p.child_by_field_name("pattern") or p.child_by_field_name("name") or p
        names.append(text(sf, target) if target.type == "identifier" else "")
    return names


class Evaluator:
    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.choice: dict[int, int] = {}  # ternary start byte -> branch (choices.py)
        self._py_locals: dict[tuple[str, int, int], dict[str, list[TsNode]]] = {}

    def _py_local(self, sf: SourceFile, at: TsNode, name: str) -> TsNode | None:
        """The last `name = value` before `at` in its Python function (one query per function)."""
        fn = enclosing_function(at)
        if fn is None:
            return None
        key = (sf.rel, fn.start_byte, fn.end_byte)
        if key not in self._py_locals:
            found: dict[str, list[TsNode]] = {}
            for _, m in matches("python", _PY_LOCALS, fn):
                found.setdefault(text(sf, m["n"][0]), []).append(m["v"][0])
            self._py_locals[key] = found
        earlier = [v for v in self._py_locals[key].get(name, []) if v.start_byte < at.start_byte]
        return max(earlier, key=lambda v: v.start_byte) if earlier else None

    # ---- JavaScript / TypeScript ----
    def js(self, sf: SourceFile, node: TsNode | None, depth: int = 0) -> Url | None:
        node = unwrap(node)
        if node is None or depth > MAX_DEPTH:
            return None
        kind = node.type
        if kind == "string":
            return Url([("lit", string_value(sf, node) or "")])
        if kind == "template_string":
            url = Url()
            for child in node.named_children:
                if child.type == "template_substitution":
                    inner = child.named_children[0] if child.named_children else None
                    url.add(self.js(sf, inner, depth + 1) or param(_param_name(sf, inner)))
                else:
                    url.parts.append(("lit", text(sf, child)))
            return url
        if kind == "binary_expression":
            op = text(sf, node.child_by_field_name("operator"))
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if op in {"??", "||"}:
                return self.js(sf, left, depth + 1) or self.js(sf, right, depth + 1)
            if op == "+":
                first = self.js(sf, left, depth + 1) or param(_param_name(sf, left))
                return first.add(self.js(sf, right, depth + 1) or param(_param_name(sf, right)))
            return None
        if kind in {"member_expression", "subscript_expression"}:
            return self._js_member(sf, node, depth)
        if kind == "ternary_expression" and node.start_byte in self.choice:
            field = "alternative" if self.choice[node.start_byte] else "consequence"
            return self.js(sf, node.child_by_field_name(field), depth + 1)
        if kind == "identifier":
            return self._js_identifier(sf, node, depth)
        if kind == "call_expression":
            callee = node.child_by_field_name("function")
            name = dotted_name(sf, callee) or ""
            args = node.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            if name.split(".")[-1] in _PARAM_WRAPPERS:
                return self.js(sf, first, depth + 1) or param(_param_name(sf, first))
            if callee is not None and callee.type == "member_expression":
                prop = text(sf, callee.child_by_field_name("property"))
                if prop in {"replace", "replaceAll", "toString", "trim"}:  # '/r/{id}'.replace(...)
                    return self.js(sf, callee.child_by_field_name("object"), depth + 1)
        if kind == "new_expression" and text(sf, node.child_by_field_name("constructor")) == "URL":
            args = node.child_by_field_name("arguments")
            items = args.named_children if args is not None else []
            path = self.js(sf, items[0], depth + 1) if items else None
            base = self.js(sf, items[1], depth + 1) if len(items) > 1 else None
            return join(base, path) if base and path else path
        return None

    def _js_member(self, sf: SourceFile, node: TsNode, depth: int) -> Url | None:
        obj = node.child_by_field_name("object")
        obj_text = text(sf, obj).replace(" ", "")
        if obj_text in _ENV_OBJECTS:
            if node.type == "member_expression":
                name = text(sf, node.child_by_field_name("property"))
            else:
                name = string_value(sf, node.child_by_field_name("index")) or ""
            return Url([("env", name)], {"env"}).named(name) if name else None
        dotted = dotted_name(sf, node)
        if dotted is None or dotted.count(".") != 1:
            return None
        head, prop = dotted.split(".")
        found = resolve_const(self.ctx, sf.rel, head)  # config object: `API.base`
        value = unwrap(found[1]) if found else None
        if value is not None and value.type == "object":
            from extractors.js.common import object_props

            if ANGULAR_ENV.search(found[0].rel):  # one value per build configuration
                return Url([("env", f"environment.{prop}")], {"angular-env"}).named(dotted)
            inner = object_props(found[0], value).get(prop)
            url = self.js(found[0], inner, depth + 1) if inner is not None else None
            url = _via(url, "constant")
            if url is None or url.starts_with_param:
                return url
            return url.named(dotted, _at(found[0], inner))
        return None

    def _js_identifier(self, sf: SourceFile, node: TsNode, depth: int) -> Url | None:
        name = text(sf, node)
        local = local_value(self.ctx, sf, node, name)
        if local is not None:
            return self.js(sf, local, depth + 1)
        if name in parameter_names(sf, enclosing_function(node)):
            return param(name)
        mod = modules(self.ctx).get(sf.rel)
        if mod is not None and name in mod.env_names:
            return Url([("env", mod.env_names[name])], {"env"}).named(mod.env_names[name])
        unpacked = destructured(self, sf, node, name, depth)
        if unpacked is not None:
            return unpacked
        found = resolve_const(self.ctx, sf.rel, name)
        if found is not None:
            url = _via(self.js(found[0], found[1], depth + 1), "constant")
            if url is None or url.starts_with_param:
                return url
            return url.named(name, _at(found[0], found[1]))
        return None

    # ---- Python ----
    def py(self, sf: SourceFile, node: TsNode | None, depth: int = 0) -> Url | None:
        while node is not None and node.type == "parenthesized_expression":
            node = node.named_children[0] if node.named_children else None
        if node is None or depth > MAX_DEPTH:
            return None
        kind = node.type
        if kind == "string":
            url = Url()
            for child in node.named_children:
                if child.type == "string_content":
                    url.parts.append(("lit", text(sf, child)))
                elif child.type == "interpolation":
                    inner = child.child_by_field_name("expression")
                    url.add(self.py(sf, inner, depth + 1) or param(_param_name(sf, inner)))
            return url
        if kind == "concatenated_string":
            url = Url()
            for child in node.named_children:
                url.add(self.py(sf, child, depth + 1) or Url())
            return url
        if kind == "binary_operator" and text(sf, node.child_by_field_name("operator")) == "+":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            first = self.py(sf, left, depth + 1) or param(_param_name(sf, left))
            return first.add(self.py(sf, right, depth + 1) or param(_param_name(sf, right)))
        if kind == "boolean_operator":
            return self.py(sf, node.child_by_field_name("left"), depth + 1)
        if kind in {"subscript", "call"}:
            env = py_env_name(sf, node)
            if env:
                return Url([("env", env)], {"env"}).named(env)
        if kind == "attribute" and text(sf, node.child_by_field_name("object")) == "self":
            value = py_self_attr(sf, node, text(sf, node.child_by_field_name("attribute")))
            url = self.py(sf, value, depth + 1) if value is not None else None
            return url.named(text(sf, node)) if url and not url.starts_with_param else url
        if kind == "identifier":
            name = text(sf, node)
            local = self._py_local(sf, node, name)
            if local is not None:
                return self.py(sf, local, depth + 1)
            if name in parameter_names(sf, enclosing_function(node)):
                return param(name)
            value = py_module_const(sf, name)
            return _via(self.py(sf, value, depth + 1), "constant") if value is not None else None
        return None


def py_self_attr(sf: SourceFile, at: TsNode, name: str) -> TsNode | None:
    """The value of `self.<name> = value` in the enclosing class (class-level `name = value`
    too): a client's base set once in `__init__`."""
    cls = at.parent
    while cls is not None and cls.type != "class_definition":
        cls = cls.parent
    if cls is None:
        return None
    body = cls.child_by_field_name("body")
    stack = [body]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if node.type == "assignment":
            left = text(sf, node.child_by_field_name("left"))
            own = left == name and node.parent is not None and node.parent.parent == body
            if (left == f"self.{name}" or own) and node.child_by_field_name("right") is not None:
                return node.child_by_field_name("right")
        stack.extend(reversed(node.named_children))
    return None


def py_env_name(sf: SourceFile, node: TsNode) -> str | None:
    """`os.environ["X"]`, `os.environ.get("X")`, `os.getenv("X")` → X."""
    if node.type == "subscript":
        if text(sf, node.child_by_field_name("value")) in {"os.environ", "environ"}:
            key = node.child_by_field_name("subscript")
            return _py_plain(sf, key)
        return None
    fn = text(sf, node.child_by_field_name("function"))
    if fn in {"os.environ.get", "environ.get", "os.getenv", "getenv"}:
        args = node.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        return _py_plain(sf, first)
    return None


def _py_plain(sf: SourceFile, node: TsNode | None) -> str | None:
    if node is None or node.type != "string":
        return None
    return "".join(text(sf, c) for c in node.named_children if c.type == "string_content")


def py_module_const(sf: SourceFile, name: str) -> TsNode | None:
    for stmt in sf.tree.root_node.named_children:
        expr = stmt.named_children[0] if stmt.type == "expression_statement" else stmt
        if expr is not None and expr.type == "assignment":
            left = expr.child_by_field_name("left")
            if left is not None and text(sf, left) == name:
                return expr.child_by_field_name("right")
    return None


def _param_name(sf: SourceFile, node: TsNode | None) -> str:
    node = unwrap(node)
    if node is None:
        return "param"
    if node.type in {"identifier", "property_identifier"}:
        return text(sf, node)
    if node.type in {"member_expression", "attribute"}:
        last = node.child_by_field_name("property") or node.child_by_field_name("attribute")
        return text(sf, last) if last is not None else "param"
    if node.type in {"call_expression", "call"}:
        args = node.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        name = _param_name(sf, first) if first is not None else "param"
        return name if name != "param" else _param_name(sf, node.child_by_field_name("function"))
    return "param"


def _at(sf: SourceFile, node: TsNode) -> tuple[str, int, int]:
    return sf.rel, node.start_point[0] + 1, node.start_byte


def _via(url: Url | None, how: str) -> Url | None:
    if url is not None:
        url.via.add(how)
    return url


def join(base: Url | None, path: Url) -> Url:
    """axios/ky/httpx semantics: exactly one slash between a base and a relative path."""
    if base is None or not base.parts:
        return path
    head = Url(list(base.parts), set(base.via), len(base.parts), base.base_name, base.origin)
    if path.parts and path.parts[0][0] == "lit" and "://" in path.parts[0][1]:
        return path  # an absolute URL ignores the base
    left = head.parts[-1][1] if head.parts[-1][0] == "lit" else ""
    right = path.parts[0][1] if path.parts and path.parts[0][0] == "lit" else ""
    parts = list(path.parts)
    if left.endswith("/") and right.startswith("/"):
        parts[0] = ("lit", right[1:])
    elif not left.endswith("/") and not right.startswith("/") and parts:
        parts.insert(0, ("lit", "/"))
    head.parts += parts
    head.via |= path.via
    return head
