"""The Python adapter. Scopes: module, function, lambda, class body (not seen from the
methods inside it, as Python rules), comprehension; a `for` target is a loop variable
bound by its loop. Queries are in `queries/python.scm`."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from tree_sitter import Node as TsNode

from extractors.lang.base import Binding, ClassInfo, FileAdapter, FunctionInfo
from extractors.lang.expr import (
    EArray,
    EBinary,
    ECall,
    EClass,
    ECond,
    EConst,
    EFunc,
    EIndex,
    ELogical,
    EMember,
    EName,
    Entry,
    EObject,
    EStr,
    ETemplate,
    EUnknown,
    Expr,
)
from extractors.source import matches

QUERY = (Path(__file__).parent / "queries" / "python.scm").read_text(encoding="utf-8")
FUNCTIONS = {"function_definition", "lambda"}
COMPREHENSIONS = {
    "list_comprehension",
    "dictionary_comprehension",
    "set_comprehension",
    "generator_expression",
}
SCOPES = FUNCTIONS | COMPREHENSIONS | {"module", "class_definition", "for_statement"}
CONSTANTS = {"true": True, "false": False, "none": None}
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


class PyFile(FileAdapter):
    family = "py"

    # --- expressions --------------------------------------------------------------
    def unwrap(self, node: TsNode) -> TsNode:
        while node.type in {"parenthesized_expression", "await"} and node.named_children:
            node = node.named_children[0]
        return node

    def read_view(self, node: TsNode) -> Expr:
        kind = node.type
        while kind in {"parenthesized_expression", "await"} and node.named_children:
            node = node.named_children[0]
            kind = node.type
        if kind == "string":
            parts = self._string_parts(node)
            if all(isinstance(p, str) for p in parts):
                return EStr("".join(parts))  # type: ignore[arg-type]
            return ETemplate(parts)
        if kind == "concatenated_string":
            parts: list = []
            for child in node.named_children:
                if child.type == "string":
                    parts += self._string_parts(child)
            return ETemplate(parts)
        if kind == "integer":
            try:
                return EConst(int(self.text(node).replace("_", ""), 0))
            except ValueError:
                return EConst(self.text(node))
        if kind == "float":
            return EConst(self.text(node))
        if kind in CONSTANTS:
            return EConst(CONSTANTS[kind])
        if kind == "identifier":
            return EName(self.text(node))
        if kind == "attribute":
            obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
            if obj is None or attr is None:
                return EUnknown("attribute")
            return EMember(obj, self.text(attr))
        if kind == "subscript":
            obj, index = node.child_by_field_name("value"), node.child_by_field_name("subscript")
            if obj is None or index is None:
                return EUnknown("subscript")
            return EIndex(obj, index)
        if kind == "call":
            return self._call(node)
        if kind == "binary_operator":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            op = self.text(node.child_by_field_name("operator"))
            if left is None or right is None:
                return EUnknown("binary")
            return EBinary(op, left, right)
        if kind == "boolean_operator":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            op = self.text(node.child_by_field_name("operator"))
            if left is None or right is None:
                return EUnknown("boolean")
            return ELogical(op, left, right)
        if kind == "conditional_expression":
            parts = [c for c in node.named_children if c.type != "comment"]
            if len(parts) != 3:
                return EUnknown("conditional")
            return ECond(parts[1], parts[0], parts[2])
        if kind == "dictionary":
            entries = []
            for child in node.named_children:
                if child.type == "pair":
                    key, value = (
                        child.child_by_field_name("key"),
                        child.child_by_field_name("value"),
                    )
                    if key is not None and value is not None:
                        label = self.view(key)
                        entries.append(
                            Entry(label.value if isinstance(label, EStr) else None, value)
                        )
                elif child.type == "dictionary_splat" and child.named_children:
                    entries.append(Entry(None, child.named_children[0], "spread"))
            return EObject(entries)
        if kind in {"list", "tuple", "set"}:
            items, spreads = [], []
            for child in node.named_children:
                if child.type == "list_splat" and child.named_children:
                    spreads.append(child.named_children[0])
                elif child.type != "comment":
                    items.append(child)
            return EArray(items, spreads)
        if kind in ("lambda", "function_definition"):
            return EFunc(node)
        if kind == "class_definition":
            return EClass(node)
        if kind == "decorated_definition":
            inner = node.child_by_field_name("definition")
            return self.view(inner) if inner is not None else EUnknown(kind)
        return EUnknown(kind)

    def _string_parts(self, node: TsNode) -> list:
        start = next((c for c in node.children if c.type == "string_start"), None)
        prefix = self.text(start).lower() if start is not None else ""
        formatted = "f" in prefix.rstrip("'\"")
        out: list = []
        for child in node.named_children:
            if child.type == "string_content":
                out.append(self.text(child))
            elif child.type == "escape_sequence":
                raw = self.text(child)
                out.append(ESCAPES.get(raw[1:], raw[1:]) if len(raw) == 2 else raw)
            elif child.type == "interpolation" and formatted:
                inner = child.child_by_field_name("expression")
                if inner is not None:
                    out.append(inner)
        return out

    def _call(self, node: TsNode) -> ECall | EUnknown:
        callee = node.child_by_field_name("function")
        args_node = node.child_by_field_name("arguments")
        if callee is None:
            return EUnknown("call")
        args, kwargs, spread, kwspread = [], {}, False, []
        for child in args_node.named_children if args_node is not None else []:
            if child.type == "keyword_argument":
                name, value = child.child_by_field_name("name"), child.child_by_field_name("value")
                if name is not None and value is not None:
                    kwargs[self.text(name)] = value
            elif child.type == "list_splat":  # `*args`: expanded when the list is known
                spread = True
                args.append(child)
            elif child.type == "dictionary_splat" and child.named_children:
                spread = True  # `**kwargs`: keywords read from it when it is a known dict
                kwspread.append(child.named_children[0])
            elif child.type != "comment":
                args.append(child)
        return ECall(callee, args, kwargs, False, spread, kwspread)

    # --- the file's index -----------------------------------------------------------
    @cached_property
    def _index(self) -> dict[str, list]:
        found: dict[str, list] = {
            "calls": [], "dec": [], "assign": [], "aug": [], "fn": [], "cls": [], "loop": [],
            "comp": [], "walrus": [], "import": [], "with": [],
        }  # fmt: skip
        plan = [("calls", "call"), ("dec", "dec"), ("assign", "assign"), ("aug", "aug"),
                ("fn", "fn"), ("cls", "cls"), ("loop", "loop"), ("comp", "comp"),
                ("walrus", None), ("import", "import"), ("import", "import"),
                ("with", "with")]  # fmt: skip
        for pattern, m in matches("python", QUERY, self.root):
            key, capture = plan[pattern]
            if capture is None:
                found[key].append((m["left"][0], m["value"][0]))
            else:
                found[key].append(m[capture][0])
        found["calls"].sort(key=lambda n: n.start_byte)
        return found

    @cached_property
    def _scopes(self) -> dict[tuple[int, int], dict[str, list[Binding]]]:
        tables: dict[tuple[int, int], dict[str, list[Binding]]] = {}

        def add(binding: Binding) -> None:
            key = (binding.scope.start_byte, binding.scope.end_byte)
            tables.setdefault(key, {}).setdefault(binding.name, []).append(binding)

        index = self._index
        for assign in index["assign"]:
            left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
            if right is not None and right.type == "assignment":  # a = b = value
                inner = right
                while inner is not None and inner.type == "assignment":
                    right = inner.child_by_field_name("right")
                    inner = right
            scope = self._scope_above(assign)
            for name, path in self._targets(left, ()) if left is not None else []:
                add(Binding(name, "decl", scope, assign, right, path,
                            type=assign.child_by_field_name("type")))  # fmt: skip
        for aug in index["aug"]:
            left = aug.child_by_field_name("left")
            if left is not None:
                add(Binding(self.text(left), "assign", self._scope_above(aug), aug, None))
        for fn in index["fn"]:
            name = fn.child_by_field_name("name")
            if name is not None:
                add(Binding(self.text(name), "function", self._scope_above(fn), fn))
            for binding in self.function(fn).params:
                add(binding)
        for cls in index["cls"]:
            name = cls.child_by_field_name("name")
            if name is not None:
                add(Binding(self.text(name), "class", self._scope_above(cls), cls))
        for loop in index["loop"] + index["comp"]:
            left, right = loop.child_by_field_name("left"), loop.child_by_field_name("right")
            scope = loop if loop.type == "for_statement" else (loop.parent or loop)
            for name, path in self._targets(left, ()) if left is not None else []:
                add(Binding(name, "loop", scope, loop, right, path))
        for left, value in index["walrus"]:
            add(Binding(self.text(left), "decl", self._scope_above(left), left, value))
        for item in index["with"]:  # `with Client(base_url=…) as client`: what __enter__
            pattern = item.child_by_field_name("value")  # returns, the manager itself by default
            value = (
                pattern.named_children[0]
                if pattern is not None and pattern.named_children
                else None
            )
            target = pattern.child_by_field_name("alias") if pattern is not None else None
            name = (
                target.named_children[0] if target is not None and target.named_children else None
            )
            if name is not None and value is not None:
                add(Binding(self.text(name), "decl", self._scope_above(item), item, value))
        for stmt in index["import"]:
            scope = self._scope_above(stmt)
            for name, module, imported in self._imported_names(stmt):
                add(Binding(name, "import", scope, stmt, None, (module, imported)))
        return tables

    def _imported_names(self, stmt: TsNode) -> list[tuple[str, str, str | None]]:
        """(local name, module, imported name or None for the module itself)."""
        out = []
        source = (
            stmt.child_by_field_name("module_name")
            if stmt.type == "import_from_statement"
            else None
        )
        module = self.text(source) if source is not None else ""
        for child in stmt.named_children:
            if child == source:
                continue
            if child.type == "aliased_import":
                alias, real = child.child_by_field_name("alias"), child.child_by_field_name("name")
                if alias is not None and real is not None:
                    if source is None:
                        out.append((self.text(alias), self.text(real), None))
                    else:
                        out.append((self.text(alias), module, self.text(real)))
            elif child.type == "dotted_name":
                if source is None:  # `import a.b` binds `a`
                    head = self.text(child).split(".")[0]
                    out.append((head, head, None))
                else:
                    out.append((self.text(child), module, self.text(child)))
        return out

    def _scope_above(self, node: TsNode) -> TsNode:
        parent = node.parent
        while parent is not None:
            if parent.type in FUNCTIONS or parent.type in {"module", "class_definition"}:
                return parent
            parent = parent.parent
        return self.root

    def _targets(self, node: TsNode, path: tuple) -> list[tuple[str, tuple]]:
        if node.type == "identifier":
            return [(self.text(node), path)]
        if node.type in {"pattern_list", "tuple_pattern", "list_pattern", "tuple", "list"}:
            out = []
            for i, child in enumerate(c for c in node.named_children if c.type != "comment"):
                if child.type == "list_splat_pattern" and child.named_children:
                    out += self._targets(child.named_children[0], path + ("...",))
                else:
                    out += self._targets(child, path + (i,))
            return out
        return []

    def resolve(self, name: str, at: TsNode) -> Binding | None:
        node: TsNode | None = at
        first = True
        while node is not None:
            kind = node.type
            if kind in SCOPES and not (kind == "class_definition" and not first):
                found = self._scopes.get((node.start_byte, node.end_byte), {}).get(name)
                if found:
                    return found[0]
            if kind in FUNCTIONS:
                first = False  # class bodies above a function are not its scope
            node = node.parent
        return None

    def bindings(self, binding: Binding) -> list[Binding]:
        key = (binding.scope.start_byte, binding.scope.end_byte)
        return self._scopes.get(key, {}).get(binding.name, [binding])

    def calls(self) -> list[TsNode]:
        return self._index["calls"]

    def terminal(self, callee: TsNode) -> str | None:
        if callee.type == "identifier":
            return self.text(callee)
        if callee.type == "attribute":
            attr = callee.child_by_field_name("attribute")
            return self.text(attr) if attr is not None else None
        return None

    # --- functions and classes ------------------------------------------------------
    def is_function(self, node: TsNode) -> bool:
        return node.type in FUNCTIONS

    def read_function(self, node: TsNode) -> FunctionInfo:
        params = node.child_by_field_name("parameters")
        bindings, position = [], 0
        for child in params.named_children if params is not None else []:
            kind = child.type
            if kind in {"keyword_separator", "positional_separator", "comment"}:
                continue
            name_node, default, annotation = child, None, None
            if kind in {"default_parameter", "typed_default_parameter"}:
                name_node = child.child_by_field_name("name") or child
                default = child.child_by_field_name("value")
                annotation = child.child_by_field_name("type")
            elif kind == "typed_parameter":
                name_node = next((c for c in child.named_children if c.type == "identifier"), child)
                annotation = child.child_by_field_name("type")
            elif (
                kind in {"list_splat_pattern", "dictionary_splat_pattern"} and child.named_children
            ):
                name_node = child.named_children[0]
            if name_node.type == "identifier":
                bindings.append(Binding(self.text(name_node), "param", node, child, None, (),
                                        position, default, annotation))  # fmt: skip
            position += 1
        decorators = []
        parent = node.parent
        if parent is not None and parent.type == "decorated_definition":
            decorators = [
                self._decorator_expr(d) for d in parent.named_children if d.type == "decorator"
            ]
        name = node.child_by_field_name("name")
        is_method = self.class_of_method(node) is not None
        return FunctionInfo(node, self.text(name) if name is not None else "", bindings,
                            node.child_by_field_name("body"), is_method, decorators)  # fmt: skip

    def returns(self, info: FunctionInfo) -> list[TsNode]:
        if info._returns is None:
            body = info.body
            if body is None:
                info._returns = []
            elif info.node.type == "lambda":
                info._returns = [body]
            else:
                found = []
                for _, m in matches("python", "(return_statement) @r", body):
                    ret = m["r"][0]
                    if self.function_at(ret) == info.node and ret.named_children:
                        found.append(ret.named_children[0])
                info._returns = found
        return info._returns

    def _decorator_expr(self, decorator: TsNode) -> TsNode:
        inner = [c for c in decorator.named_children if c.type != "comment"]
        return inner[0] if inner else decorator

    def read_class(self, node: TsNode) -> ClassInfo | None:
        if node.type != "class_definition":
            return None
        name = node.child_by_field_name("name")
        supers = node.child_by_field_name("superclasses")
        bases = [c for c in supers.named_children if c.type != "keyword_argument"] if supers else []
        parent = node.parent
        decorators = []
        if parent is not None and parent.type == "decorated_definition":
            decorators = [
                self._decorator_expr(d) for d in parent.named_children if d.type == "decorator"
            ]
        methods, fields, types, method_decorators = {}, {}, {}, {}
        body = node.child_by_field_name("body")
        for stmt in body.named_children if body is not None else []:
            target = stmt
            decos: list[TsNode] = []
            if stmt.type == "decorated_definition":
                decos = [
                    self._decorator_expr(d) for d in stmt.named_children if d.type == "decorator"
                ]
                target = stmt.child_by_field_name("definition") or stmt
            if target.type == "function_definition":
                label = target.child_by_field_name("name")
                if label is not None:
                    methods[self.text(label)] = target
                    method_decorators[self.text(label)] = decos
            else:
                assign = stmt.named_children[0] if stmt.type == "expression_statement" else stmt
                if assign is not None and assign.type == "assignment":
                    left = assign.child_by_field_name("left")
                    if left is not None and left.type == "identifier":
                        right = assign.child_by_field_name("right")
                        annotation = assign.child_by_field_name("type")
                        if right is not None:
                            fields[self.text(left)] = right
                        if annotation is not None:
                            types[self.text(left)] = annotation
        return ClassInfo(node, self.text(name) if name is not None else "", bases, decorators,
                         methods, fields, types, method_decorators)  # fmt: skip

    def class_of_method(self, fn: TsNode) -> TsNode | None:
        parent = fn.parent
        if parent is not None and parent.type == "decorated_definition":
            parent = parent.parent
        if parent is not None and parent.type == "block":
            owner = parent.parent
            if owner is not None and owner.type == "class_definition":
                return owner
        return None

    def member_assignments(self) -> list[tuple[TsNode, TsNode]]:
        out = []
        for assign in self._index["assign"]:
            left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
            if left is not None and right is not None and left.type in {"attribute", "subscript"}:
                out.append((left, right))
        return out

    def decorated(self) -> list[tuple[TsNode, TsNode]]:
        out = []
        for decorator in self._index["dec"]:
            parent = decorator.parent
            if parent is None or parent.type != "decorated_definition":
                continue
            target = parent.child_by_field_name("definition")
            if target is not None:
                out.append((self._decorator_expr(decorator), target))
        return out

    def bindings_of_loop(self, loop: TsNode) -> list[Binding]:
        """The variables a loop binds (with their destructuring paths)."""
        table = self._scopes.get((loop.start_byte, loop.end_byte), {})
        return [b for found in table.values() for b in found if b.kind == "loop" and b.node == loop]

    def loop_binding(self, binding: Binding) -> tuple[TsNode, TsNode | None] | None:
        if binding.kind != "loop":
            return None
        return binding.node, binding.node.child_by_field_name("body")
