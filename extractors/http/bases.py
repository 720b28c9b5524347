"""The API base URL a call's template starts with, as a `setting` at the line it is written.

A named base — a constant (`const API_ROOT = 'https://host/api'`, `CONFIG.API_HOST`), or the
URL an interceptor rewrites every request to (`req.clone({ url: `https://host/api${req.url}`
})`, `cfg.baseURL = ...`) — is one configuration statement that tells where the component's
calls go. It becomes one `setting` node at its own file:line (name as written, `value` the
base template, `refers_to` the host or env var it names), DECLARED by its file and by the
symbol it sits in; every http_call built on it carries `base_setting` (the setting's id).
"""

from __future__ import annotations

import re

from extractors.base import ComponentContext
from extractors.http.urlvalue import Url
from extractors.js.common import modules

_ORIGIN = re.compile(r"^[a-z][a-z0-9+.-]*://([^/?#]+)", re.I)


class BaseSettings:
    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.ids: dict[tuple[str, int, int], str] = {}
        # origin → (name as written, what it means) for bases that are not a constant
        self.names: dict[tuple[str, int, int], tuple[str, str]] = {}

    def name(self, origin: tuple[str, int, int], name: str, about: str) -> None:
        self.names[origin] = (name, about)

    def of(self, full: Url) -> str | None:
        """The setting id of the named base `full` starts with (made on first use), or None
        when the base is no API base URL (an env var alone, or a whole-URL relative path)."""
        if full.origin is None or not full.base_name or not full.base_end:
            return None
        rel, line, byte, end = full.origin
        origin = (rel, line, byte)
        if origin in self.ids:
            return self.ids[origin]
        head = Url(full.parts[:end])
        value = head.template
        host = _ORIGIN.match(value)
        env = next((v for k, v in head.parts if k == "env"), None)
        prefix = end < len(full.parts)
        if host is None and not (prefix and (env or value.startswith("/"))):
            return None
        name, about = self.names.get(origin, (full.base_name, "API base URL constant"))
        attrs = {"value": value, "about": about, "source": "js"}
        if host is not None or env:
            attrs["refers_to"] = host.group(1) if host is not None else env
        node_id = self.ctx.add_node("setting", f"{rel}:{line}:{name}", name, rel, line, **attrs)
        mod = modules(self.ctx).get(rel)
        file_id = mod.file_id if mod is not None else self.ctx.node_id("code_file", rel)
        self.ctx.add_edge(file_id, node_id, "DECLARES", rel, line)
        owner = mod.enclosing(byte) if mod is not None else file_id
        if owner != file_id:
            self.ctx.add_edge(owner, node_id, "DECLARES", rel, line)
        self.ids[origin] = node_id
        return node_id
