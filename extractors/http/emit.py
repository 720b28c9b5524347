"""The http_call output both scanners share (`js.py`, `python.py`): one node per call site
with a unique qualifier, its CALLS_HTTP edge, and the `hosts` catalog rows (the contract is
in `calls.py`)."""

from __future__ import annotations

import re

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.facts import CatalogRow
from extractors.http.bases import BaseSettings
from extractors.http.summaries import site_line
from extractors.http.urls import Evaluator, Url, join
from extractors.js.common import owner_at
from extractors.source import SourceFile

VERBS = {"get", "delete", "head", "options", "post", "put", "patch"}
_ORIGIN = re.compile(r"^([a-z][a-z0-9+.-]*://[^/?#]+)(.*)$", re.I)


class HttpOut:
    """Where every scanner of one component writes its HTTP calls."""

    def __init__(self, ctx: ComponentContext):
        self.ctx = ctx
        self.eval = Evaluator(ctx)
        self.taken: set[str] = set()
        self.hosts: set[tuple[str, str, int]] = set()
        self.bases = BaseSettings(ctx)

    def dynamic(self, rel: str, line: int, expr: str, why: str) -> None:
        """A call whose URL cannot be known statically: one `unresolved` row saying why."""
        self.ctx.unresolved(rel, line, "http_call", expr, f"dynamic URL: {why}")

    def emit(
        self,
        sf,
        call: TsNode,
        method: str,
        url: Url,
        base: Url | None,
        client: str,
        via: str,
        owner: str | None = None,
        **extra,
    ) -> None:
        line = site_line(call)
        full = join(base, url) if base is not None else url
        template = full.template
        attrs: dict = {"method": method, "url_template": template, "client": client}
        env = next((v for k, v in full.parts if k == "env"), None)
        if env:
            attrs["env_var"] = env
        first = full.parts[0] if full.parts else ("lit", "")
        if first[0] == "env":
            attrs["path"] = Url(full.parts[1:]).template
        elif base is not None and base.parts and all(k == "lit" for k, _ in base.parts):
            attrs["base"], attrs["path"] = base.template.rstrip("/"), url.template
        elif _named_literal_base(full):  # `${API_ROOT}${path}`: the constant is the base
            head = Url(full.parts[: full.base_end])
            attrs["base"], attrs["path"] = head.template, Url(full.parts[full.base_end :]).template
        elif (origin := _ORIGIN.match(template)) is not None:
            attrs["base"], attrs["path"] = origin.group(1), origin.group(2) or "/"
        else:
            attrs["path"] = template
        if full.base_name and 0 < full.base_end < len(full.parts):
            attrs["base_name"] = full.base_name
        setting = self.bases.of(full)
        if setting is not None:
            attrs["base_setting"] = setting
        if (origin := _ORIGIN.match(template)) is not None:
            host = origin.group(1).split("://", 1)[1]
            # an interceptor's base is written at the interceptor, not at the call site; a
            # constant's host is catalogued where it is written and where it is called
            if setting is None or "interceptor" not in full.via:
                self.hosts.add((host, sf.rel, line))
            if setting is not None and full.origin is not None:
                self.hosts.add((host, *full.origin[:2]))
        if via == "literal":
            via = "constant" if "constant" in full.via else "env" if env else "literal"
        attrs["resolved_via"] = via
        attrs.update(extra)
        name = f"{method} {template}"
        qualifier = f"{name}@{sf.rel}:{line}"
        if qualifier in self.taken:
            qualifier += f":{call.start_point[1] + 1}"
        self.taken.add(qualifier)
        node_id = self.ctx.add_node(
            "http_call", qualifier, name, sf.rel, line, SourceFile.end_line(call), **attrs
        )
        owner = owner or owner_at(self.ctx, sf.rel, call)
        self.ctx.add_edge(owner, node_id, "CALLS_HTTP", sf.rel, line)

    def catalog(self) -> None:
        for host, rel, line in sorted(self.hosts):
            self.ctx.facts.catalog.append(
                CatalogRow("hosts", self.ctx.project, self.ctx.component, host, rel, line)
            )


def _named_literal_base(url: Url) -> bool:
    """A named constant holding an absolute URL, followed by a path."""
    head = url.parts[: url.base_end]
    if not head or url.base_end >= len(url.parts) or any(k != "lit" for k, _ in head):
        return False
    return _ORIGIN.match("".join(v for _, v in head)) is not None
