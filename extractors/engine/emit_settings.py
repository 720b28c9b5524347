"""Route prefixes as facts of their own: a `setting` node where each prefix is written (a
router's own prefix, a mount's path, a global prefix, the settings field it comes from),
an `unresolved` row for a prefix part with no value, and one for a router no app mounts.
Single-fact answers ("what is the API's prefix?") read these, apart from the routes.
"""

from __future__ import annotations

from extractors.engine.config_sources import with_env_defaults
from extractors.engine.paths import (
    holes_of,
)
from extractors.engine.urls import url_template
from extractors.engine.values import (
    Config,
    Env,
    Func,
    Klass,
    Lit,
    Obj,
    Site,
    Value,
)


class Settings:
    """`Emitter`'s prefix settings and unmounted routers."""

    def own_prefixes(self, tree) -> None:
        """A `setting` for each router's own prefix (`APIRouter(prefix="/items")`,
        `new Router({ prefix })`), at the line the prefix is written."""
        from extractors.engine.mounts import _PropSource

        for node in tree.nodes.values():
            value = node.value
            if not isinstance(value, Obj) or value.origin.rel.startswith("<"):
                continue
            own = tree.own_prefix(node)
            if own is None or not isinstance(own, Lit) or not str(own.value or "").strip("/"):
                continue
            at, name = self._prop_written(value, tree)
            qualifier = f"{at.rel}:{at.line}:{name}"
            if self.ctx.find_node(self.ctx.node_id("setting", qualifier)) is not None:
                continue
            node_id = self.ctx.add_node("setting", qualifier, name, at.rel, at.line, at.line,
                                        value=str(own.value), about=f"route prefix: {name}",
                                        source=value.model)  # fmt: skip
            self.ctx.add_edge(
                self.ctx.node_id("code_file", at.rel), node_id, "DECLARES", at.rel, at.line
            )
        del _PropSource

    def _prop_written(self, obj: Obj, tree) -> tuple[Site, str]:
        """Where a router's prefix prop is written: the maker's keyword or argument node."""
        a = self.ev.program.adapter(obj.origin.rel)
        node = a.node_at(obj.origin) if a is not None else None
        view = a.call_view(node) if a is not None and node is not None else None
        model = self.ev.library.by_id.get(obj.model)
        selector = model.router.get("prefix") if model is not None else None
        prop = next((t.key for t in selector.terms if t.kind == "prop"), None) if selector else None
        if view is not None and prop is not None:
            for makers in model.objects.values():
                for maker in makers:
                    chosen = maker.props.get(prop)
                    for term in chosen.terms if chosen is not None else ():
                        if term.kind == "kw" and term.key in view.kwargs:
                            return a.site(view.kwargs[term.key]), term.key
                        if term.kind == "arg" and int(term.key) < len(view.args):
                            found = view.args[int(term.key)]
                            return a.site(found), prop
        return obj.origin, prop or "prefix"

    def never_mounted(self, tree) -> None:
        """A router that has routes but that no app mounts: its routes keep only their own
        prefix, and an `unresolved` row says where the router is made."""
        for node in tree.nodes.values():
            value = node.value
            if (
                node.mounted
                or not node.routes
                or not isinstance(value, Obj)
                or value.origin.rel.startswith("<")
            ):
                continue
            model = self.ev.library.by_id.get(value.model)
            if model is None or value.role in model.roots or value.prop("unbound") is not None:
                continue  # (a router parameter nobody passes has its own row)
            self.ctx.unresolved(value.origin.rel, value.origin.line, "route_mount", value.role,
                                f"this {value.model} {value.role} is never mounted in the component: "
                                "its routes are named without the prefix an app would give them")  # fmt: skip

    def settings(self, events: list) -> None:
        """A `setting` node per route prefix the code writes (a mount's path, a global prefix),
        at the line it is written: how the API is reached, for single-fact answers."""
        from extractors.engine.events import MountEvent, PrefixEvent

        files = {n.id for n in self.ctx.facts.nodes if n.kind == "code_file"}
        seen: dict[str, list[str]] = {}
        rows: dict[str, tuple] = {}
        for event in events:
            if not isinstance(event, (MountEvent, PrefixEvent)) or event.path_site is None:
                continue
            if event.path is None:
                continue
            value = with_env_defaults(event.path, self.env_files)
            if isinstance(value, Lit):
                text = str(value.value or "")
            elif isinstance(value, (Env, Config)) and isinstance(value.default, Lit):
                text = str(value.default.value or "")  # read as its default; the hole is in `holes`
            else:
                text = url_template(value)[0]
            if not text.strip("/"):
                continue
            where = event.path_site
            name = event.path_name or "prefix"
            for hole in holes_of(value):
                if "default" not in hole and hole["source"] != "param":
                    written = hole.get("expr") or self._written(where) or text
                    self.ctx.unresolved(where.rel, where.line, "route_prefix", written,
                                        f"route prefix part {{{hole['name']}}} ({hole['source']}) has no value "
                                        "in the component: the routes below are named with it")  # fmt: skip
            found = [(where, name)]
            origin = getattr(event.path, "site", None)
            if isinstance(event.path, (Env, Config)) and origin is not None:  # a settings field
                found.append(
                    (
                        origin,
                        event.path.name.lower() if isinstance(event.path, Env) else event.path.key,
                    )
                )
            for at, label in found:
                qualifier = f"{at.rel}:{at.line}:{label}"
                values = seen.setdefault(qualifier, [])
                if text not in values:
                    values.append(text)
                refers = self._refers_to(event.child) if isinstance(event, MountEvent) else None
                rows[qualifier] = (at, label, event.model, refers)
        for qualifier, (where, name, model, refers) in sorted(rows.items()):
            extra = {"refers_to": refers} if refers else {}
            node_id = self.ctx.add_node("setting", qualifier, name, where.rel, where.line, where.line,
                                        value=", ".join(seen[qualifier]), about=f"route prefix: {name}",
                                        source=model, **extra)  # fmt: skip
            file_id = self.ctx.node_id("code_file", where.rel)
            if file_id in files:
                self.ctx.add_edge(file_id, node_id, "DECLARES", where.rel, where.line)

    def _written(self, where: Site) -> str | None:
        a = self.ev.program.adapter(where.rel)
        node = a.node_at(where) if a is not None else None
        return " ".join(a.text(node).split())[:120] if node is not None and a is not None else None

    def _refers_to(self, child: Value) -> str | None:
        """The component symbol a prefix is given to: the router's binding or the function."""
        if isinstance(child, Func):
            symbol = self.symbol_for(self.handler_of(child) or child)
        elif isinstance(child, Obj | Klass) and not (
            site := getattr(child, "origin", None) or child.site
        ).rel.startswith("<"):
            symbol = self._symbol_at(site.rel, site.line)
        else:
            symbol = None
        return symbol.split(":symbol:", 1)[1] if symbol else None
