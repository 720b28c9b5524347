"""The JS / TS / TSX adapter (also a Vue or Svelte `<script>` block, padded in place).

Scopes are function-level (plus `for…of/in` loop variables and `catch` parameters): a name
declared twice in one function is a choice of both values, as reassignment is. Queries are
in `queries/js.scm`.
"""

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
    EThis,
    EUnknown,
    Expr,
)
from extractors.source import matches

QUERY = (Path(__file__).parent / "queries" / "js.scm").read_text(encoding="utf-8")
FUNCTIONS = {
    "function_declaration",
    "generator_function_declaration",
    "function_expression",
    "function",
    "generator_function",
    "arrow_function",
    "method_definition",
}
SCOPES = FUNCTIONS | {"program", "for_in_statement", "catch_clause", "class_body"}
CLASSES = {"class_declaration", "class", "abstract_class_declaration"}
WRAPPERS = {
    "parenthesized_expression",
    "await_expression",
    "as_expression",
    "satisfies_expression",
    "non_null_expression",
    "type_assertion",
}
LOGICAL = {"||": "or", "&&": "and", "??": "??"}
CONSTANTS = {"true": True, "false": False, "null": None, "undefined": None}
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def unescape(raw: str) -> str:
    return ESCAPES.get(raw[1:], raw[1:]) if raw.startswith("\\") and len(raw) == 2 else raw[1:]


