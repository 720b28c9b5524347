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
from extractors.engine.values import (
    Func,
    Instance,
    Klass,
    Lit,
    Obj,
    Site,
    Value,
    as_list,
    choice,
    concat,
)
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
    mounts: list[tuple[Site, Value]]  # each prefix on the way, where it is written, outermost first
    root: Value


@dataclass
class Head:
    """What an app puts in front of every route it serves, apart from the path below it:
    its own prefix (and the paths excluded from it), then a URI version (`v2`) from each
    route's router (`@Controller({ version: '2' })`) or the default."""

    prefix: Value | None = None
    exclude: tuple[str, ...] = ()
    mounts: list = field(default_factory=list)
    version_prefix: str | None = None
    default_version: Value | None = None

    def compose(self, below: Value, route: RouteEvent, mounts: list) -> tuple[Value, list]:
        version = self._version(route)
        path = join(version, below) if version is not None else below
        if self.prefix is None or self._excluded(below):
            return path, list(mounts)
        return join(self.prefix, path), [*self.mounts, *mounts]

    def _version(self, route: RouteEvent) -> Value | None:
        if self.version_prefix is None:
            return None
        router = route.router
        version = dict(route.values).get("version")  # the route's own overrides its router's
        if version is None and isinstance(router, Obj):
            version = router.prop("version")
        version = version if version is not None else self.default_version
        versions = as_list(version)
        texts = [v.value for v in versions if isinstance(v, Lit) and v.value not in (None, "")]
        if not texts or len(texts) != len(versions):  # none, or VERSION_NEUTRAL among them
            return None
        return choice([Lit(f"{self.version_prefix}{text}") for text in texts])

    def _excluded(self, below: Value) -> bool:
        text = _text(below)
        if text is None:
            return False
        text = text.strip("/")
        return any(text == pattern.strip("/") for pattern in self.exclude)


def _earlier(a, b) -> bool:
    """Event `a` registered before event `b`: by the calls that register them (`when`),
    by their own sites when the same call registers both; a use that applies whenever it
    is registered is always earlier."""
    if not getattr(a, "ordered", True):
        return True
    wa, wb = a.when or a.site, b.when or b.site
    if wa == wb:
        return _before(a.site, b.site)
    return _before(wa, wb)


def _before(a: Site, b: Site) -> bool:
    """Registered before, as far as the source says: earlier in the same file; a use in
    another file (an app configured elsewhere) counts as before."""
    if a.rel != b.rel:
        return True
    return (
        a.end < b.end if a.end and b.end else (a.line, a.col) < (b.line, b.col)
    )  # a chain's inner call ends first


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
                child.mounted = child.mounted or not event.shared
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
                        if not child.mounted:  # reached by nothing else: the framework serves it
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
        return (
            model is not None
            and model.router.get("root") is not None
            and select(model.router["root"], _PropSource(Obj("", "", route.site))) == Lit("keep")
        )

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
              replaced: bool = False, head: Head | None = None) -> None:  # fmt: skip
        if depth > MAX_DEPTH:
            return
        head = head or Head()
        for event in node.prefixes:
            if event.version_prefix is not None:
                head = Head(
                    head.prefix,
                    head.exclude,
                    head.mounts,
                    event.version_prefix,
                    event.default_version,
                )
            elif event.overall:  # the app's own prefix: named apart, it precedes versions
                head = Head(join(head.prefix, event.path), head.exclude + event.exclude,
                            [*head.mounts, (event.path_site or event.site, event.path)],
                            head.version_prefix, head.default_version)  # fmt: skip
            else:
                prefix = join(prefix, event.path)
                mounts = [*mounts, (event.path_site or event.site, event.path)]
        node.uses.sort(  # registration order; a use that names its routes (NestJS
            # `forRoutes`: module-bound middleware) runs after the app's global ones
            key=lambda u: (u.exact, (u.when or u.site).rel, (u.when or u.site).end, u.site.start)
        )
        own = None if replaced and self.overridden(node) else self.own_prefix(node)
        if own is not None:
            prefix = join(prefix, own)
            if _text(own) not in ("", "/") and isinstance(node.value, Obj):
                mounts = [*mounts, (node.value.origin, own)]  # the router's own prefix
        for route in node.routes:
            full = join(prefix, route.path)
            if prefix is not None and self._keeps_root(route) and _text(route.path) == "/":
                full = concat(
                    prefix, Lit("/")
                )  # `@router.get("/")` under "/reports" is "/reports/"
            below = full  # what path-scoped uses match: the path below the app's own prefix
            full, route_mounts = head.compose(full, route, mounts)
            verb = str(route.method.value).upper() if isinstance(route.method, Lit) else ""
            chain = [(v, s) for v, s, scope, methods, exact in inherited
                     if _covers(scope, below, exact) and (not methods or verb in methods)]  # fmt: skip
            for use in node.uses:
                if (
                    _earlier(use, route)
                    and _covers(join(prefix, use.path), below, use.exact)
                    and (not use.methods or verb in use.methods)
                ):
                    chain += list(use.middleware)
            chain += list(route.middleware)
            out.append(NamedRoute(route, full, _once(chain), route_mounts, root))
        for mount in node.mounts:
            child = self.node(mount.child)
            if child is None or id(child) in stack:
                continue
            chain = list(inherited)
            for use in node.uses:
                if _earlier(use, mount):
                    scope = join(prefix, use.path) if use.path is not None else None
                    chain += [(v, s, scope, use.methods, use.exact) for v, s in use.middleware]
            chain += [(v, s, None, (), False) for v, s in mount.middleware]
            here = list(mounts)
            if mount.path is not None and not (
                isinstance(mount.path, Lit) and str(mount.path.value or "").strip("/") == ""
            ):
                here.append(
                    (mount.path_site or mount.site, mount.path)
                )  # where its prefix is written
            self._walk(child, join(prefix, mount.path), chain, here, root, (*stack, id(child)),
                       depth + 1, out, mount.path is not None, head)  # fmt: skip


def _once(chain: list) -> list:
    """Each written middleware once: one `apply(A).forRoutes(x, y)` matching a route twice
    still runs `A` once for it (the first selector that matches names the line)."""
    seen: set = set()
    out = []
    for value, site in chain:
        key = (site.rel, site.start, site.end)
        if site.rel.startswith("<"):
            out.append((value, site))
        elif key not in seen:
            seen.add(key)
            out.append((value, site))
    return out


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
    if not exact:  # `app.use('/posts/*', mw)`: a trailing wildcard covers what is below
        want = "/" + want.removesuffix("*").strip("/")
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
