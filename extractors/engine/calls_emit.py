"""HTTP calls from the engine's request events: one `http_call` node per call site (the
line a person would name — a wrapper's caller, a generated SDK's caller — with the wrapper
lines as `hops`), its URL as a template and typed parts (`segments`, `holes`), how its base
was resolved (`resolved_via`), the named base as a `setting` (`base_setting`), CALLS_HTTP
from the enclosing symbol, and `hosts` catalog rows; a URL nothing can resolve is an
`unresolved` row."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from tree_sitter import Node as TsNode

from extractors.base import ComponentContext
from extractors.engine.bases import NamedBase, member_path, named_base
from extractors.engine.config_sources import file_values
from extractors.engine.dynamic_callees import chosen_at, run_time_callees
from extractors.engine.evaluate import Evaluator
from extractors.engine.events import RequestEvent
from extractors.engine.heuristic_calls import url_shape
from extractors.engine.paths import (
    HTTP_METHODS,
    compatible,
    condition_text,
    holes_of,
    method_word,
    options,
    segments,
)
from extractors.engine.recognize import Found
from extractors.engine.urls import (
    absolute,
    by_path,
    path_value,
    shaped_by_parameter,
    split_base,
    url_template,
    with_base,
)
from extractors.engine.values import (
    Concat,
    Config,
    Env,
    Lit,
    Obj,
    Param,
    Site,
    Unknown,
    Value,
    describe,
    text_of,
)
from extractors.facts import CatalogRow
from extractors.js.common import owner_at

_ORIGIN = re.compile(r"^[a-z][a-z0-9+.-]*://([^/?#]+)", re.I)


@dataclass
class CallEmitter:
    ctx: ComponentContext
    ev: Evaluator
    display_site: object  # Emitter._display_site: the line a call is named at
    generated: set[str] = field(default_factory=set)  # rels of generated client code
    _calls_seen: set[str] = field(default_factory=set)
    _call_sites: set[tuple[str, str, int]] = field(default_factory=set)  # (name, file, offset)
    _hosts: set[tuple[str, str, int]] = field(default_factory=set)
    _configs: set[Config] = field(default_factory=set)
    _settings: dict[tuple[str, int, str], str | None] = field(default_factory=dict)

    def requests(self, found: list[Found]) -> None:
        for item in found:
            event = item.event
            if not isinstance(event, RequestEvent):
                continue
            site = item.chain[-1] if item.chain else self.display_site(event.site)
            if item.uncalled and shaped_by_parameter(event.url):
                if event.confidence == "low":
                    continue  # a guess on a wrapper nobody calls: no row
                owner = self._owner(site).rsplit("#", 1)[-1]
                written = self._written(event)
                passed = ""
                if item.chain:  # through wrappers: the one that requests it
                    wrapper = self._owner(self.display_site(event.site)).rsplit("#", 1)[-1]
                    passed = f"{written} is passed to {wrapper}, which requests it; "
                self.ctx.unresolved(site.rel, site.line, "http_call", written,
                                    f"dynamic URL: {passed}a parameter of {owner}, which nothing "
                                    "in the component calls")  # fmt: skip
                continue
            inner = (
                [*reversed(item.chain[:-1]), self.display_site(event.site)] if item.chain else []
            )
            inner = [s for s in inner if s.where != site.where]  # a fetcher written in the call
            hops = [s.where for s in inner] + [s.where for s in event.via]
            url = event.url
            based = event.base is not None and not absolute(url)
            if based:
                url = (
                    with_base(event.base, url)
                    if not isinstance(event.base, Lit) or event.base.value
                    else url
                )
            methods = self._request_methods(event.method, event.model)
            pairs = by_path([
                (m, u, mc + uc) for m, mc in methods for u, uc in options(url) if compatible(mc, uc)
            ])  # fmt: skip
            how = self._how(event, item, inner, based)
            chosen = (
                chosen_at(
                    self.ev, item.chain[-1], item.chain[-2] if len(item.chain) > 1 else event.site
                )
                if item.chain
                else None
            )
            if chosen is not None:  # a callee chosen at run time: the line naming the branch
                site = replace(site, line=chosen.line, end_line=chosen.end_line, col=chosen.col)
            for method, option, choices in pairs:
                self._call(event, site, hops, method, option, len(pairs) > 1 or bool(chosen),
                           condition_text(choices), how)  # fmt: skip
            if chosen is None:
                self._url_choice(event, site, pairs)

    def _url_choice(self, event: RequestEvent, site: Site, pairs: list) -> None:
        """A path chosen at run time (`'/plants' + (wild ? '/wild' : '')`): each branch is a
        candidate call, and the choice itself an `unresolved` row saying what decides."""
        paths = list(dict.fromkeys(url_template(u)[0].split("?", 1)[0] for _, u, _ in pairs))
        if len(paths) < 2:
            return
        decides = list(dict.fromkeys(c for _, _, cs in pairs for c, _ in cs if c))
        at = event.url_at if event.url_at is not None and event.url_at.rel == site.rel else site
        by = f" by `{' and '.join(decides)}`" if decides else ""
        self.ctx.unresolved(site.rel, at.line, "http_call", self._written(event),
                            f"chosen at run time{by}: {' or '.join(paths)}")  # fmt: skip

    def _written(self, event: RequestEvent) -> str:
        """The URL expression as the code writes it, else as the engine describes it."""
        parts = event.url.parts if isinstance(event.url, Concat) else (event.url,)
        param = next((p for p in parts if isinstance(p, Param)), None)
        if param is not None:  # as the outermost caller passes it
            return param.name
        at = event.url_at
        a = self.ev.program.adapter(at.rel) if at is not None else None
        node = a.node_at(at) if a is not None and at is not None else None
        if node is None or a is None:
            return describe(event.url, 200)
        return " ".join(a.text(node).split())[:200]

    def chosen_callees(self, found: list[Found]) -> None:
        for rel, line, written, reason in run_time_callees(self.ctx, self.ev, found):
            self.ctx.unresolved(rel, line, "http_call", written, reason)

    def _request_methods(self, value: Value, model: str) -> list[tuple[str, tuple]]:
        found = self.ev.library.by_id.get(model)
        aliases = found.aliases if found is not None else {}
        out = []
        for option, choices in options(value):
            raw = method_word(option)
            if raw is not None:
                name = aliases.get(raw, raw).upper()  # `$post`: POST
                if name in HTTP_METHODS:
                    out.append((name, choices))
        return out or [("GET", ())]

    def _how(self, event: RequestEvent, item: Found, inner: list[Site], based: bool) -> dict:
        """How the call's URL was resolved: through a wrapper, an interceptor, the client's
        own base (made with it, or the library default), a named constant, an env var."""
        named = self._named(event, based)
        parts = event.url.parts if isinstance(event.url, Concat) else (event.url,)
        first = parts[0]
        via = (
            "callable" if text_of(event.function or Unknown("", "")) is not None
            else "wrapper" if inner
            else "interceptor" if event.via
            else ("instance" if _made(event.client) else "default") if based
            else "constant" if named is not None
            else "env" if isinstance(first, Env) or any(isinstance(p, Env) for p in parts)
            else "config" if isinstance(first, Config)
            else "literal"
        )  # fmt: skip
        how: dict = {"resolved_via": via, "named": named}
        if item.invoked_by:  # a library called the function that requests (SWR's fetcher)
            how["hook"] = item.invoked_by
        if inner:
            how["wrapper"] = self._owner(self.display_site(event.site))
            generated = [s for s in inner if s.rel in self.generated]
            if generated:
                how["resolved_via"] = "generated"
                how["generated_client"] = True
                how["sdk_method"] = member_path(self.ev, generated[0]) or self._symbol_name(
                    generated[0]
                )
        return how

    def _named(self, event: RequestEvent, based: bool) -> NamedBase | None:
        if event.rewrite is not None:  # an interceptor's base: written where it rewrites
            name, value, site = event.rewrite
            return NamedBase(name, site.rel, site.line, value, site)
        at = event.base_at if based else event.url_at
        a = self.ev.program.adapter(at.rel) if at is not None else None
        node = a.node_at(at) if a is not None and at is not None else None
        return named_base(self.ev, at.rel, node) if node is not None and at is not None else None

    def _call(self, event: RequestEvent, site: Site, hops: list[str], method: str, url: Value,
              candidate: bool, condition: str | None, how: dict) -> None:  # fmt: skip
        if event.confidence == "low" and url_shape(url) != "url":
            return  # a guess that did not end in a URL: nothing to say
        if isinstance(url, Unknown) or (isinstance(url, Param) and not hops):
            expr = url.name if isinstance(url, Param) else url.expr or describe(url, 200)
            why = url.why if isinstance(url, Unknown) else "a parameter"
            if "wrapper" in how:
                wrapper = how["wrapper"].rsplit("#", 1)[-1]
                why = f"{expr} is passed to {wrapper}, which requests it ({why})"
            self.ctx.unresolved(site.rel, site.line, "http_call", expr, f"dynamic URL: {why}")
            return
        template, env_var = url_template(url)
        if template.startswith("file:"):  # `fetch(new URL('./font.ttf', import.meta.url))`
            return
        attrs: dict = {"method": method, "url_template": template, "client": event.model}
        if env_var:
            attrs["env_var"] = env_var
        base, path = split_base(url, template)
        named = how["named"]
        head = url_template(named.value)[0] if named is not None else None
        if head and "://" in head and template.startswith(head) and len(template) > len(head):
            # the base as the code names it, when a path follows it
            base, path = head, template[len(head) :] or "/"
        if base:
            attrs["base"] = base
        attrs["path"] = path
        attrs["segments"] = [p.as_dict() for p in segments(path_value(url))]
        holes = holes_of(url)
        if holes:
            attrs["holes"] = holes
        if hops:
            attrs["hops"] = hops
        attrs["resolved_via"] = how["resolved_via"]
        kept = ("wrapper", "generated_client", "sdk_method", "hook")
        attrs.update({k: how[k] for k in kept if k in how})
        function = text_of(event.function) if event.function is not None else None
        if function is not None:
            attrs["function"] = function
        if event.protocol:
            attrs["protocol"] = event.protocol
        if event.confidence:
            attrs["confidence"] = event.confidence
            attrs["why"] = event.why
        setting = self._base_setting(how["named"], template)
        if setting is not None:
            attrs["base_name"] = how["named"].name
            attrs["base_setting"] = setting
        if candidate:
            attrs["candidate"] = True
        if condition:
            attrs["condition"] = condition
        name = f"{method} {template}"
        if (name, site.rel, site.start) in self._call_sites:
            return  # one call read through two receivers (`(secure ? https : http).get(url)`)
        self._call_sites.add((name, site.rel, site.start))
        qualifier = f"{name}@{site.rel}:{site.line}"
        if qualifier in self._calls_seen:
            qualifier += f":{site.col + 1}"
        if qualifier in self._calls_seen:
            return
        self._calls_seen.add(qualifier)
        node_id = self.ctx.add_node(
            "http_call", qualifier, name, site.rel, site.line, site.end_line, **attrs
        )
        self._configs |= {
            p for p in (url.parts if isinstance(url, Concat) else (url,)) if isinstance(p, Config)
        }
        self.ctx.add_edge(self._owner(site), node_id, "CALLS_HTTP", site.rel, site.line)
        if base and "://" in base and event.rewrite is None:  # a rewrite's host: where written
            self._hosts.add((base.split("://", 1)[1].split("/")[0], site.rel, site.line))

    def _base_setting(self, named: NamedBase | None, full: str) -> str | None:
        """The `setting` of a named API base (made on first use): an absolute URL, or an env
        var or path prefix that more of the URL follows. A name holding a whole relative URL
        is no base."""
        if named is None:
            return None
        key = (named.rel, named.line, named.name)
        if key in self._settings:
            return self._settings[key]
        value, env = url_template(named.value)
        host = _ORIGIN.match(value)
        prefix = len(full) > len(value) and full.startswith(value)
        node_id = None
        if host is not None or (prefix and (env or value.startswith("/"))):
            attrs = {
                "value": value,
                "about": "API base URL constant",
                "source": self._language(named.rel),
            }
            if host is not None or env:
                attrs["refers_to"] = host.group(1) if host is not None else env
            node_id = self.ctx.add_node("setting", f"{named.rel}:{named.line}:{named.name}",
                                        named.name, named.rel, named.line, **attrs)  # fmt: skip
            file_id = self.ctx.node_id("code_file", named.rel)
            self.ctx.add_edge(file_id, node_id, "DECLARES", named.rel, named.line)
            owner = self._owner(named.site)
            if owner != file_id:
                self.ctx.add_edge(owner, node_id, "DECLARES", named.rel, named.line)
            if host is not None:
                self._hosts.add((host.group(1), named.rel, named.line))
        self._settings[key] = node_id
        return node_id

    def _symbol_name(self, site: Site) -> str:
        sdk = self._owner(site)
        return sdk.split("#", 1)[1] if "#" in sdk else sdk

    def _language(self, rel: str) -> str:
        a = self.ev.program.adapter(rel)
        return "python" if a is not None and a.family == "py" else "js"

    def _owner(self, site: Site) -> str:
        a = self.ev.program.adapter(site.rel)
        node: TsNode | None = a.node_at(site) if a is not None else None
        if node is None and a is not None:
            node = a.root.descendant_for_byte_range(site.start, site.start)
        if node is None:
            return self.ctx.node_id("code_file", site.rel)
        mod = self.ctx.shared.py.modules.get(site.rel)
        if mod is not None:
            return mod.enclosing(node.start_byte)
        return owner_at(self.ctx, site.rel, node)

    def config_values(self) -> None:
        """One `config_value` node per configuration key a call's URL reads from per-build
        files (Angular's `environment.apiUrl`), with its value in each file: the bridge reads
        each file as a build configuration."""
        for config in sorted(self._configs, key=lambda c: c.key):
            values = file_values(self.ev, config)
            if not values:
                continue
            rel, line = values.pop("", ("", 0))  # type: ignore[misc]
            self.ctx.add_node("config_value", config.key, config.key, rel, line,
                              values={r: v for r, (v, _) in values.items()}, source=config.source)  # fmt: skip

    def catalog(self) -> None:
        for host, rel, line in sorted(self._hosts):
            self.ctx.facts.catalog.append(
                CatalogRow("hosts", self.ctx.project, self.ctx.component, host, rel, line)
            )


def _made(client: Value) -> bool:
    """A client object made by a call of the component (`axios.create`), not the library's
    own default instance."""
    return isinstance(client, Obj) and not client.origin.rel.startswith("<")
