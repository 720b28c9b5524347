"""The JS / TS file's index and scope tables: the query's captures read once (calls,
declarations, functions, classes, parameters, loops, assignments, decorators), the names
each function-level scope binds (destructuring patterns and parameters included) and the
resolution of a name at a node — the file's symbol table, kept apart from what its
expressions (js_views.py) and declarations (js.py) read as.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cached_property, partial
from operator import attrgetter
from pathlib import Path

from tree_sitter import Node as TsNode

from extractors.lang.base import Binding, add_binding
from extractors.lang.js_views import FUNCTIONS
from extractors.source import matches

QUERY = (Path(__file__).parent / "queries" / "js.scm").read_text(encoding="utf-8")
# TypeScript's grammar has `abstract class` as its own node (the JavaScript grammar has none):
# the same pattern, at the same position, takes both there
QUERY_TS = QUERY.replace(
    "(class_declaration) @cls", "[(class_declaration) (abstract_class_declaration)] @cls"
)

_start = attrgetter("start_byte")  # the sort key, called per node: a C getter

SCOPES = FUNCTIONS | {"program", "for_in_statement", "catch_clause", "class_body"}


class JsScopes:
    """`JsFile`'s index and scopes."""

    @cached_property
    def _index(self) -> dict[str, list]:
        found: dict[str, list] = {
            "calls": [], "decls": [], "params": [], "loops": [], "catch": [], "assign": [],
            "member": [], "decorated": [], "fn": [], "cls": [], "arrow_param": [], "reads": [],
            "lambda": [], "error": [],
        }  # fmt: skip
        language = self.sf.language or "typescript"
        query = QUERY_TS if language in ("typescript", "tsx") else QUERY
        for pattern, m in matches(language, query, self.root):
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
            elif pattern == 13:
                found["lambda"].append(m["lambda"][0])
            elif pattern == 14:
                found["error"].append(m["error"][0])
            else:
                found["reads"].append(m["read"][0])
        found["calls"].sort(key=_start)
        found["lambda"].sort(key=_start)
        return found

    @cached_property
    def _scopes(self) -> dict[tuple[int, int], dict[str, list[Binding]]]:
        tables: dict[tuple[int, int], dict[str, list[Binding]]] = {}
        add = partial(add_binding, tables)

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
        """The binding `name` has at `at`: the one of the innermost scope around `at` that
        binds it, found among the scopes binding that name (by their byte ranges: walking
        up a deep bundle's tree asks tree-sitter for every ancestor, each from the root)."""
        ranges = self._scopes_binding.get(name)
        if ranges is None:
            return None
        starts, ends, outer, bindings = ranges
        i = bisect_right(starts, at.start_byte) - 1
        end = at.end_byte
        while i >= 0:
            if ends[i] >= end:
                return bindings[i]
            i = outer[i]
        return None

    @cached_property
    def _scopes_binding(self) -> dict[str, tuple[list[int], list[int], list[int], list[Binding]]]:
        """name -> the scopes that bind it, by start (an outer scope before an inner one of
        the same start): their starts, ends, the index of the nearest one around each (-1)
        and the name's first binding in each. Scopes nest or are apart, so the innermost
        around a place is the last one starting at or before it, or one around that one."""
        found: dict[str, list[tuple[int, int, Binding]]] = {}
        for (start, end), names in self._scopes.items():
            for name, bindings in names.items():
                if bindings and bindings[0].scope.type in SCOPES:
                    found.setdefault(name, []).append((start, -end, bindings[0]))
        out = {}
        for name, items in found.items():
            items.sort(key=lambda item: (item[0], item[1]))
            starts = [start for start, _, _ in items]
            ends = [-end for _, end, _ in items]
            outer: list[int] = []
            stack: list[int] = []
            for i, end in enumerate(ends):
                while stack and ends[stack[-1]] < end:
                    stack.pop()
                outer.append(stack[-1] if stack else -1)
                stack.append(i)
            out[name] = (starts, ends, outer, [binding for _, _, binding in items])
        return out

    def resolve_in_tables(self, tables, name: str, at: TsNode) -> Binding | None:
        node: TsNode | None = at
        while node is not None:
            if node.type in SCOPES:
                found = tables.get((node.start_byte, node.end_byte), {}).get(name)
                if found:
                    return found[0]
            node = node.parent
        return None

    def calls(self) -> list[TsNode]:
        return self._index["calls"]

    def reads(self) -> list[TsNode]:
        """Member reads, subscripts and object patterns, in document order."""
        return self._index["reads"]

    def classes(self) -> list[TsNode]:
        return self._index["cls"]

    def lambdas(self) -> list[TsNode]:
        """Arrow functions and function expressions, in document order."""
        return self._index["lambda"]

    def syntax_errors(self) -> list[TsNode]:
        """The parser's ERROR nodes."""
        return self._index["error"]

    def member_assignments(self) -> list[tuple[TsNode, TsNode]]:
        return self._index["member"]
