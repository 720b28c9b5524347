"""Members of the evaluator: a member read on any value (object literals, arrays, modules,
library objects, parameters, choices), and the assignments made to an object anywhere in
the component (`OpenAPI.BASE = …`), which win over what the object started as.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.engine.config_sources import build_placeholder
from extractors.engine.values import (
    ArrLit,
    Choice,
    Ext,
    Func,
    Instance,
    Klass,
    Lit,
    Method,
    Module,
    Obj,
    ObjLit,
    Param,
    Seq,
    Unknown,
    Value,
    choice,
)
from extractors.lang.expr import (
    EArray,
    EIndex,
    EMember,
    EName,
    EObject,
    EStr,
    EThis,
)

MAX_DEPTH = 32  # nested evaluations (names followed, members, calls): a generated client's
# base read through a config object is ~28 deep


class Members:
    """`Evaluator`'s members of values, and of objects assigned to elsewhere."""

    def member(self, target: Value, name: str, rel: str, at, depth: int) -> Value:
        if depth > MAX_DEPTH:
            return Unknown(name, "evaluation too deep")
        if isinstance(target, Ext) and self.library.proxies:  # `current_user.profile`
            target = self.library.proxy(self, target) or target
        assigned = self.assigned(target, name, depth)
        if assigned is not None:
            return assigned
        found = self.library.member(self, target, name, rel)
        if found is not None:
            return found
        if isinstance(target, Choice):
            return choice([self.member(o, name, rel, at, depth + 1) for o in target.options])
        if name == "__name__" and isinstance(target, (Func, Klass)) and target.name:
            return Lit(target.name)  # Python: a function's or class's own name
        if isinstance(target, Param):  # still a wrapper's input: `options.url`
            return Param(f"{target.name}.{name}", target.scope)
        if isinstance(target, ObjLit):
            return self.object_member(target, name, depth)
        if isinstance(target, ArrLit):
            if name.isdigit() and int(name) < len(target.items):
                return target.items[int(name)]
            return Method(target, name)
        if isinstance(target, Seq):
            item = self.seq_item(target, int(name), depth) if name.isdigit() else None
            return item if item is not None else Method(target, name)
        if isinstance(target, Module):
            return self.program.exported(self, target.rel, name)
        if isinstance(target, Instance):
            return self.instance_member(target, name, depth)
        if isinstance(target, Klass):
            return self.class_member(target, name, depth, static=True)
        if isinstance(target, Ext):
            return Ext(target.package, (*target.path, name))
        if isinstance(target, Func) and name in ("bind", "call", "apply"):
            return Method(target, name)
        return Method(target, name)

    def items_of(self, value: Value | None, depth: int) -> Value | None:
        """A value as a list of items where it can be one: a list, a bare tuple, or a choice
        of such (item by item; alternatives that are no list are not known to have items)."""
        if isinstance(value, Seq):
            return ArrLit(self.seq_items(value, depth), value.site)
        if not isinstance(value, Choice):
            return value
        lists = [
            v for v in (self.items_of(o, depth + 1) for o in value.options) if isinstance(v, ArrLit)
        ]
        if not lists:
            return value
        width = max(len(v.items) for v in lists)
        return ArrLit(tuple(choice([v.items[i] for v in lists if i < len(v.items)], value.condition)
                            for i in range(width)))  # fmt: skip

    def seq_items(self, seq: Seq, depth: int) -> tuple[Value, ...]:
        """A bare tuple's items, evaluated where it was written."""
        return tuple(
            self.eval(seq.site.rel, item, seq.act, depth + 1) for item in self._seq_nodes(seq)
        )

    def seq_item(self, seq: Seq, index: int, depth: int) -> Value | None:
        """One item of a bare tuple (`pos, value = parse(…)` reads each alone)."""
        nodes = self._seq_nodes(seq)
        return (
            self.eval(seq.site.rel, nodes[index], seq.act, depth + 1)
            if index < len(nodes)
            else None
        )

    def _seq_nodes(self, seq: Seq) -> list[TsNode]:
        a = self.program.adapter(seq.site.rel)
        node = a.node_at(seq.site) if a is not None else None
        view = a.view(node) if a is not None and node is not None else None
        return view.items if isinstance(view, EArray) else []

    def object_member(self, obj: ObjLit, name: str, depth: int) -> Value:
        for key, value in obj.extra:
            if key == name:
                return value
        a = self.program.adapter(obj.site.rel)
        node = a.node_at(obj.site) if a is not None else None
        view = a.view(node) if node is not None else None
        if not isinstance(view, EObject):
            return Unknown(name, "object literal not found")
        for entry in reversed(view.entries):
            if entry.key == name:
                if entry.kind == "method":
                    return Func(a.site(entry.value), obj.act, obj, name)
                value = self.eval(obj.site.rel, entry.value, obj.act, depth + 1)
                if isinstance(value, Func):  # an arrow function keeps the `this` it closes over
                    arrow = a.node_at(value.site) if value.site.rel == obj.site.rel else None
                    this = None if arrow is not None and arrow.type == "arrow_function" else obj
                    return Func(value.site, value.act, this, name)
                return build_placeholder(name, value, a.site(entry.value))
        known = True  # every key is known: a missing member is `undefined`
        for entry in reversed(view.entries):  # a computed key that evaluates to the name
            if entry.key is None and entry.key_node is not None:
                key = self.eval(obj.site.rel, entry.key_node, obj.act, depth + 1)
                if isinstance(key, Lit) and str(key.value) == name:
                    return self.eval(obj.site.rel, entry.value, obj.act, depth + 1)
                known = known and isinstance(key, Lit)
        for entry in reversed(view.entries):  # the last spread that has it wins
            if entry.kind == "spread":
                inner = self.eval(obj.site.rel, entry.value, obj.act, depth + 1)
                if isinstance(inner, Param):
                    known = False
                    continue  # `{ url, ...options }`: overrides a caller may pass, not known here
                found = _present(self.member(inner, name, obj.site.rel, entry.value, depth + 1))
                if found is not None and not isinstance(found, Param):
                    return found
                known = known and isinstance(inner, ObjLit)
        return Lit(None) if known and a.family == "js" else Method(obj, name)

    def any_member(self, obj: ObjLit, key_text: str, depth: int) -> Value:
        """A member of an object literal read with a key not known statically: each of its
        values, the condition saying which key."""
        a = self.program.adapter(obj.site.rel)
        node = a.node_at(obj.site) if a is not None else None
        view = a.view(node) if node is not None else None
        if not isinstance(view, EObject):
            return Unknown(key_text, "computed member")
        entries = [e for e in view.entries if e.kind == "prop"][:16]
        values = [self.eval(obj.site.rel, e.value, obj.act, depth + 1) for e in entries]
        if not values:
            return Unknown(key_text, "computed member of an empty object")
        keys = [e.key or a.text(e.key_node) for e in entries]
        return choice(values, f"{key_text} in {{{', '.join(keys)}}}")

    def instance_member(self, inst: Instance, name: str, depth: int) -> Value:
        found = self.class_member(inst.klass, name, depth, instance=inst)
        return found

    def assigned(self, target: Value, name: str, depth: int) -> Value | None:
        """`target.name = value` written anywhere in the component wins over the literal."""
        if self._building or not isinstance(target, (ObjLit, Ext, Obj, Module, Klass, Func)):
            return None
        if self._assigned is None:
            self._build_assigned()
        found = self._assigned.get((_owner_key(target), name))  # type: ignore[union-attr]
        if not found:
            return None
        return choice([self.eval(rel, node, None, depth + 1) for rel, node in found])

    def _build_assigned(self) -> None:
        self._building = True
        table: dict[tuple[Value, str], list[tuple[str, TsNode]]] = {}
        try:
            for rel in self.program.rels():
                a = self.program.adapter(rel)
                if a is None:
                    continue
                for target, value in a.member_assignments():
                    view = a.view(target)
                    name = view.name if isinstance(view, EMember) else None
                    if isinstance(view, EIndex):  # `app.config["PREFIX"] = "/x"`
                        key = a.view(view.index)
                        name = key.value if isinstance(key, EStr) else None
                    if name is None:
                        continue
                    obj = a.view(view.obj)
                    if isinstance(obj, EThis) or (
                        isinstance(obj, EName) and obj.name in ("self", "exports", "module")
                    ):
                        continue
                    owner = self.eval(rel, view.obj, None)
                    if isinstance(owner, (ObjLit, Ext, Obj, Module, Klass, Func)):
                        table.setdefault((_owner_key(owner), name), []).append((rel, value))
        finally:
            self._building = False
        self._assigned = table
        self._cache.clear()  # values read while building did not see the assignments


def _present(value: Value) -> Value | None:
    """A member's value where it may be there: the options of a choice that are (`...(a ||
    {})` has `a`'s member or none), None when it is certainly absent."""
    if isinstance(value, Choice):
        kept = [o for o in value.options if _present(o) is not None]
        return choice(kept, value.condition) if kept else None
    return None if isinstance(value, (Unknown, Method)) or value == Lit(None) else value


def _owner_key(owner: Value) -> object:
    """A function is one object wherever it is read (`useCourse.loader = …` assigned to the
    function, read through `loaders.Course.loader`): keyed by its node, not by how it was
    reached."""
    return ("function", owner.site.rel, owner.site.start) if isinstance(owner, Func) else owner
