"""The models at work: the `Library` the evaluator asks what a library value is, and the
interpretation of one call or decorator into events (`recognize`).

Indexes every model's makers by the dotted name they match (`express.Router`,
`<global>.fetch`, member `$axios`, type `@angular/common/http.HttpClient`) and its
operations by (model, role, method). A value becomes a model object (`Obj`) when it is
made the way a maker says — called, constructed, imported as the module itself, read as a
global, a member name, a declared type, a decorated or derived class; its props are read
from the making call by the maker's selectors.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from extractors.engine.values import (
    Config,
    Env,
    Ext,
    Func,
    Instance,
    Klass,
    Lit,
    Method,
    Obj,
    ObjLit,
    Param,
    Site,
    Typed,
    Value,
)
from extractors.models.class_facts import ClassFacts
from extractors.models.config_reads import config_read
from extractors.models.env_fields import field_env
from extractors.models.folders import folder_modules
from extractors.models.held import Claim, HeldObjects, Vocabulary, _in_files, model_site
from extractors.models.injected import FixtureIndex
from extractors.models.relations import instance_of
from extractors.models.role_reads import role_called, role_member
from extractors.models.schema import Maker, Model, Operation
from extractors.models.sources import CallSource, ClassSource

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call, Evaluator


@dataclass
class Library(ClassFacts, HeldObjects):
    models: list[Model]
    by_call: dict[str, list[Claim]] = field(default_factory=dict)
    by_value: dict[str, list[Claim]] = field(default_factory=dict)  # module / global makers
    by_member: dict[str, list[Claim]] = field(default_factory=dict)
    by_type: dict[str, list[Claim]] = field(default_factory=dict)
    by_subclass: dict[str, list[Claim]] = field(default_factory=dict)
    ops: dict[tuple[str, str, str], list[Operation]] = field(default_factory=dict)
    vocabulary: Vocabulary = field(default_factory=lambda: Vocabulary())
    patterns: dict[tuple[str, str], list[tuple[str, Operation]]] = field(default_factory=dict)
    by_file: list[Claim] = field(default_factory=list)  # object literals files of a name export
    by_id: dict[str, Model] = field(default_factory=dict)
    _holders: dict[tuple[str, str], bool] = field(default_factory=dict)
    made: dict[tuple[str, str], list[Obj]] = field(default_factory=dict)  # objects made, by role
    # last names of what makes objects, by the language of the model (`py`, `js`)
    maker_names: dict[str, set[str]] = field(default_factory=dict)
    _held: dict[tuple, Obj] = field(default_factory=dict)
    injects: set[str] = field(default_factory=set)  # injection markers: `fastapi.Depends`
    mount_names: set[str] = field(default_factory=set)  # methods that mount (`include_router`)
    define_makers: set[str] = field(default_factory=set)  # calls carrying a bundler define table
    named: dict = field(default_factory=dict)  # modules assigning a convention name (named.py)
    # a library base class's dotted name, or (model, role) of an object used as a base class
    # -> the class attributes it gives (`class_members`): (model, {attribute: role})
    class_bases: dict = field(default_factory=dict)
    proxies: dict[str, tuple[str, ...]] = field(default_factory=dict)  # (models/proxies.py)
    proxy_names: set[str] = field(default_factory=set)  # their last names (`current_user`)
    proxied: dict[str, Value | None] = field(default_factory=dict)
    backrefs: dict | None = None  # (target class, attribute) -> its relationships (relations.py)
    fixtures: FixtureIndex | None = None  # the component's test fixtures (injected.py)

    def __post_init__(self) -> None:
        for model in self.models:
            self.by_id[model.id] = model
            for role, makers in model.objects.items():
                for maker in makers:
                    claim = Claim(model, role, maker)
                    for name in self.full_names(model, maker):
                        if maker.how == "file":
                            self.by_file.append(claim)
                            continue
                        table = {
                            "call": self.by_call, "new": self.by_call, "module": self.by_value,
                            "global": self.by_value, "member": self.by_member,
                            "type": self.by_type, "subclass": self.by_subclass,
                        }.get(maker.how)  # fmt: skip
                        if table is not None:
                            table.setdefault(name, []).append(claim)
                        self.vocabulary.add(name.rsplit(".", 1)[-1])
                        if maker.how in ("call", "new"):
                            last = name.rsplit(".", 1)[-1]
                            self.maker_names.setdefault(model.family, set()).add(last)
            for op in model.operations:
                if op.action == "defines":
                    self.define_makers |= {
                        name.rsplit(".", 1)[-1]
                        for role in op.on
                        for maker in model.objects.get(role, ())
                        for name in self.full_names(model, maker)
                    }
                for role in op.on:
                    for name in op.calls:
                        if "*" in name:  # `use*Query`: the methods a library names by pattern
                            self.patterns.setdefault((model.id, role), []).append((name, op))
                            self.vocabulary.add(name)
                            continue
                        self.ops.setdefault((model.id, role, name), []).append(op)
                        self.vocabulary.add(name)
                if op.action == "mount" and "child" in op.spec:
                    self.mount_names.update(op.calls)
                if op.action == "globals":  # `this.$http(options)`: a plugin's member called
                    self.vocabulary.update(op.spec)
            for deco in model.decorators:
                self.vocabulary.update(deco.names)
            self.proxies.update(model.proxies)
            self.proxy_names.update(name.rsplit(".", 1)[-1] for name in model.proxies)
            for base, attrs in model.class_members.items():
                module, sep, path = base.partition("#")
                key = f"{module}.{path}" if sep else (model.id, base)
                self.class_bases.setdefault(key, []).append((model, attrs))
            for marker in model.injects:
                self.injects.update(self.full_names(model, Maker("call", marker)))

    @staticmethod
    def full_names(model: Model, maker: Maker) -> list[str]:
        """A maker's target as the dotted names values have: a global is `<global>.name`, a
        member maker is the member's name, `module#path` is explicit, a module's own name is the module itself, and a bare path is
        relative to each of the model's modules."""
        target = maker.target
        if maker.how == "global":
            return [f"<global>.{target}"]
        if maker.how == "member":
            return [target]
        if "#" in target:
            module, _, path = target.partition("#")
            return [f"{module}.{path}" if path else module]
        if target in model.modules:
            return [target]
        return [f"{m}.{target}" for m in model.modules] or [target]

    # --- the evaluator's questions -------------------------------------------------
    def claim(self, value: Value) -> Obj | None:
        """A value a library holds itself: the module `axios`, the global `fetch`."""
        found = self.claims(value)
        return found[0] if found else None

    def claims(self, value: Value) -> list[Obj]:
        """Every model's hold on a value: two models may read one function (Vite's
        `defineConfig`: its `define` table for bundler defines, its `server.proxy` for the
        dev-server gateway), and each one's operations apply."""
        if not isinstance(value, Ext):
            return []
        return [self.held(claim) for claim in self.by_value.get(_dotted(value), ())]

    def member(self, ev: Evaluator, target: Value, name: str, rel: str = "") -> Value | None:
        for claim in self.by_member.get(name, ()):
            if _in_files(claim.maker, rel):
                return self.held(claim)
        if self.by_file and isinstance(target, ObjLit):  # `environment.apiUrl` of environment.ts
            read = self.file_member(ev, target, name)
            if read is not None:
                return read
        store_owner = isinstance(target, Obj) and any(m == target.model for m, _ in self.stores)
        if self.stores and (not isinstance(target, Obj) or store_owner):
            shared = self.shared_members(ev).get(name)
            if shared is not None:  # `this.$http` after `Vue.prototype.$http = axios`
                return shared
        if isinstance(target, Ext) and self._names_maker(f"{target.dotted}.{name}"):
            return None  # `requests.Session`: a maker of its own, not a facet of the module
        obj = target if isinstance(target, Obj) else self.claim(target)
        if obj is None:
            return None
        if self.operations(obj, name):
            return Method(obj, name)
        model = self.by_id.get(obj.model)
        if model is not None and obj.role in model.instances:  # `article.author.username`
            row = instance_of(ev, obj)
            if row is not None:
                return ev.member(row, name, rel, None, 1)
        read = role_member(ev, self, model, obj, name) if model is not None else None
        if read is not None:
            return read
        prop = obj.prop(name)
        if prop is not None:
            return prop
        facet = f"{obj.role}.{name}"  # `client.defaults`; a base class keeps what makes it
        kept = obj.props if model is not None and facet in model.base_classes else ()
        return Obj(obj.model, facet, obj.origin, kept)

    def field(
        self, ev: Evaluator, klass: Klass, name: str, value: Value, where: Site | None = None
    ) -> Value | None:
        """A class attribute a library reads from the environment: a field of a settings
        class (pydantic's BaseSettings: the variable of the field's name, its default the
        value written)."""
        made = self._derived(ev, klass, 0)
        model = self.by_id.get(made.model) if made is not None else None
        if model is not None and model.reads.get(made.role) == "env-field":
            return field_env(ev, model, klass, name, value, where)
        return None

    def _derived(self, ev: Evaluator, klass: Klass, depth: int) -> Obj | None:
        """The model object a class is by derivation, through component base classes."""
        if depth > 6:
            return None
        made = self.subclass(ev, klass, with_props=False)
        if made is not None:
            return made
        a = ev.program.adapter(klass.site.rel)
        node = a.node_at(klass.site) if a is not None else None
        info = a.klass(node) if node is not None else None
        for base in info.bases if info is not None else []:
            value = ev.eval(klass.site.rel, base, None)
            if isinstance(value, Klass):
                found = self._derived(ev, value, depth + 1)
                if found is not None:
                    return found
        return None

    def typed(self, ev: Evaluator, type_value: Value) -> Value | None:
        if isinstance(type_value, Ext):
            for claim in self.by_type.get(_dotted(type_value), ()):
                return self.held(claim)
        return None

    def call(self, ev: Evaluator, call: Call) -> Value | None:
        callee = call.callee
        if isinstance(callee, Ext):
            for claim in self.by_call.get(_dotted(callee), ()):
                made = self.make(ev, claim, call)
                if made is not None:
                    return made
            for obj in self.claims(callee):
                found = self._returned(ev, obj, "()", call)
                if found is not None:
                    return found
            if callee.path:
                owner = self.claim(Ext(callee.package, callee.path[:-1]))
                if owner is not None:
                    return self._returned(ev, owner, callee.path[-1], call)
            return None
        if isinstance(callee, Method) and isinstance(callee.target, Obj):
            return self._returned(ev, callee.target, callee.name, call)
        if isinstance(callee, Obj):
            model = self.by_id.get(callee.model)
            if model is not None and not self.operations(callee, "()"):
                called = role_called(ev, model, callee, call.arg(0))  # `client.users({ id })`
                if called is not None:
                    return called
            return self._returned(ev, callee, "()", call)
        if isinstance(callee, Klass):  # a class derived from a library class
            made = self.subclass(ev, callee, depth=call.depth + 1)
            model = self.by_id.get(made.model) if made is not None else None
            if made is not None and model is not None and model.reads.get(made.role) != "env-field":
                return made  # (a settings class stays an instance: its fields are read)
        return None

    def make(self, ev: Evaluator, claim: Claim, call: Call) -> Obj | None:
        """The object a making call makes, unless the maker's `when` says this call makes
        none (`when: {absent: kw.app}`: an httpx client on an in-process app is no client)."""
        src = CallSource(ev, call, None)
        for condition, selector in claim.maker.when.items():
            found = src.select(selector) is not None
            if found != (condition == "present"):
                return None
        props = tuple(
            (k, v) for k, sel in claim.maker.props.items() if (v := src.select(sel)) is not None
        )
        return Obj(claim.model.id, claim.role, call.site, props)

    def subclass(
        self, ev: Evaluator, klass: Klass, with_props: bool = True, depth: int = 0
    ) -> Obj | None:
        """A class of the component derived from a library class a model names (its props
        read off its attributes unless `with_props` is false: a field's own read asks which
        library class it belongs to, so it must not read fields back). Its bases are read at
        the depth of the evaluation that asks: a base made by a call can make the class
        itself again (`class A(make())` where `make` returns `A`)."""
        a = ev.program.adapter(klass.site.rel)
        node = a.node_at(klass.site) if a is not None else None
        info = a.klass(node) if node is not None else None
        if info is None:
            return None
        for base in info.bases:
            value = ev.eval(klass.site.rel, base, None, depth)
            if isinstance(value, Ext):
                for claim in self.by_subclass.get(_dotted(value), ()):
                    src = ClassSource(ev, klass)
                    props = tuple((k, v) for k, sel in claim.maker.props.items()
                                  if with_props and (v := src.select(sel)) is not None)  # fmt: skip
                    return Obj(claim.model.id, claim.role, klass.site, props)
        return None

    def _returned(self, ev: Evaluator, obj: Obj, name: str, call: Call) -> Value | None:
        for op in self.operations(obj, name):
            src = CallSource(ev, call, obj)
            if op.action == "env":
                key = src.select(op.spec.get("name"))
                if isinstance(key, Lit) and isinstance(key.value, str):
                    return Env(key.value, src.select(op.spec.get("default")), obj.model)
            if op.action == "config":
                key = src.select(op.spec.get("key"))
                if isinstance(key, Lit) and isinstance(key.value, str):
                    default = src.select(op.spec.get("default"))
                    return config_read(ev, self, obj, op, key.value, default)
            if op.action == "folder":  # require-directory: the folder's modules by name
                return folder_modules(ev, obj, call, src.select(op.spec.get("path")),
                                      src.select(op.spec.get("options")))  # fmt: skip
            if op.instance is not None:  # `Product.objects.get(…)`: a row of that class
                made = instance_of(ev, src.select(op.instance))
                if made is not None:
                    return made
            if op.dependency is not None:  # `inject(Token)`: what the component provides
                return ev.injector.resolve(src.select(op.dependency))
            if op.yields is not None:
                found = src.select(op.yields)
                if isinstance(found, Func):
                    return Func(found.site, found.act, found.this, found.name, obj.model)
                if found is not None:
                    return found
            if op.returns == "self":
                return obj
            if op.returns:
                props = tuple((k, v) for k, sel in op.returns_props.items()
                              if (v := src.select(sel)) is not None)  # fmt: skip
                inherited = tuple((k, v) for k, v in obj.props if k not in dict(props))
                return Obj(obj.model, op.returns, call.site, inherited + props)
        return None

    def operations(self, obj: Obj, name: str) -> list[Operation]:
        found = self.ops.get((obj.model, obj.role, name))
        if found is not None:
            return found
        return [op for pattern, op in self.patterns.get((obj.model, obj.role), ())
                if fnmatch.fnmatchcase(name, pattern)]  # fmt: skip

    def phase_at(self, ev: Evaluator, where: Site) -> str | None:
        """The phase a middleware use belongs to, from the call or decorator it is an
        argument of (`app.useGlobalGuards(g)`: guard; `@UsePipes(p)`: pipe)."""
        a = ev.program.adapter(where.rel)
        node = a.node_at(where) if a is not None else None
        for _ in range(4):
            node = node.parent if node is not None else None
            if node is None:
                return None
            view = a.call_view(node)
            if view is None:
                continue
            callee = ev.eval(where.rel, view.callee, None)
            if isinstance(callee, Method) and isinstance(callee.target, Obj):
                for op in self.operations(callee.target, callee.name):
                    phase = op.spec.get("phase")
                    if phase is not None and phase.terms and phase.terms[0].kind == "lit":
                        return phase.terms[0].key
                return None
            if isinstance(callee, Ext) and callee.path:
                for model in self.models:
                    for deco in model.decorators:
                        if deco.action == "use" and callee.path[-1] in deco.names:
                            return deco.names[callee.path[-1]] or None
                return None
        return None

    def unbound_router(self, program, method: str, where: Site) -> Obj | None:
        """A router of the server library the component imports whose routers have `method`
        (for routes registered on a parameter nobody passes), else None."""
        used = set()
        for mod in program.js.values():
            used |= {b.package or b.spec for b in mod.imports.values() if b.target is None}
        for model in self.models:
            if model.kind != "server" or not (set(model.modules) & used):
                continue
            for op in model.operations:
                if op.action == "route" and method in op.calls and op.on:
                    return Obj(model.id, op.on[-1], where, (("unbound", Lit(True)),))
        return None

    def holds_routes(self, obj: Obj) -> bool:
        """Whether routes can hang off an object of this role (a router, app, controller)."""
        key = (obj.model, obj.role)
        found = self._holders.get(key)
        if found is None:
            model = self.by_id.get(obj.model)
            found = model is not None and (
                any(obj.role in op.on and op.action in ("route", "mount", "prefix")
                    for op in model.operations)
                or any(d.role == obj.role for d in model.decorators)
                or any(obj.role in roles for roles in model.implicit.values())
                or obj.role in model.router_roles
            )  # fmt: skip
            self._holders[key] = found
        return found


def _dotted(value: Ext) -> str:
    return value.dotted


__all__ = ["Library", "CallSource", "ClassSource", "model_site", "Param", "Func", "Instance",
           "Typed", "Config"]  # fmt: skip
