"""What a model's `config` read (`config.get('a.b')`, `configService.get('X')`) gives, from
where its `data:` says the value is written (models/README.md): merged sources (Flask's
app.config), settings files with an env mapping (node-config), registered namespaces
(NestJS registerAs), else the environment variable or a `Config` hole."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.config_sources import keyed_member, namespaced_value
from extractors.engine.values import Config, Env, Lit, Obj, ObjLit, Value
from extractors.models.merged import merged_member

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator
    from extractors.models.schema import Operation


def config_read(
    ev: Evaluator, lib, obj: Obj, op: Operation, key: str, default: Value | None
) -> Value:
    if lib.by_id[obj.model].reads.get(obj.role) == "merged":
        found = merged_member(ev, lib, obj, key)  # `app.config.get(k, default)`
        return found if not isinstance(found, Config) else Config(key, obj.model, default)
    if op.data.get("files") or op.data.get("env_map"):  # node-config's files
        found = keyed_member(ev, obj, key, [op])  # (a branch stays an object with get())
        if isinstance(found, Config) and found.default is None and default is not None:
            return Config(found.key, found.source, default, found.site)
        return found
    if op.data.get("schema"):  # convict: the schema the reader was made with
        found = schema_value(ev, obj.prop(str(op.data["schema"])), key, obj)
        if found is not None:
            return found
    if op.data.get("namespaces"):  # NestJS registerAs factories
        found = namespaced_value(ev, op.data["namespaces"], key)
        if found is not None:
            return found
    if op.data.get("environment"):  # a key no file gives: the env var
        return Env(key, default, obj.model)
    return Config(key, obj.model, default)


def schema_value(ev: Evaluator, schema: Value | None, key: str, obj: Obj) -> Value | None:
    """A key of a schema object (`{ db: { host: { env: 'DB_HOST', default: 'x' } } }`): its
    leaf's `env` variable with the leaf's `default`, else that default as a config value;
    None where the schema does not hold the key."""
    node: Value | None = schema
    for part in key.split("."):
        if not isinstance(node, ObjLit):
            return None
        node = ev.object_member(node, part, 1)
    if not isinstance(node, ObjLit):
        return None
    env = ev.object_member(node, "env", 1)
    default = ev.object_member(node, "default", 1)
    default = default if isinstance(default, Lit) else None
    if isinstance(env, Lit) and isinstance(env.value, str) and env.value:
        return Env(env.value, default, obj.model, obj.origin)
    return Config(key, obj.model, default, obj.origin)
