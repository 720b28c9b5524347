"""Class members of the evaluator: methods, fields and their initializers, `self.x = …`
written in a method, constructor arguments (dataclass keywords, TS parameter properties,
`Object.assign(this, …)`), typed and injected fields, and what a base class gives —
the largest kind of member, kept apart from the other members.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.engine.values import (
    Activation,
    Ext,
    Func,
    Instance,
    Klass,
    Lit,
    Method,
    Obj,
    Unknown,
    Value,
    choice,
)
from extractors.lang.base import FileAdapter
from extractors.lang.expr import (
    EMember,
    EName,
    EThis,
)


class ClassMembers:
    """`Evaluator`'s members of a class or of an instance of it."""

    def class_member(self, klass: Klass, name: str, depth: int, static: bool = False,
                     instance: Instance | None = None, origin: Klass | None = None) -> Value:  # fmt: skip
        a = self.program.adapter(klass.site.rel)
        node = a.node_at(klass.site) if a is not None else None
        info = a.klass(node) if node is not None else None
        if a is None or info is None:
            return Unknown(name, "class not found")
        rel = klass.site.rel
        this = instance if instance is not None else (origin or klass)  # `cls` of a subclass
        unbound = instance is not None and not (instance.made or instance.args or instance.kwargs)
        if unbound and name not in info.methods and origin is None:
            made = self.made_member(klass, name, depth)  # `this.http` of a method read unbound
            if made is not None:
                return made
        if name in info.methods:
            method = info.methods[name]
            if a.is_getter(method):  # read as the value it returns
                outs, _ = self.apply(Func(a.site(method), None, this, name), [])
                return choice(outs) if outs else Unknown(name, "getter returns nothing known")
            return Func(a.site(method), None, this, name)
        seen = instance
        if instance is not None and instance.klass.site != klass.site:
            seen = self.as_base(instance, klass, depth)  # a base's member: what `super(…)` passed
        ctor_act = self._ctor_activation(a, info, seen)
        if ctor_act is not None:  # `Object.assign(this, config)` in the constructor
            merged = self._assigned_into_this(a, info, ctor_act, name, depth)
            if merged is not None:
                return merged
        if name in info.fields:
            passed = (
                self._field_passed(a, info, name, instance, depth) if a.family == "py" else None
            )
            if passed is not None:  # a dataclass / attrs field the constructor call gave
                return passed
            value = self.eval(rel, info.fields[name], ctor_act, depth + 1)
            if isinstance(value, Unknown) or value == Lit(None):  # `_c = field(default=None)`
                later = self._self_assignments(a, info, name)  # then `self._c = Client(…)`
                if later:
                    return choice([self.eval(rel, v, self._method_act(a, v, instance, ctor_act),
                                             depth + 1) for v in later])  # fmt: skip
            return self.library.field(self, klass, name, value, a.site(info.fields[name])) or value
        assigned = self._self_assignments(a, info, name)
        if assigned:
            values = [self.eval(rel, v, ctor_act, depth + 1) for v in assigned]
            return choice(values)
        if name in info.field_params:  # `constructor(@Inject(API_URL) private url: string)`
            injected = self.injected(rel, a, info.field_params[name], depth + 1)
            if injected is not None:
                return injected
            passed = self._parameter_property(a, info, name, ctor_act, depth)
            if passed is not None:  # `constructor(private config = new Configuration())`
                return passed
        if name in info.field_types and a.family == "py":  # `secret: str` of a settings class
            read = self.library.field(self, klass, name, None, a.site(info.field_types[name]))
            if read is not None:
                return read
        if name in info.field_types:  # `constructor(private http: HttpClient)`
            typed = self._typed(rel, a, info.field_types[name], depth + 1)
            if typed is not None:
                return typed
        fallback: Value | None = None
        for base in info.bases:
            parent = self.eval(rel, base, None, depth + 1)
            if isinstance(parent, Klass):
                inherited = self.class_member(parent, name, depth + 1, static, instance,
                                              origin or klass)  # fmt: skip
                if isinstance(inherited, Method) and isinstance(inherited.target, Obj):
                    # a library class's operation reached through a base of the component
                    # (`View.as_view` on a subclass of a subclass): this class is the object
                    made = Obj(inherited.target.model, inherited.target.role, klass.site,
                               inherited.target.props, klass.name)  # fmt: skip
                    return Method(made, name)
                if not isinstance(inherited, (Unknown, Method)):
                    return inherited
            elif given := self.library.class_member(self, parent, origin or klass, name):
                return given  # `Article.query` of a class derived from an ORM's model class
            elif isinstance(parent, Obj) and isinstance(
                inner := self.library.derived_from(parent), Klass
            ):  # `db.Model` built from the component's `model_class`: its methods
                inherited = self.class_member(inner, name, depth + 1, static, instance,
                                              origin or klass)  # fmt: skip
                if not isinstance(inherited, (Unknown, Method)):
                    return inherited
            elif isinstance(parent, Ext):  # a library base class: what the library gives
                made = self.library.subclass(self, klass)
                given = self.library.member(self, made or Instance(klass), name)
                if given is not None:
                    return given
                # nothing the library says: a later base of the component may have it
                # (`class Text(str, Node)`: `Node`'s method), else the library's object's
                fallback = fallback or (Method(made, name) if made is not None else None)
        return fallback or Method(this, name)

    def _ctor_activation(
        self, a: FileAdapter, info, instance: Instance | None
    ) -> Activation | None:
        ctor = info.methods.get("constructor") or info.methods.get("__init__")
        if instance is None or not (instance.args or instance.kwargs or instance.made):
            return None  # `self` of a method: made by callers not known here
        if ctor is None:  # field initializers still see `this` as the instance made
            return Activation(a.scope_of(info.node), (), instance) if a.family == "js" else None
        fn = a.function(ctor)
        values = self._bind(fn, list(instance.args), dict(instance.kwargs), a.family == "py")
        return Activation(a.scope_of(ctor), values, instance)

    def _method_act(self, a: FileAdapter, node: TsNode, instance: Instance | None,
                    default: Activation | None) -> Activation | None:  # fmt: skip
        """The activation of the Python method around `node` with `self` the instance."""
        fn = a.function_at(node) if instance is not None and a.family == "py" else None
        if fn is None:
            return default
        return Activation(a.scope_of(fn), self._bind(a.function(fn), [], {}, True), instance)

    def _field_passed(self, a: FileAdapter, info, name: str, instance: Instance | None,
                      depth: int) -> Value | None:  # fmt: skip
        """A field of a class with no `__init__` of its own (a dataclass, an attrs or pydantic
        model): the keyword the constructor call passed for it — its name, its name without a
        leading underscore (attrs), or the `alias=` its `field(...)` names."""
        if instance is None or not instance.kwargs or "__init__" in info.methods:
            return None
        names = [name, name.lstrip("_")]
        view = a.call_view(info.fields[name])
        if view is not None and "alias" in view.kwargs:
            alias = self.eval(a.sf.rel, view.kwargs["alias"], None, depth + 1)
            if isinstance(alias, Lit) and isinstance(alias.value, str):
                names.insert(0, alias.value)
        kwargs = dict(instance.kwargs)
        return next((kwargs[n] for n in names if n in kwargs), None)

    def _parameter_property(self, a: FileAdapter, info, name: str, act: Activation | None,
                            depth: int) -> Value | None:  # fmt: skip
        """A TS parameter property's value: what the constructor was passed, else its default
        (None when neither is known: its declared type may still say)."""
        ctor = info.methods.get("constructor")
        node = info.field_params[name]
        param = next((p for p in a.function(ctor).params if p.node == node), None) if ctor else None
        if param is None:
            return None
        bound = act.get(f"#{param.index}") if act is not None else None
        if bound is not None:
            return bound
        return (
            self.eval(a.sf.rel, param.default, act, depth + 1)
            if param.default is not None
            else None
        )

    def _assigned_into_this(self, a: FileAdapter, info, act: Activation, name: str,
                            depth: int) -> Value | None:  # fmt: skip
        """A member an `Object.assign(this, source)` in the constructor copies in."""
        ctor = info.methods.get("constructor")
        if ctor is None or b"Object.assign" not in a.sf.data:
            return None
        rel = a.sf.rel
        for node in a.calls():
            if not (ctor.start_byte <= node.start_byte < ctor.end_byte):
                continue
            view = a.call_view(node)
            if view is None or len(view.args) < 2 or a.text(view.callee) != "Object.assign":
                continue
            if not isinstance(a.view(view.args[0]), EThis):
                continue
            for source in reversed(view.args[1:]):
                value = self.member(
                    self.eval(rel, source, act, depth + 1), name, rel, source, depth + 1
                )
                if not isinstance(value, (Unknown, Method)) and value != Lit(None):
                    return value
        return None

    def _self_assignments(self, a: FileAdapter, info, name: str) -> list[TsNode]:
        out = []
        start, end = info.node.start_byte, info.node.end_byte
        for target, value in a.assignments_to(name):
            if not (start <= target.start_byte < end) or self._unused_setter(a, target):
                continue
            view = a.view(target)
            if isinstance(view, EMember):
                obj = a.view(view.obj)
                if isinstance(obj, EThis) or (isinstance(obj, EName) and obj.name == "self"):
                    out.append(value)
        return out

    def _unused_setter(self, a: FileAdapter, target: TsNode) -> bool:
        """An assignment in a property's setter (`@host.setter`, `set host(v)`) while nothing
        in the component assigns that property: it never runs."""
        method = a.function_at(target)
        if method is None or not a.is_setter(method):
            return False
        prop = a.function(method).name
        return not any(
            other is not None and other.assignments_to(prop)
            for other in map(self.program.adapter, self.program.rels())
        )
