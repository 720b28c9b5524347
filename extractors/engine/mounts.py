"""The one mount tree: every router-like object (app, router, controller, plugin instance,
a function route) is a node; mounts are edges with their prefix; routes, middleware uses and
global prefixes hang off nodes. Routes are named only after the tree is built: each route
once per path from a root, with the join of every prefix on the way (global prefix, each
mount's path, each router's own prefix) and the ordered middleware of every level it
passes (uses registered before it, outermost first, then its own)."""

from __future__ import annotations

from dataclasses import dataclass, field

from extractors.engine.events import MountEvent, PrefixEvent, RouteEvent, UseEvent
from extractors.engine.paths import join
from extractors.engine.values import Func, Instance, Klass, Lit, Obj, Site, Value, concat
from extractors.models.runtime import Library
from extractors.models.selectors import select

MAX_DEPTH = 16

Key = tuple


def key_of(value: Value) -> Key | None:
    if isinstance(value, Obj):
        s = value.origin
        return (s.rel, s.start, s.end)
    if isinstance(value, (Func, Klass)):
        s = value.site
        return (s.rel, s.start, s.end)
    if isinstance(value, Instance):
        return key_of(value.klass)
    return None


@dataclass
class TreeNode:
    value: Value
    routes: list[RouteEvent] = field(default_factory=list)
    mounts: list[MountEvent] = field(default_factory=list)
    uses: list[UseEvent] = field(default_factory=list)
    prefixes: list[PrefixEvent] = field(default_factory=list)
    mounted: bool = False


@dataclass
class NamedRoute:
    """A route with its full path and everything it passes through, from one root."""

    event: RouteEvent
    path: Value
    middleware: list[tuple[Value, Site]]
    mounts: list[Site]
    root: Value


def _before(a: Site, b: Site) -> bool:
    """Registered before, as far as the source says: earlier in the same file; a use in
    another file (an app configured elsewhere) counts as before."""
    if a.rel != b.rel:
        return True
    return (a.line, a.col) < (b.line, b.col)