class JsFile(FileAdapter):
    family = "js"

    # --- expressions --------------------------------------------------------------
    def unwrap(self, node: TsNode) -> TsNode:
        while node.type in WRAPPERS:
            inner = [c for c in node.named_children if c.type != "comment"]
            if not inner:
                return node
            node = inner[-1] if node.type == "type_assertion" else inner[0]
        return node

    def read_view(self, node: TsNode) -> Expr:
        kind = node.type
        while kind in WRAPPERS:
            inner = [c for c in node.named_children if c.type != "comment"]
            if not inner:
                return EUnknown("empty")
            node = inner[-1] if kind == "type_assertion" else inner[0]
            kind = node.type
        if kind == "string":
            return EStr(self._string(node))
        if kind == "template_string":
            parts: list = []
            for child in node.named_children:
                if child.type == "string_fragment":
                    parts.append(self.text(child))
                elif child.type == "escape_sequence":
                    parts.append(unescape(self.text(child)))
                elif child.type == "template_substitution" and child.named_children:
                    parts.append(child.named_children[0])
            return ETemplate(parts)
        if kind in {"identifier", "shorthand_property_identifier", "property_identifier"}:
            name = self.text(node)
            return EConst(None) if name == "undefined" else EName(name)
        if kind == "number":
            raw = self.text(node)
            try:
                return EConst(int(raw) if raw.isdigit() else float(raw))
            except ValueError:
                return EConst(raw)
        if kind in CONSTANTS:
            return EConst(CONSTANTS[kind])
        if kind in {"this", "super"}:
            return EThis()
        if kind == "meta_property":
            return EName("import.meta")
        if kind == "member_expression":
            obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
            if obj is None or prop is None:
                return EUnknown("member")
            return EMember(obj, self.text(prop))
        if kind == "subscript_expression":
            obj, index = node.child_by_field_name("object"), node.child_by_field_name("index")
            if obj is None or index is None:
                return EUnknown("subscript")
            return EIndex(obj, index)
        if kind in {"call_expression", "new_expression"}:
            return self._call(node)
        if kind == "binary_expression":
            op = self.text(node.child_by_field_name("operator"))
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None:
                return EUnknown("binary")
            if op in LOGICAL:
                return ELogical(LOGICAL[op], left, right)
            return EBinary(op, left, right)
        if kind == "ternary_expression":
            test, then = (
                node.child_by_field_name("condition"),
                node.child_by_field_name("consequence"),
            )
            other = node.child_by_field_name("alternative")
            if test is None or then is None or other is None:
                return EUnknown("ternary")
            return ECond(test, then, other)
        if kind == "object":
            return EObject(self._entries(node))
        if kind == "array":
            items, spreads = [], []
            for child in node.named_children:
                if child.type == "spread_element" and child.named_children:
                    spreads.append(child.named_children[0])
                elif child.type != "comment":
                    items.append(child)
            return EArray(items, spreads)
        if kind in FUNCTIONS:
            return EFunc(node)
        if kind in CLASSES:
            return EClass(node)
        if kind == "sequence_expression" and node.named_children:
            return self.view(node.named_children[-1])
        if kind == "assignment_expression" and (right := node.child_by_field_name("right")):
            return self.view(right)
        return EUnknown(kind)

    def _string(self, node: TsNode) -> str:
        out = []
        for child in node.named_children:
            if child.type == "string_fragment":
                out.append(self.text(child))
            elif child.type == "escape_sequence":
                out.append(unescape(self.text(child)))
        return "".join(out)

    def _call(self, node: TsNode) -> ECall | EUnknown:
        new = node.type == "new_expression"
        callee = node.child_by_field_name("constructor" if new else "function")
        if callee is None:
            return EUnknown("call")
        args_node = node.child_by_field_name("arguments")
        args, spread = [], False
        if args_node is not None and args_node.type == "arguments":
            for child in args_node.named_children:
                if child.type == "comment":
                    continue
                if child.type == "spread_element":
                    spread = True
                args.append(child)
        elif args_node is not None:  # a tagged template
            args.append(args_node)
        return ECall(callee, args, {}, new, spread)

    def _entries(self, node: TsNode) -> list[Entry]:
        entries = []
        for child in node.named_children:
            kind = child.type
            if kind == "pair":
                key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
                if key is not None and value is not None:
                    computed = (
                        key.named_children[0]
                        if key.type == "computed_property_name" and key.named_children
                        else None
                    )
                    entries.append(Entry(self._key(key), value, "prop", computed))
            elif kind == "shorthand_property_identifier":
                entries.append(Entry(self.text(child), child))
            elif kind == "method_definition":
                name = child.child_by_field_name("name")
                entries.append(Entry(self._key(name) if name else None, child, "method"))
            elif kind == "spread_element" and child.named_children:
                entries.append(Entry(None, child.named_children[0], "spread"))
        return entries

    def _key(self, key: TsNode) -> str | None:
        if key.type == "string":
            return self._string(key)
        if key.type == "computed_property_name":
            inner = key.named_children[0] if key.named_children else None
            return self._string(inner) if inner is not None and inner.type == "string" else None
        return self.text(key)

    # --- the file's index -----------------------------------------------------------
    @cached_property
    def _index(self) -> dict[str, list]:
        found: dict[str, list] = {
            "calls": [], "decls": [], "params": [], "loops": [], "catch": [], "assign": [],
            "member": [], "decorated": [], "fn": [], "cls": [], "arrow_param": [],
        }  # fmt: skip
        for pattern, m in matches(self.sf.language or "typescript", QUERY, self.root):
            if pattern <= 1:
                found["calls"].append(m["call"][0])
            elif pattern == 2:
                found["decls"].append(m["decl"][0])
            elif pattern <= 4:
                found["fn"].append(m["fn"][0])
            elif pattern == 5:
                found["cls"].append(m["cls"][0])
            elif pattern == 6:
                found["params"].append(m["params"][0])
            elif pattern == 7:
                found["arrow_param"].append(m["aparam"][0])
            elif pattern == 8:
                found["loops"].append(m["loop"][0])
            elif pattern == 9:
                found["catch"].append(m["catch"][0])
            elif pattern == 10:
                found["assign"].append((m["aname"][0], m["avalue"][0]))
            elif pattern == 11:
                found["member"].append((m["mleft"][0], m["mright"][0]))
            elif pattern == 12:
                found["decorated"].append(m["dec"][0])
        found["calls"].sort(key=lambda n: n.start_byte)
        return found

    @cached_property
    def _scopes(self) -> dict[tuple[int, int], dict[str, list[Binding]]]:
        tables: dict[tuple[int, int], dict[str, list[Binding]]] = {}

        def add(binding: Binding) -> None:
            key = (binding.scope.start_byte, binding.scope.end_byte)
            tables.setdefault(key, {}).setdefault(binding.name, []).append(binding)

        index = self._index
        for decl in index["decls"]:
            scope = self._scope_above(decl)
            value = decl.child_by_field_name("value")
            target = decl.child_by_field_name("name")
            if target is None:
                continue
            for name, path, default in self._pattern(target, ()):
                add(Binding(name, "decl", scope, decl, value, path, default=default,
                            type=decl.child_by_field_name("type")))  # fmt: skip
        for fn in index["fn"]:
            name = fn.child_by_field_name("name")
            if name is not None:
                add(Binding(self.text(name), "function", self._scope_above(fn), fn))
        for cls in index["cls"]:
            name = cls.child_by_field_name("name")
            if name is not None:
                add(Binding(self.text(name), "class", self._scope_above(cls), cls))
        for params in index["params"]:
            fn = params.parent
            if fn is None:
                continue
            for binding in self._params(fn, params):
                add(binding)
        for ident in index["arrow_param"]:
            fn = ident.parent
            add(Binding(self.text(ident), "param", fn, ident, index=0))
        for loop in index["loops"]:
            left, right = loop.child_by_field_name("left"), loop.child_by_field_name("right")
            if left is None:
                continue
            for name, path, default in self._pattern(left, ()):
                add(Binding(name, "loop", loop, loop, right, path, default=default))
        for clause in index["catch"]:
            for name, path, _ in self._pattern(clause, ()):
                add(Binding(name, "catch", clause.parent or clause, clause, None, path))
        for ident, value in index["assign"]:
            name = self.text(ident)
            found = self.resolve_in_tables(tables, name, ident)
            scope = found.scope if found is not None else self._scope_above(ident)
            add(Binding(name, "assign", scope, ident, value))
        return tables

    def _scope_above(self, node: TsNode) -> TsNode:
        parent = node.parent
        while parent is not None:
            if parent.type in FUNCTIONS or parent.type == "program":
                return parent
            parent = parent.parent
        return self.root

    def _pattern(self, node: TsNode, path: tuple) -> list[tuple[str, tuple, TsNode | None]]:
        """(name, path, default) of every name a destructuring pattern binds."""
        kind = node.type
        if kind in {"identifier", "shorthand_property_identifier_pattern", "this"}:
            return [(self.text(node), path, None)]
        out: list[tuple[str, tuple, TsNode | None]] = []
        if kind == "object_pattern":
            for child in node.named_children:
                if child.type == "shorthand_property_identifier_pattern":
                    out.append((self.text(child), path + (self.text(child),), None))
                elif child.type == "pair_pattern":
                    key, value = (
                        child.child_by_field_name("key"),
                        child.child_by_field_name("value"),
                    )
                    if key is not None and value is not None:
                        out += self._pattern(value, path + (self._key(key),))
                elif child.type == "object_assignment_pattern":
                    left, right = (
                        child.child_by_field_name("left"),
                        child.child_by_field_name("right"),
                    )
                    if left is not None:
                        out += [
                            (n, p + (self.text(left),), right)
                            for n, p, _ in self._pattern(left, path)
                        ]
                elif child.type == "rest_pattern" and child.named_children:
                    out += self._pattern(child.named_children[0], path + ("...",))
        elif kind == "array_pattern":
            position = 0
            for child in node.named_children:
                if child.type == "comment":
                    continue
                if child.type == "rest_pattern" and child.named_children:
                    out += self._pattern(child.named_children[0], path + ("...",))
                else:
                    out += self._pattern(child, path + (position,))
                position += 1
        elif kind in {"assignment_pattern", "object_assignment_pattern"}:
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None:
                out += [(n, p, right) for n, p, _ in self._pattern(left, path)]
        elif kind == "catch_clause":
            param = node.child_by_field_name("parameter")
            if param is not None:
                out += self._pattern(param, path)
        elif kind == "rest_pattern" and node.named_children:
            out += self._pattern(node.named_children[0], path + ("...",))
        return out

    def _params(self, fn: TsNode, params: TsNode) -> list[Binding]:
        out, position = [], 0
        for child in params.named_children:
            if child.type in {"comment", "decorator"}:
                continue
            target, default, annotation = child, None, None
            if child.type in {"required_parameter", "optional_parameter"}:
                target = child.child_by_field_name("pattern") or child
                default = child.child_by_field_name("value")
                annotation = child.child_by_field_name("type")
            for name, path, inner_default in self._pattern(target, ()):
                out.append(Binding(name, "param", fn, child, None, path, position,
                                   inner_default or default, annotation))  # fmt: skip
            position += 1
        return out

    def resolve(self, name: str, at: TsNode) -> Binding | None:
        key = (name, at.id)  # one walk up the scopes per name and place (deep bundles)
        if key not in self._resolved:
            self._resolved[key] = self.resolve_in_tables(self._scopes, name, at)
        return self._resolved[key]

    def resolve_in_tables(self, tables, name: str, at: TsNode) -> Binding | None:
        node: TsNode | None = at
        while node is not None:
            if node.type in SCOPES:
                found = tables.get((node.start_byte, node.end_byte), {}).get(name)
                if found:
                    return found[0]
            node = node.parent
        return None

    def bindings(self, binding: Binding) -> list[Binding]:
        """Every declaration and assignment of the same name in the same scope."""
        key = (binding.scope.start_byte, binding.scope.end_byte)
        return self._scopes.get(key, {}).get(binding.name, [binding])

    def calls(self) -> list[TsNode]:
        return self._index["calls"]

    def terminal(self, callee: TsNode) -> str | None:
        kind = callee.type
        while (kind in WRAPPERS or kind == "sequence_expression") and callee.named_children:
            # `(0, _api.get)(…)`, what compilers write for an imported function: the last
            # expression of a sequence is the one called
            callee = callee.named_children[-1 if kind == "sequence_expression" else 0]
            kind = callee.type
        if kind == "identifier":
            return self.text(callee)
        if kind == "member_expression":
            prop = callee.child_by_field_name("property")
            return self.text(prop) if prop is not None else None
        if kind == "subscript_expression":
            index = callee.child_by_field_name("index")
            return self._string(index) if index is not None and index.type == "string" else None
        return None

    # --- functions and classes ------------------------------------------------------
    def is_function(self, node: TsNode) -> bool:
        return node.type in FUNCTIONS

    def read_function(self, node: TsNode) -> FunctionInfo:
        params = node.child_by_field_name("parameters")
        if params is not None:
            bindings = self._params(node, params)
        elif (single := node.child_by_field_name("parameter")) is not None:
            bindings = [Binding(self.text(single), "param", node, single, index=0)]
        else:
            bindings = []
        decorators = self._member_decorators(node) if node.type == "method_definition" else []
        return FunctionInfo(node, self.function_name(node), bindings,
                            node.child_by_field_name("body"), node.type == "method_definition",
                            decorators)  # fmt: skip

    def function_name(self, node: TsNode) -> str:
        name = node.child_by_field_name("name")
        if name is not None:
            return self._key(name) or ""
        parent = node.parent
        while parent is not None and parent.type in WRAPPERS:
            parent = parent.parent
        if parent is None:
            return ""
        if parent.type == "variable_declarator":
            target = parent.child_by_field_name("name")
            return self.text(target) if target is not None and target.type == "identifier" else ""
        if parent.type == "pair":
            key = parent.child_by_field_name("key")
            return (self._key(key) or "") if key is not None else ""
        if parent.type in {"public_field_definition", "field_definition"}:
            key = parent.child_by_field_name("name") or parent.child_by_field_name("property")
            return self.text(key) if key is not None else ""
        if parent.type == "assignment_expression":
            left = parent.child_by_field_name("left")
            return self.terminal(left) or "" if left is not None else ""
        return ""

    def returns(self, info: FunctionInfo) -> list[TsNode]:
        if info._returns is None:
            body = info.body
            if body is None:
                info._returns = []
            elif body.type != "statement_block":
                info._returns = [body]  # an arrow function's expression body
            else:
                found = []
                for _, m in matches(
                    self.sf.language or "typescript", "(return_statement) @r", body
                ):
                    ret = m["r"][0]
                    if self.function_at(ret) == info.node and ret.named_children:
                        found.append(ret.named_children[0])
                info._returns = found
        return info._returns

    def read_class(self, node: TsNode) -> ClassInfo | None:
        if node.type not in CLASSES:
            return None
        name = node.child_by_field_name("name")
        body = node.child_by_field_name("body")
        bases = []
        for child in node.named_children:
            if child.type == "class_heritage":
                for clause in child.named_children:
                    if clause.type == "extends_clause":
                        bases += [c for c in clause.named_children if c.type != "type_arguments"]
        decorators = [d for d in node.named_children if d.type == "decorator"]
        if node.parent is not None and node.parent.type == "export_statement":
            decorators = [
                d for d in node.parent.named_children if d.type == "decorator"
            ] + decorators
        methods, fields, types, method_decorators = {}, {}, {}, {}
        pending: list[TsNode] = []
        for child in body.named_children if body is not None else []:
            if child.type == "decorator":
                pending.append(child)
                continue
            if child.type == "comment":
                continue
            key = child.child_by_field_name("name") or child.child_by_field_name("property")
            label = self._key(key) if key is not None else None
            if label is None:
                pending = []
                continue
            if child.type == "method_definition":
                methods[label] = child
                method_decorators[label] = [self._decorator_expr(d) for d in pending]
            elif child.type in {"public_field_definition", "field_definition"}:
                value = child.child_by_field_name("value")
                if value is not None:
                    fields[label] = value
                annotation = child.child_by_field_name("type")
                if annotation is not None:
                    types[label] = annotation
            pending = []
        ctor = methods.get("constructor")
        params_of: dict[str, TsNode] = {}
        if ctor is not None:  # TS parameter properties: `constructor(private http: HttpClient)`
            params = ctor.child_by_field_name("parameters")
            for child in params.named_children if params is not None else []:
                if any(c.type == "accessibility_modifier" for c in child.named_children):
                    pattern = child.child_by_field_name("pattern")
                    annotation = child.child_by_field_name("type")
                    if pattern is not None and pattern.type == "identifier":
                        params_of[self.text(pattern)] = child
                        if annotation is not None:
                            types.setdefault(self.text(pattern), annotation)
        return ClassInfo(node, self.text(name) if name is not None else "", bases,
                         [self._decorator_expr(d) for d in decorators], methods, fields, types,
                         method_decorators, params_of)  # fmt: skip

    def _decorator_expr(self, decorator: TsNode) -> TsNode:
        inner = [c for c in decorator.named_children if c.type != "comment"]
        return inner[0] if inner else decorator

    def _member_decorators(self, method: TsNode) -> list[TsNode]:
        out: list[TsNode] = []
        sibling = method.prev_named_sibling
        while sibling is not None and sibling.type in ("decorator", "comment"):
            if sibling.type == "decorator":
                out.insert(0, self._decorator_expr(sibling))
            sibling = sibling.prev_named_sibling
        return out

    def class_of_method(self, fn: TsNode) -> TsNode | None:
        parent = fn.parent
        if fn.type == "method_definition" and parent is not None and parent.type == "class_body":
            return parent.parent
        if parent is not None and parent.type in {"public_field_definition", "field_definition"}:
            body = parent.parent
            return body.parent if body is not None else None
        return None

    def class_of_field(self, node: TsNode) -> TsNode | None:
        parent = node.parent
        while parent is not None:
            if parent.type in FUNCTIONS and parent.type != "arrow_function":
                return None
            if parent.type in {"public_field_definition", "field_definition"}:
                body = parent.parent
                return body.parent if body is not None and body.type == "class_body" else None
            parent = parent.parent
        return None

    def param_decorators(self, param: TsNode) -> list[TsNode]:
        return [self._decorator_expr(c) for c in param.named_children if c.type == "decorator"]

    def member_assignments(self) -> list[tuple[TsNode, TsNode]]:
        return self._index["member"]

    def decorated(self) -> list[tuple[TsNode, TsNode]]:
        out = []
        for decorator in self._index["decorated"]:
            target = decorator.parent
            if target is None:
                continue
            if target.type == "export_statement":
                target = target.child_by_field_name("declaration") or target
            elif target.type == "class_body":
                target = decorator.next_named_sibling
                while target is not None and target.type in ("decorator", "comment"):
                    target = target.next_named_sibling
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

    def settled_by(self, fn: TsNode) -> TsNode | None:
        """`p.then((v) => …)`, `p.then(function (v) {…})`: `v` is what `p` resolves to."""
        holder = fn.parent
        while holder is not None and holder.type == "parenthesized_expression":
            fn, holder = holder, holder.parent
        if holder is None or holder.type != "arguments" or holder.named_children[:1] != [fn]:
            return None
        call = holder.parent
        callee = call.child_by_field_name("function") if call is not None else None
        if callee is None or callee.type != "member_expression":
            return None
        prop = callee.child_by_field_name("property")
        return callee.child_by_field_name("object") if self.text(prop) == "then" else None
