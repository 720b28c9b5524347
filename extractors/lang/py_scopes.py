"""The Python file's index and scope tables: the query's captures read once, the names each
scope binds (module, function, lambda, class body, comprehension, `for` loop; imports,
assignment targets, parameters) and the resolution of a name at a node, with a class
body not seen from the methods inside it — the file's symbol table, kept apart from what
its expressions (py_views.py) and declarations (python.py) read as.
"""

from __future__ import annotations

from functools import cached_property, partial
from pathlib import Path

from tree_sitter import Node as TsNode

from extractors.lang.base import Binding, add_binding
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


class PyScopes:
    """`PyFile`'s index and scopes."""

    @cached_property
    def _index(self) -> dict[str, list]:
        found: dict[str, list] = {
            "calls": [], "dec": [], "assign": [], "aug": [], "fn": [], "cls": [], "loop": [],
            "comp": [], "walrus": [], "import": [], "with": [], "reads": [],
        }  # fmt: skip
        plan = [("calls", "call"), ("dec", "dec"), ("assign", "assign"), ("aug", "aug"),
                ("fn", "fn"), ("cls", "cls"), ("loop", "loop"), ("comp", "comp"),
                ("walrus", None), ("import", "import"), ("import", "import"),
                ("with", "with"), ("reads", "read")]  # fmt: skip
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
        add = partial(add_binding, tables)

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

    def calls(self) -> list[TsNode]:
        return self._index["calls"]

    def reads(self) -> list[TsNode]:
        """Attribute reads and subscripts, in document order."""
        return self._index["reads"]

    def classes(self) -> list[TsNode]:
        return self._index["cls"]

    def imports(self) -> list[TsNode]:
        """`import …` and `from … import …` statements, in document order."""
        return self._imports

    @cached_property
    def _imports(self) -> list[TsNode]:
        return sorted(self._index["import"], key=lambda n: n.start_byte)  # once per file

    def member_assignments(self) -> list[tuple[TsNode, TsNode]]:
        return self._member_assignments

    @cached_property
    def _member_assignments(self) -> list[tuple[TsNode, TsNode]]:
        out = []
        for assign in self._index["assign"]:
            left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
            if left is not None and right is not None and left.type in {"attribute", "subscript"}:
                out.append((left, right))
        return out
