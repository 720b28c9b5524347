"""The instances the component makes of its own classes, for the evaluator's `this` / `self`.

A method read where nobody calls it (the request a service class's method makes, called
from a UI module) has no receiver; its `this` is each instance the component constructs of
the class or of a direct subclass (`new UsersApi()`, `new Resource(client, 'users')`), so
what the constructor was given (`constructor(private http: AxiosInstance)`, `super(client,
'users')`) reaches the method. A member of a base class read for a subclass instance binds
the base's constructor to the arguments the subclass's `super(…)` passes.
"""

from __future__ import annotations

from collections import defaultdict

from extractors.engine.values import Activation, Instance, Klass, Value, choice

MAX_INSTANCES = 4  # instances of one class read as `this`; more: the class's own reading
MAX_CHAIN = 4  # base classes walked from a subclass instance


class Instances:
    """`Evaluator`'s index of constructions (`new K(…)`, Python `K(…)`) of the component's
    classes."""

    _made: dict[tuple[str, int], list[Instance]] | None = None
    _subclasses: dict[tuple[str, int], list[tuple[str, int]]] | None = None

    def instances_of(self, klass: Klass) -> Value | None:
        """`this` of a method of `klass` read unbound: the instances made of it or of a direct
        subclass, when there are a few; None when there are none or too many."""
        if self._made is None:
            self._index_constructions()
        key = (klass.site.rel, klass.site.start)
        made = list(self._made.get(key, ()))  # type: ignore[union-attr]
        for sub in self._subclasses.get(key, ()):  # type: ignore[union-attr]
            made += self._made.get(sub, ())  # type: ignore[union-attr]
        if not made or len(made) > MAX_INSTANCES:
            return None
        return choice(made)

    def _index_constructions(self) -> None:
        """Every `new K(…)` whose `K` names a class of the component, by class; every class
        by its direct base class. Built once; while building, `this` reads unbound."""
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

    def as_base(self, instance: Instance, base: Klass, depth: int = 0) -> Instance | None:
        """A subclass instance seen from its base class `base`: the arguments each
        constructor on the way passes to `super(…)` (a subclass without a constructor
        passes its own); None when the way is not known."""
        if (instance.klass.site.rel, instance.klass.site.start) == (base.site.rel, base.site.start):
            return instance
        a = self.program.adapter(instance.klass.site.rel)
        node = a.node_at(instance.klass.site) if a is not None else None
        info = a.klass(node) if node is not None else None
        if a is None or info is None or depth >= MAX_CHAIN or len(info.bases) != 1:
            return None
        parent = self.eval(instance.klass.site.rel, info.bases[0], None)
        if not isinstance(parent, Klass):
            return None
        py = a.family == "py"
        ctor = info.methods.get("__init__" if py else "constructor")
        if ctor is None:
            up = Instance(parent, instance.args, instance.kwargs, instance.made)
            return self.as_base(up, base, depth + 1)
        rel = instance.klass.site.rel
        act = Activation(a.scope_of(ctor), self._bind(a.function(ctor), list(instance.args),
                                                     dict(instance.kwargs), py), instance)  # fmt: skip
        for call in a.calls():
            inside = ctor.start_byte <= call.start_byte < ctor.end_byte
            if not inside or not _calls_super(a, call):
                continue
            view = a.call_view(call)
            args = tuple(self.eval(rel, arg, act) for arg in view.args)
            kwargs = tuple((k, self.eval(rel, v, act)) for k, v in view.kwargs.items())
            return self.as_base(Instance(parent, args, kwargs, True), base, depth + 1)
        return None


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
