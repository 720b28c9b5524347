"""The instances an ORM hands back: `instance: prop.model` of a query's getter, a
relationship's attribute read as its class's instance, and the attribute a relationship's
backref gives its target class (SQLAlchemy's `relationship("User", backref="profile")`
makes `User.profile`). A class is named by the class itself or by its name as a string."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.values import Instance, Klass, Lit, Obj, Value

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator


def instance_of(ev: Evaluator, value: Value | None) -> Instance | None:
    """An instance of the class a value names: the class, its name (`"Comment"`), or the
    `model` a query or relationship object was made for (`get_object_or_404(queryset)`)."""
    if isinstance(value, Obj):
        value = value.prop("model")
    if isinstance(value, Lit) and isinstance(value.value, str):
        value = class_named(ev, value.value)
    return Instance(value) if isinstance(value, Klass) else None


def class_named(ev: Evaluator, name: str) -> Klass | None:
    """The component's module-level class of that name (`"pkg.models.User"`: its last part),
    the first in file order."""
    program = ev.program
    name = name.rsplit(".", 1)[-1]
    for rel in program.rels():
        mod = program.py.get(rel)
        if mod is None or name not in mod.symbols:
            continue
        a = program.adapter(rel)
        binding = a.resolve(name, a.root) if a is not None else None
        if binding is not None and binding.kind == "class":
            return Klass(a.site(binding.node), name)
    return None


def backref(index: dict, klass: Klass, name: str) -> Obj | None:
    """The relationship object a backref named `name` gives `klass` (`backref_index`): its
    `model` is the class declaring the relationship."""
    owners = index.get((klass.name, name))
    if not owners:
        return None
    owner, relation = owners[0]
    return Obj(relation.model, relation.role, relation.origin, (("model", owner),))


def backref_index(ev: Evaluator, models) -> dict[tuple[str, str], list[tuple[Klass, Obj]]]:
    """(target class name, backref name) -> (declaring class, its relationship object), for
    every class attribute made by a call whose object a model's `backrefs` names."""
    roles = {(m.id, role): paths for m in models for role, paths in m.backrefs.items()}
    families = {m.family for m in models}
    makers = {name for m in models for op in m.operations for name in op.calls
              if (m.id, op.returns) in roles}  # fmt: skip
    marks = [name.encode() for name in makers]
    out: dict[tuple[str, str], list[tuple[Klass, Obj]]] = {}
    program = ev.program
    for rel in program.rels():
        a = program.adapter(rel)
        if a is None or a.family not in families or not any(m in a.sf.data for m in marks):
            continue
        for call in a.calls():
            view = a.call_view(call)
            if view is None or a.terminal(view.callee) not in makers:
                continue
            owner = _class_around(a, call)
            value = ev.eval(rel, call, None) if owner is not None else None
            if not isinstance(value, Obj) or (value.model, value.role) not in roles:
                continue
            named = next((n for p in roles[(value.model, value.role)]
                          if isinstance(n := _prop_path(value, p), Lit)), None)  # fmt: skip
            target = value.prop("model")
            target_name = (
                target.name if isinstance(target, Klass)
                else str(target.value).rsplit(".", 1)[-1] if isinstance(target, Lit) else None
            )  # fmt: skip
            if named is not None and isinstance(named.value, str) and target_name:
                out.setdefault((target_name, named.value), []).append((owner, value))
    return out


def _prop_path(obj: Obj, path: str) -> Value | None:
    """`backref.name`: the prop `name` of the object in the prop `backref`."""
    value: Value | None = obj
    for part in path.split("."):
        value = value.prop(part) if isinstance(value, Obj) else None
    return value


def _class_around(a, node) -> Klass | None:
    """The class whose body holds `node` directly (a class attribute's value)."""
    owner = a.class_of_field(node)
    info = a.klass(owner) if owner is not None else None
    return Klass(a.site(owner), info.name) if info is not None else None
