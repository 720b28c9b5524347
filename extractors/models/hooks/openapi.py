"""Frameworks that serve the routes an OpenAPI / Swagger document declares (Connexion's
`app.add_api('openapi.yaml')`, models/server/connexion.yaml).

- `openapi_routes`: the document the call names — relative to the app's
  `specification_dir`, itself relative to the folder of the module making the app — gives
  one route per path and operation; its base path is the call's `base`, else the
  document's (`basePath` of Swagger 2, the path of the first `servers` URL of OpenAPI 3).
  Each route's handler is the function its `operationId` names (made relative by
  `x-openapi-router-controller` / `x-swagger-router-controller`), found among the
  component's modules; one named but not found is kept as `handler_name`.
"""

from __future__ import annotations

import json
import posixpath
from typing import TYPE_CHECKING
from urllib.parse import urlparse

import yaml

from extractors.engine.events import Event, RouteEvent
from extractors.engine.values import Func, Lit, Obj

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call
    from extractors.engine.interpret import Interpreter
    from extractors.models.runtime import CallSource
    from extractors.models.schema import Operation

METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
CONTROLLERS = ("x-openapi-router-controller", "x-swagger-router-controller")


def openapi_routes(interp: Interpreter, op: Operation, app: Obj, call: Call,
                   src: CallSource) -> list[Event]:  # fmt: skip
    spec = src.select(op.spec.get("spec"))
    if not isinstance(spec, Lit) or not isinstance(spec.value, str):
        return []
    folder = app.prop("spec_dir")
    folder = folder.value if isinstance(folder, Lit) and isinstance(folder.value, str) else ""
    ev = interp.ev
    files = ev.program.ctx.files
    here = posixpath.dirname(app.origin.rel if app.origin is not None else call.rel)
    candidates = [posixpath.normpath(posixpath.join(here, folder, spec.value)),
                  posixpath.normpath(posixpath.join(folder, spec.value))]  # fmt: skip
    rel = next((c for c in candidates if c in files), None)
    document = _load(files[rel].data) if rel is not None else None
    if document is None:
        why = (f"{rel} is not an OpenAPI document (YAML or JSON)" if rel is not None else
               f"no file {candidates[0]} in the component: its routes are not read")  # fmt: skip
        interp.cannot_read(call.site, "route", spec.value, why)
        return []
    base = src.select(op.spec.get("base")) if op.spec.get("base") else None
    prefix = (
        base.value if isinstance(base, Lit) and isinstance(base.value, str) else _base(document)
    )
    events: list[Event] = []
    for path, item in (document.get("paths") or {}).items():
        if not isinstance(item, dict) or not isinstance(path, str):
            continue
        for method in METHODS:
            operation = item.get(method)
            if not isinstance(operation, dict):
                continue
            handler, name = _handler(ev, operation, item)
            attrs = (("handler_name", name),) if name and handler is None else ()
            full = prefix.rstrip("/") + "/" + path.lstrip("/") if prefix else path
            events.append(RouteEvent(app.model, app, Lit(method.upper()), Lit(full), handler,
                                     (), call.site, attrs=attrs))  # fmt: skip
    return events


def _load(data: bytes) -> dict | None:
    try:
        document = yaml.safe_load(data)  # YAML reads JSON too, but for JSON indented by tabs
    except (yaml.YAMLError, ValueError):
        try:
            document = json.loads(data)
        except ValueError:
            return None
    return document if isinstance(document, dict) else None


def _base(document: dict) -> str:
    """Swagger 2's `basePath`, else the path of OpenAPI 3's first server URL."""
    if isinstance(document.get("basePath"), str):
        return document["basePath"]
    servers = document.get("servers")
    url = servers[0].get("url") if isinstance(servers, list) and servers and isinstance(
        servers[0], dict) else None  # fmt: skip
    return urlparse(url).path if isinstance(url, str) else ""


def _handler(ev, operation: dict, item: dict) -> tuple[Func | None, str]:
    """The function an operation's operationId names, and that name."""
    op_id = operation.get("operationId")
    if not isinstance(op_id, str) or not op_id:
        return None, ""
    controller = next((c for key in CONTROLLERS
                       if isinstance(c := operation.get(key) or item.get(key), str)), "")  # fmt: skip
    name = f"{controller}.{op_id}" if controller else op_id
    found = ev.program.import_name(ev, name)
    return (found if isinstance(found, Func) else None), name


HOOKS = {"openapi_routes": openapi_routes}