class MountTree:
    def __init__(self, library: Library):
        self.lib = library
        self.nodes: dict[Key, TreeNode] = {}

    def node(self, value: Value) -> TreeNode | None:
        key = key_of(value)
        if key is None:
            return None
        found = self.nodes.get(key)
        if found is None:
            found = self.nodes[key] = TreeNode(value)
        elif isinstance(value, Obj) and not isinstance(found.value, Obj):
            found.value = value  # the object a class or function is made into
        return found

    def add(self, event) -> None:
        if isinstance(event, RouteEvent):
            node = self.node(event.router)
            if node is not None:
                node.routes.append(event)
        elif isinstance(event, MountEvent):
            parent, child = self.node(event.parent), self.node(event.child)
            if parent is not None and child is not None and parent is not child:
                parent.mounts.append(event)
                child.mounted = True
        elif isinstance(event, UseEvent):
            node = self.node(event.target)
            if node is not None:
                node.uses.append(event)
        elif isinstance(event, PrefixEvent):
            node = self.node(event.target)
            if node is not None:
                node.prefixes.append(event)

    def implicit(self) -> None:
        """Children a framework mounts by itself (every NestJS controller under the app)."""
        for model in self.lib.models:
            for parent_role, child_roles in model.implicit.items():
                parents = [n for n in self.nodes.values()
                           if isinstance(n.value, Obj) and n.value.model == model.id and n.value.role == parent_role]  # fmt: skip
                children = [n for n in self.nodes.values()
                            if isinstance(n.value, Obj) and n.value.model == model.id and n.value.role in child_roles]  # fmt: skip
                for parent in parents:
                    for child in children:
                        if not child.mounted or parent.value.role == parent_role:
                            parent.mounts.append(
                                MountEvent(
                                    model.id,
                                    parent.value,
                                    child.value,
                                    None,
                                    (),
                                    parent.value.origin,
                                )
                            )  # type: ignore[union-attr]
                            child.mounted = True

    def own_prefix(self, node: TreeNode) -> Value | None:
        value = node.value
        if not isinstance(value, Obj):
            return None
        model = self.lib.by_id.get(value.model)
        selector = model.router.get("prefix") if model is not None else None
        if selector is None:
            return None
        return select(selector, _PropSource(value))

    def _keeps_root(self, route: RouteEvent) -> bool:
        model = self.lib.by_id.get(route.model)
        return model is not None and model.router.get("root") is not None and \
            select(model.router["root"], _PropSource(Obj("", "", route.site))) == Lit("keep")

    def overridden(self, node: TreeNode) -> bool:
        """A router whose own prefix a mount's path replaces (Flask's url_prefix)."""
        value = node.value
        model = self.lib.by_id.get(value.model) if isinstance(value, Obj) else None
        return model is not None and "overridden_by_mount" in model.router

    def routes(self) -> list[NamedRoute]:
        self.implicit()
        out: list[NamedRoute] = []
        roots = [n for n in self.nodes.values() if not n.mounted]
        for root in roots:
            self._walk(root, None, [], [], root.value, (id(root),), 0, out)
        return out

    def _walk(self, node: TreeNode, prefix: Value | None, inherited: list, mounts: list,
              root: Value, stack: tuple, depth: int, out: list[NamedRoute],
              replaced: bool = False) -> None:  # fmt: skip
        if depth > MAX_DEPTH:
            return
        for event in node.prefixes:
            prefix = join(prefix, event.path)
        own = None if replaced and self.overridden(node) else self.own_prefix(node)
        if own is not None:
            prefix = join(prefix, own)
        for route in node.routes:
            full = join(prefix, route.path)
            if prefix is not None and self._keeps_root(route) and _text(route.path) == "/":
                full = concat(prefix, Lit("/"))  # `@router.get("/")` under "/reports" is "/reports/"
            verb = str(route.method.value).upper() if isinstance(route.method, Lit) else ""
            chain = [(v, s) for v, s, scope, methods, exact in inherited
                     if _covers(scope, full, exact) and (not methods or verb in methods)]  # fmt: skip
            for use in node.uses:
                if (
                    _before(use.site, route.site)
                    and _covers(join(prefix, use.path), full, use.exact)
                    and (not use.methods or verb in use.methods)
                ):
                    chain += list(use.middleware)
            chain += list(route.middleware)
            out.append(NamedRoute(route, full, chain, list(mounts), root))
        for mount in node.mounts:
            child = self.node(mount.child)
            if child is None or id(child) in stack:
                continue
            chain = list(inherited)
            for use in node.uses:
                if _before(use.site, mount.site):
                    scope = join(prefix, use.path) if use.path is not None else None
                    chain += [(v, s, scope, use.methods, use.exact) for v, s in use.middleware]
            chain += [(v, s, None, (), False) for v, s in mount.middleware]
            here = list(mounts)
            if mount.path is not None and not (
                isinstance(mount.path, Lit) and str(mount.path.value or "").strip("/") == ""
            ):
                here.append(mount.path_site or mount.site)  # where its prefix is written
            self._walk(child, join(prefix, mount.path), chain, here, root, (*stack, id(child)),
                       depth + 1, out, mount.path is not None)  # fmt: skip


def _covers(scope: Value | None, path: Value, exact: bool = False) -> bool:
    """A path-scoped use (`app.use('/v1/auth', limiter)`) covers the routes under that path;
    an exact one the route of that path (`*` a wildcard); compared as text where both are
    known — what is not known is covered."""
    if scope is None:
        return True
    want = _text(scope)
    if want is None:
        return True
    want = "/" + want.strip("/")
    if want == "/":
        return True
    have = _text(path)
    if have is None:
        return True
    have = "/" + have.strip("/")
    if exact:
        import fnmatch

        return have == want or (
            "*" in want and fnmatch.fnmatchcase(have, want.replace("(.*)", "*"))
        )
    return have == want or have.startswith(want + "/")


def _text(value: Value) -> str | None:
    from extractors.engine.values import Concat

    parts = value.parts if isinstance(value, Concat) else (value,)
    if all(isinstance(p, Lit) for p in parts):
        import re

        return re.sub(r"/+", "/", "".join(str(p.value or "") for p in parts))  # type: ignore[union-attr]
    return None


class _PropSource:
    """Selectors over an object's own props (a router's prefix)."""

    def __init__(self, obj: Obj):
        self.obj = obj

    def arg(self, i):
        return None

    def kwarg(self, name):
        return None

    def arg_count(self):
        return 0

    def receiver(self):
        return self.obj

    def method_name(self):
        return ""

    def decorated(self):
        return None

    def attr(self, name):
        return self.obj.prop(name)

    def item(self):
        return None

    def member(self, value, name):
        return value.prop(name) if isinstance(value, Obj) else None
