"""What reading a member of a model object is, by its role's `reads:` (models/README.md):
an environment variable (`env`: `process.env.X`, Dynaconf's `settings.X` with its prefix), a
settings module's value (`setting`: Django), what was merged into it (`merged`: Flask's
app.config), a key of its configuration files (`keys`: node-config), or one more segment of
a request's path (`path`: Hono's and Eden's clients, whose property chain is the URL; a
call of such an object with parameters adds them as segments)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.builtins import object_items
from extractors.engine.config_sources import keyed_member
from extractors.engine.values import ArrLit, Env, Lit, Obj, ObjLit, Value, concat
from extractors.models.merged import merged_member
from extractors.models.named import setting

if TYPE_CHECKING:
    from extractors.engine.evaluate import Evaluator
    from extractors.models.schema import Model


def role_member(ev: Evaluator, lib, model: Model, obj: Obj, name: str) -> Value | None:
    """The member `name` of `obj` as its role reads members, None when the role says not."""
    how = model.reads.get(obj.role)
    if how == "env":
        prefix = obj.prop("env_prefix")  # Dynaconf: `settings.X` reads MYAPP_X
        if isinstance(prefix, Lit) and isinstance(prefix.value, str) and prefix.value:
            return Env(f"{prefix.value}_{name}", None, obj.model)
        return Env(name, None, obj.model)
    if how == "setting":
        return setting(ev, model, obj.role, name, lib.named)  # Django's settings module
    if how == "merged":
        return merged_member(ev, lib, obj, name)  # Flask's app.config
    if how == "keys":  # `config.server.port`
        return keyed_member(ev, obj, name, lib.operations(obj, "get"))
    if how == "path":  # `client.api.users`
        return obj.with_props(path=concat(obj.prop("path") or Lit(""), Lit("/" + name)))
    return None


def role_called(ev: Evaluator, model: Model, obj: Obj, first: Value | None) -> Value | None:
    """What calling `obj` is, by its role, where no operation says: a path object called
    with an object of parameters (Eden's `client.users({ id: 1 })`) is one `:name` segment
    more per key, in order; None for any other role."""
    if model.reads.get(obj.role) != "path":
        return None
    keys = object_items(ev, first, "keys") if isinstance(first, ObjLit) else None
    names = [k.value for k in keys.items] if isinstance(keys, ArrLit) else []
    path = obj.prop("path") or Lit("")
    for name in names:
        path = concat(path, Lit(f"/:{name}"))
    return obj.with_props(path=path)
