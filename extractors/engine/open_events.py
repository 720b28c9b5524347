"""Which function an event is open at: the innermost function whose parameter shapes it (a
request's URL, method or client, a route's router or path, a mount's parent or child), or
the generated client function it is read in. A parameter that only fills a path segment
keeps the event where it is unless a caller passes a path for it. What the pass
(recognize.py) asks before it reads an event again at the callers.
"""

from __future__ import annotations

from tree_sitter import Node as TsNode

from extractors.engine.callers import MAX_CALLERS
from extractors.engine.events import (
    Event,
    MountEvent,
    RequestEvent,
    RouteEvent,
    UseEvent,
)
from extractors.engine.values import (
    Choice,
    Concat,
    Lit,
    Param,
    Scope,
    Unknown,
    Value,
    params_in,
)


class OpenEvents:
    """`Recognizer`'s decision of where an event is open, and of what a wrapper is."""

    def open_scope(self, event: Event, rel: str, node: TsNode, waits: set) -> Scope | None:
        scopes: set[Scope] = set(waits)
        if isinstance(event, RequestEvent):
            scopes |= params_in(event.method)
            if isinstance(event.client, Param):
                scopes.add(event.client.scope)
            shape, values = shape_params(event.url)
            if event.base is not None:
                scopes |= params_in(event.base)
            scopes |= shape
            if not scopes and values:
                scopes = {s for s in values if self._wrapper_by_evidence(s, rel)}
        elif isinstance(event, RouteEvent):
            if isinstance(event.router, Param):
                scopes.add(event.router.scope)
            scopes |= params_in(event.path) | params_in(event.method)
        elif isinstance(event, MountEvent):
            for value in (event.parent, event.child):
                if isinstance(value, Param):
                    scopes.add(value.scope)
            if event.path is not None:
                scopes |= params_in(event.path)
        elif isinstance(event, UseEvent) and isinstance(event.target, Param):
            scopes.add(event.target.scope)
        return self._innermost(scopes, node)

    def _generated_scope(self, rel: str, node: TsNode, chain: tuple) -> Scope | None:
        """A request in generated client code is that code's: its caller is the call site
        (the innermost function of the chain so far that is generated and called)."""
        where = chain[-1][1][0] if chain else rel
        if where not in self.generated:
            return None
        at = chain[-1][1][1] if chain else node
        a = self.program.adapter(where)
        fn = a.function_at(at) if a is not None and at is not None else None
        if fn is None:
            return None
        scope = a.scope_of(fn)
        return scope if self.callers(scope) else None

    def _generated_caller(self, event: Event, rel: str, node: TsNode, chain: tuple) -> Scope | None:
        """A request read in generated client code (`getPet: () => client.get({ url })`) moves
        to the callers of the generated function it is read in, whatever its URL: the SDK's
        functions are wrappers, the application's calls of them the call sites."""
        if not isinstance(event, RequestEvent) or not self.generated:
            return None
        where_rel, where = (chain[-1][1][0], chain[-1][1][1]) if chain else (rel, node)
        if where is None or where_rel not in self.generated:
            return None
        a = self.program.adapter(where_rel)
        fn = a.function_at(where) if a is not None else None
        while fn is not None and not self.callers(a.scope_of(fn)):
            fn = a.function_at(fn)  # `const getPet = (o) => (o?.client ?? client).get(…)`
        return a.scope_of(fn) if fn is not None else None

    def _wrapper_by_evidence(self, scope: Scope, rel: str) -> bool:
        """A function whose parameter fills a path segment is still a wrapper when it is
        generated client code, or when a caller passes a path (`/x/y`) for it."""
        if scope.rel in self.generated:
            return bool(self.callers(scope))
        for caller_rel, node, _ in self.callers(scope)[:MAX_CALLERS]:
            a = self.program.adapter(caller_rel)
            view = a.call_view(node) if a is not None and node is not None else None
            for arg in view.args if view is not None else ():
                if _path_shaped(self.ev.eval(caller_rel, arg, None)):
                    return True
        return False

    def _innermost(self, scopes: set[Scope], node: TsNode) -> Scope | None:
        inside = [s for s in scopes if s.start <= node.start_byte and node.end_byte <= s.end]
        if inside:
            return min(inside, key=lambda s: s.end - s.start)
        return min(scopes, key=lambda s: s.end - s.start) if scopes else None


def _value_like(part: Value) -> bool:
    """A part that can only be one segment's value: a parameter, or a choice of parameters
    and unknowns (`article ? article.slug : slug`)."""
    if isinstance(part, Param):
        return True
    options = part.options if isinstance(part, Choice) else ()
    return all(isinstance(o, (Param, Unknown)) for o in options) and any(
        isinstance(o, Param) for o in options
    )


def _path_shaped(value: Value) -> bool:
    """A path a caller passes: text with a `/` in its literal parts (`'users/login'`,
    `` `articles/${slug}` ``, either branch of a choice)."""
    if isinstance(value, Lit):
        return isinstance(value.value, str) and "/" in value.value
    if isinstance(value, Concat):
        return any(_path_shaped(p) for p in value.parts if isinstance(p, (Lit, Choice)))
    if isinstance(value, Choice):
        return any(_path_shaped(o) for o in value.options)
    return False


def shape_params(url: Value) -> tuple[set[Scope], set[Scope]]:
    """(scopes of parameters that shape the URL, scopes of parameters that only fill a path
    segment): `base + path` is shaped by `path`; `/articles/${slug}` is not by `slug`."""
    if isinstance(url, Choice):
        shape, values = set(), set()
        for option in url.options:
            s, v = shape_params(option)
            shape |= s
            values |= v
        return shape, values - shape
    parts = list(url.parts) if isinstance(url, Concat) else [url]
    shape: set[Scope] = set()
    values: set[Scope] = set()
    in_query = False
    for i, part in enumerate(parts):
        inner = params_in(part)
        if not inner:
            if isinstance(part, Lit) and "?" in str(part.value or ""):
                in_query = True
            continue
        before = parts[i - 1] if i > 0 else None
        after = parts[i + 1] if i + 1 < len(parts) else None
        prev = before.value if isinstance(before, Lit) and isinstance(before.value, str) else None
        nxt = after.value if isinstance(after, Lit) and isinstance(after.value, str) else None
        segment = _value_like(part) and (
            in_query  # a query parameter's value
            or (
                prev is not None
                and prev.endswith("/")
                and len(prev.strip("/")) > 0
                and (nxt is None or nxt.startswith(("/", "?", "&", ".")))
            )
        )
        (values if segment else shape).update(inner)
    return shape, values
