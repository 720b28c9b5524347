"""The instances the component makes of its own classes, for the evaluator's `this` / `self`.

A method read where nobody calls it (the request a service class's method makes, called
from a UI module) has no receiver. A data member it reads on `this` / `self` is what that
member is on each instance the component constructs of the class or of a direct subclass
(`new UsersApi()`, `Orders()`), so what the constructor was given (`constructor(private
http: AxiosInstance)`, `super(client, 'users')`) reaches the method; its calls still go to
the class's own methods. A member of a base class read for a subclass instance binds the
base's constructor to the arguments the subclass's `super(…)` passes.
"""

from __future__ import annotations

from collections import defaultdict

from extractors.engine.eval_members import MAX_DEPTH
from extractors.engine.values import (
    Choice,
    Instance,
    Klass,
    Lit,
    Method,
    Param,
    Unknown,
    Value,
    choice,
)

MAX_INSTANCES = 4  # instances of one class a data member is read on; more: the class's own reading
MAX_CHAIN = 4  # base classes walked from a subclass instance


class Instances:
    """`Evaluator`'s index of constructions (`new K(…)`, Python `K(…)`) of the component's
    classes."""

    _made: dict[tuple[str, int], list[Instance]] | None = None
    _subclasses: dict[tuple[str, int], list[tuple[str, int]]] | None = None
    _as_base: dict | None = None  # (instance, base site) -> the instance seen from the base
    _made_members: dict | None = None  # (class, member) -> its value on the instances made

    def made_member(self, klass: Klass, name: str, depth: int) -> Value | None:
        """A data member read on `this` / `self` of a method read unbound: what it is on each
        instance the component makes of the class or of a direct subclass (a few at most),
        when each says; else None, and the class's own reading stands. Methods are not read
        so: a call's target stays the class's own method."""
        made = self.instances_of(klass)
        if made is None:
            return None
        key = (klass.site.rel, klass.site.start, name)
        if self._made_members is None:
            self._made_members = {}
        if key not in self._made_members:  # the same wherever the method reads it: once
            self._made_members[key] = None  # read through itself: not known
            values = [self.class_member(klass, name, depth + 1, instance=inst) for inst in made]
            # an instance that does not say (`None` given, a caller's parameter): not known
            self._made_members[key] = choice(values) if all(_says(v) for v in values) else None
        return self._made_members[key]

    def instances_of(self, klass: Klass) -> list[Instance] | None:
        """The instances made of `klass` or of a direct subclass, when there are a few; None
        when there are none or too many."""
        if self._made is None:
            self._index_constructions()
        key = (klass.site.rel, klass.site.start)
        made = list(self._made.get(key, ()))  # type: ignore[union-attr]
        for sub in self._subclasses.get(key, ()):  # type: ignore[union-attr]
            made += self._made.get(sub, ())  # type: ignore[union-attr]
        if not made or len(made) > MAX_INSTANCES:
            return None
        return made

    def _index_constructions(self) -> None:
        """Every construction (`new K(…)`, Python `K(…)`) whose `K` names a class of the
        component or an import of one, by class; every class by its direct base class.
        Built once; what was read while building is read again after."""
        self._made, self._subclasses = {}, {}
        made: dict[tuple[str, int], list[Instance]] = defaultdict(list)
        subclasses: dict[tuple[str, int], list[tuple[str, int]]] = defaultdict(list)
        names: set[str] = set()
        adapters = [(rel, a) for rel in self.program.rels()
                    if (a := self.program.adapter(rel)) is not None]  # fmt: skip
        for rel, a in adapters:
            for node in a.classes():
                info = a.klass(node)
                if info is None or not info.name:
                    continue
                names.add(info.name)
                for base in info.bases:
                    parent = self.eval(rel, base, None)
                    if isinstance(parent, Klass):
                        subclasses[(parent.site.rel, parent.site.start)].append(
                            (rel, a.site(node).start)
                        )
        names |= self._imported_as(names)  # `import { Api as Client }`: `new Client(…)`
        for rel, a in adapters:
            for call in a.calls():
                # JS `new K(…)`; Python `K(…)`
                ctor = call.child_by_field_name("constructor" if a.family == "js" else "function")
                if ctor is None or a.terminal(ctor) not in names:
                    continue
                if a.family == "js" and call.type != "new_expression":
                    continue
                value = self.eval(rel, call, None)
                if isinstance(value, Instance):
                    made[(value.klass.site.rel, value.klass.site.start)].append(value)
        self._made, self._subclasses = dict(made), dict(subclasses)
        self._cache.clear()  # `this` read while building did not see the instances

    def _imported_as(self, names: set[str]) -> set[str]:
        """The local names the component's imports give its classes (an alias, a default
        import of a module of the component)."""
        out: set[str] = set()
        for mod in self.program.js.values():
            for local, b in mod.imports.items():
                if b.target is not None and (b.imported in names or b.imported == "default"):
                    out.add(local)
        for mod in self.program.py.values():
            for local, b in mod.bindings.items():
                if b.target is not None and b.name in names:
                    out.add(local)
        return out

    def as_base(
        self, instance: Instance, base: Klass, depth: int, chain: int = 0
    ) -> Instance | None:
        """A subclass instance seen from its base class `base`: the arguments each
        constructor on the way passes to `super(…)` (a subclass without a constructor
        passes its own); None when the way is not known. `depth` is the evaluation's."""
        if (instance.klass.site.rel, instance.klass.site.start) == (base.site.rel, base.site.start):
            return instance
        if depth > MAX_DEPTH:
            return None
        key = (instance, base.site)
        if self._as_base is None:
            self._as_base = {}
        if key not in self._as_base:
            self._as_base[key] = None  # a way through itself: not known
            self._as_base[key] = self._way_up(instance, base, depth, chain)
        return self._as_base[key]

    def _way_up(self, instance: Instance, base: Klass, depth: int, chain: int) -> Instance | None:
        a = self.program.adapter(instance.klass.site.rel)
        node = a.node_at(instance.klass.site) if a is not None else None
        info = a.klass(node) if node is not None else None
        if a is None or info is None or chain >= MAX_CHAIN or len(info.bases) != 1:
            return None
        parent = self.eval(instance.klass.site.rel, info.bases[0], None, depth + 1)
        if not isinstance(parent, Klass):
            return None
        ctor = info.methods.get("constructor") or info.methods.get("__init__")
        if ctor is None:  # the constructor inherited: what it was given goes up as it is
            up = Instance(parent, instance.args, instance.kwargs, instance.made)
            return self.as_base(up, base, depth + 1, chain + 1)
        rel = instance.klass.site.rel
        act = self._ctor_activation(a, info, instance)
        for call in a.calls():
            inside = ctor.start_byte <= call.start_byte < ctor.end_byte
            if not inside or not _calls_super(a, call):
                continue
            view = a.call_view(call)
            args = tuple(self.eval(rel, arg, act, depth + 1) for arg in view.args)
            kwargs = tuple((k, self.eval(rel, v, act, depth + 1)) for k, v in view.kwargs.items())
            return self.as_base(Instance(parent, args, kwargs, True), base, depth + 1, chain + 1)
        return None


def _says(value: Value) -> bool:
    """Whether a member's value on an instance is known: not unknown, not a caller's
    parameter, not `None`, and none of its alternatives either."""
    if isinstance(value, Choice):
        return all(_says(o) for o in value.options)
    return not isinstance(value, (Unknown, Method, Param)) and value != Lit(None)


def _calls_super(a, call) -> bool:
    """JS `super(…)`, Python `super().__init__(…)`: the base class's constructor called."""
    fn = call.child_by_field_name("function")
    if fn is None:
        return False
    if a.family == "js":
        return fn.type == "super"
    inner = fn.child_by_field_name("object") if fn.type == "attribute" else None
    return (
        inner is not None
        and inner.type == "call"
        and a.text(inner.child_by_field_name("function")) == "super"
        and a.text(fn.child_by_field_name("attribute")) == "__init__"
    )
