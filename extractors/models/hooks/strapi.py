"""Strapi's core routers (models/server/strapi.yaml): `factories.createCoreRouter(uid,
config?)` makes the REST routes of a content type, named by the type's schema
(`src/api/<api>/content-types/<type>/schema.json`: `info.pluralName` / `singularName`,
`kind`) — https://docs.strapi.io/dev-docs/backend-customization/routes#configuring-core-routers.

- `core_router`: a collection type's find (GET /<plural>), findOne (GET /<plural>/:id),
  create (POST), update (PUT /:id) and delete (DELETE /:id); a single type's find, update
  and delete at /<singular>; `config.only` / `config.except` keep or drop actions by name and
  `config.prefix` goes before the paths. Each route's handler is named `<uid>.<action>`.
"""

from __future__ import annotations

import json
import posixpath
from typing import TYPE_CHECKING

from extractors.engine.events import Event, RouteEvent
from extractors.engine.values import Lit, Obj, ObjLit, Value, literal_names

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation

COLLECTION = (("find", "GET", ""), ("findOne", "GET", "/:id"), ("create", "POST", ""),
              ("update", "PUT", "/:id"), ("delete", "DELETE", "/:id"))  # fmt: skip
SINGLE = (("find", "GET", ""), ("update", "PUT", ""), ("delete", "DELETE", ""))


def core_router(interp: Interpreter, op: Operation, obj: Obj, call: Call,
                src: CallSource) -> list[Event]:  # fmt: skip
    uid = src.select(op.spec.get("uid"))
    if not isinstance(uid, Lit) or not isinstance(uid.value, str) or "::" not in uid.value:
        return []
    schema = _schema(interp.ev.program.ctx.files, call.rel, uid.value)
    info = (schema.get("info") or {}) if schema is not None else {}
    single = schema is not None and schema.get("kind") == "singleType"
    name = info.get("singularName" if single else "pluralName")
    if not isinstance(name, str) or not name:
        interp.cannot_read(
            call.site,
            "route",
            uid.value,
            "the content type's schema.json "
            "(its plural name) is not in the component: its core routes are "
            "not read",
        )
        return []
    config = src.select(op.spec.get("config")) if op.spec.get("config") else None
    only, skip = _names(interp, config, "only", call), _names(interp, config, "except", call)
    prefix = _text(interp, config, "prefix", call)
    events: list[Event] = []
    for action, verb, below in SINGLE if single else COLLECTION:
        if (only and action not in only) or action in skip:
            continue
        attrs = (("handler_name", f"{uid.value}.{action}"),)
        events.append(RouteEvent(obj.model, obj, Lit(verb), Lit(f"{prefix}/{name}{below}"),
                                 None, (), call.site, attrs=attrs))  # fmt: skip
    return events


def _schema(files: dict, routes_rel: str, uid: str) -> dict | None:
    """The content type's schema.json: `api::restaurant.restaurant` is
    `<src>/api/restaurant/content-types/restaurant/schema.json`, `<src>` the folder holding
    the router's `api` folder."""
    api, _, ctype = uid.split("::", 1)[1].partition(".")
    head, found, _ = routes_rel.rpartition("/api/")
    root = head if found else ""
    rel = posixpath.join(root, "api", api, "content-types", ctype or api, "schema.json")
    source = files.get(rel)
    if source is None:
        return None
    try:
        data = json.loads(source.data)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _names(interp: Interpreter, config: Value | None, key: str, call: Call) -> set[str]:
    value = interp.ev.member(config, key, call.rel, None, 1) if isinstance(config, ObjLit) else None
    return set(literal_names(value) or ())


def _text(interp: Interpreter, config: Value | None, key: str, call: Call) -> str:
    value = interp.ev.member(config, key, call.rel, None, 1) if isinstance(config, ObjLit) else None
    return (
        value.value.rstrip("/") if isinstance(value, Lit) and isinstance(value.value, str) else ""
    )


HOOKS = {"strapi_core_router": core_router}
