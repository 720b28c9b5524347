"""The environment variable behind a field of a settings class (a model whose role `reads:
env-field`, pydantic's BaseSettings): the field name upper-cased after the class's prefix, or
the name its field call gives outright; where the model's `env_reads:` data says those are
written (`config`: the class attributes and inner classes holding `prefix` / `env_file`,
inherited through base classes of the component; `field_name`: the calls and keywords)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.values import Env, Klass, Lit, Site, Value

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator
    from extractors.models.schema import Model

MAX_BASES = 6


def field_env(ev: Evaluator, model: Model, klass: Klass, name: str, value: Value | None,
              where: Site | None) -> Env:  # fmt: skip
    data = model.env_reads
    named = _field_name(ev, data.get("field_name") or {}, where)
    if named is None:
        named = (class_setting(ev, data.get("config") or {}, klass, "prefix") or "") + name
    return Env(named.upper() if named is not None else name.upper(), value, model.id, where)


def class_setting(
    ev: Evaluator, config: dict, klass: Klass, key: str, depth: int = 0
) -> str | None:
    """A settings class's `prefix` / `env_file` (the model's keyword for it), its own or a
    base class's."""
    keyword = config.get(key)
    a = ev.program.adapter(klass.site.rel)
    node = a.node_at(klass.site) if a is not None and keyword else None
    info = a.klass(node) if node is not None else None
    if info is None or depth > MAX_BASES:
        return None
    rel = klass.site.rel
    for attr in config.get("attrs") or []:  # `model_config = SettingsConfigDict(env_prefix=…)`
        call = a.call_view(info.fields[attr]) if attr in info.fields else None
        if call is not None and keyword in call.kwargs:
            found = ev.eval(rel, call.kwargs[keyword], None)
            if isinstance(found, Lit) and isinstance(found.value, str):
                return found.value
    body = node.child_by_field_name("body")
    for stmt in body.named_children if body is not None else []:  # `class Config: env_prefix = …`
        inner = a.klass(stmt)
        classes = config.get("classes") or []
        if inner is not None and inner.name in classes and keyword in inner.fields:
            found = ev.eval(rel, inner.fields[keyword], None)
            if isinstance(found, Lit) and isinstance(found.value, str):
                return found.value
    for base in info.bases:
        parent = ev.eval(rel, base, None)
        if isinstance(parent, Klass):
            found = class_setting(ev, config, parent, key, depth + 1)
            if found is not None:
                return found
    return None


def _field_name(ev: Evaluator, spec: dict, where: Site | None) -> str | None:
    """`Field(..., alias="NAME")`: the variable the field's call names."""
    a = ev.program.adapter(where.rel) if where is not None else None
    node = a.node_at(where) if a is not None else None
    call = a.call_view(node) if node is not None else None
    if call is None or a.terminal(call.callee) not in (spec.get("calls") or []):
        return None
    for keyword in spec.get("keywords") or []:
        if keyword in call.kwargs:
            found = ev.eval(where.rel, call.kwargs[keyword], None)
            if isinstance(found, Lit) and isinstance(found.value, str) and found.value:
                return found.value
    return None
