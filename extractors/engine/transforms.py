"""Request transforms: functions a client library runs on every request before sending it
(Angular `HttpInterceptor` classes and `HttpInterceptorFn`s, axios request interceptors).

What one does to the URL is read off its own code: it is called with a request object
whose URL is a placeholder, and the request it passes on — the argument of its `next`
handler, or what it returns — says whether a prefix now stands before the URL
(`req.clone({ url: base + req.url })`, `config.url = base + config.url`) or a base was set
(`config.baseURL = base`). The effect applies to every request of the client object the
transform was registered on (by its origin), or of every client of a role (`role:`), in
registration order; the line that rewrote the URL becomes a hop of each call.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from extractors.engine.events import RequestEvent, TransformEvent
from extractors.engine.values import (
    STRINGISH,
    ArrLit,
    Choice,
    Concat,
    Func,
    Instance,
    Klass,
    Lit,
    Method,
    Obj,
    Param,
    Scope,
    Site,
    Value,
    concat,
)
from extractors.lang.expr import EMember

MARK_SCOPE = Scope("<request>", 0, 0)


@dataclass(frozen=True)
class Effect:
    prefix: Value | None  # put before the request's URL
    base: Value | None  # the base the request gets
    site: Site  # where the URL is rewritten
    name: str = "url"  # the request property rewritten there (`url`, `baseURL`)


def transform_events(op, obj: Obj, src, site: Site) -> list[TransformEvent]:
    """A model operation's `transform:` — `fn` (one or a list: functions, or classes whose
    `method` is the transform), `role` (every client of it; else the client registered on),
    `request` / `next` (roles of what the function is handed), `url` / `base` (the request
    properties it may rewrite); or `sets`, the base a configuring call gives the client."""
    spec = op.spec

    def word(key: str, default: str | None) -> str | None:
        value = src.select(spec.get(key)) if key in spec else None
        return str(value.value) if isinstance(value, Lit) and value.value else default

    target = Obj(obj.model, obj.role.split(".", 1)[0], obj.origin, obj.props)
    if "sets" in spec:  # `client.setConfig({ baseUrl })`: the base from here on
        base = src.select(spec["sets"], STRINGISH)
        return [TransformEvent(obj.model, target, word("role", None), None, None, "request", None,
                               "url", None, site, base)] if base is not None else []  # fmt: skip
    fns = src.select(spec.get("fn"))
    items = fns.items if isinstance(fns, ArrLit) else (fns,) if fns is not None else ()
    return [
        TransformEvent(
            obj.model,
            target,
            word("role", None),
            fn,
            word("method", None),
            word("request", "request") or "request",
            word("next", None),
            word("url", "url") or "url",
            word("base", None),
            site,
        )  # fmt: skip
        for fn in items
        if isinstance(fn, (Func, Klass, Instance))
    ]


class Transforms:
    def __init__(self, ev, events: list[TransformEvent]):
        self.ev = ev
        self.events = events
        self._effects: dict[TransformEvent, Effect | None] = {}

    def apply(self, event: RequestEvent) -> RequestEvent:
        client = event.client
        if not isinstance(client, Obj):
            return event
        for t in self.events:
            if t.model != client.model:
                continue
            every = t.role is not None and t.role == client.role
            own = (
                t.role is None and t.target.role == client.role and t.target.origin == client.origin
            )  # type: ignore[union-attr]
            if not (every or own):
                continue
            effect = self.effect(t)
            if effect is None:
                continue
            url, base = event.url, event.base
            if _absolute(url):
                continue  # an absolute URL is sent as written: no base, no prefix
            if effect.prefix is not None:
                url = concat(effect.prefix, url)
            if effect.base is not None:
                base = effect.base
            written = effect.prefix if effect.prefix is not None else effect.base
            rewrite = (effect.name, written, effect.site) if written is not None else None
            event = replace(event, url=url, base=base, via=event.via + (effect.site,),
                            rewrite=rewrite or event.rewrite)  # fmt: skip
        return event

    def effect(self, t: TransformEvent) -> Effect | None:
        if t not in self._effects:
            self._effects[t] = None  # a transform reached again while reading itself
            self._effects[t] = self._read(t)
        return self._effects[t]

    def _read(self, t: TransformEvent) -> Effect | None:
        if t.sets is not None:
            return Effect(None, t.sets, t.site, t.base or "base")
        ev = self.ev
        fn = Instance(t.fn) if isinstance(t.fn, Klass) else t.fn
        if isinstance(fn, Instance) and t.method:
            fn = ev.member(fn, t.method, fn.klass.site.rel, None, 1)
        if not isinstance(fn, Func):
            return None
        mark = Param(f"{t.request}.{t.url}", MARK_SCOPE)
        request = Obj(t.model, t.request, fn.site, ((t.url, mark),))
        args: list[Value] = [request] + ([Obj(t.model, t.next, fn.site)] if t.next else [])
        outs, act = ev.apply(fn, args)
        if act is None:
            return None
        if t.next:
            outs = self._passed_on(fn, act, t.next)
        assigned = self._assigned(fn, act, request)
        for out in alternatives(outs):
            if not (isinstance(out, Obj) and out.role == t.request):
                continue
            fresh = out.origin == request.origin  # the request itself, maybe assigned to
            url, site = out.prop(t.url), out.origin if not fresh else fn.site
            base = out.prop(t.base) if t.base else None
            if fresh and t.url in assigned:
                url, site = assigned[t.url]
            if fresh and t.base and t.base in assigned:
                base, site = assigned[t.base]
            prefix = _prefix(url, mark)
            base = base if isinstance(base, STRINGISH) and base != mark else None
            if prefix is not None or base is not None:
                return Effect(prefix, base, site, t.url if prefix is not None else t.base or "")
        return None

    def _passed_on(self, fn: Func, act, next_role: str) -> list[Value]:
        """The requests the function hands to its `next` handler (`next(req)`,
        `next.handle(req)`), each evaluated in the function's activation."""
        a = self.ev.program.adapter(fn.site.rel)
        out = []
        for node in a.calls():
            if not (fn.site.start <= node.start_byte and node.end_byte <= fn.site.end):
                continue
            view = a.call_view(node)
            if view is None or not view.args:
                continue
            callee = self.ev.eval(fn.site.rel, view.callee, act)
            target = callee.target if isinstance(callee, Method) else callee
            if isinstance(target, Obj) and target.role == next_role:
                out.append(self.ev.eval(fn.site.rel, view.args[0], act))
        return out

    def _assigned(self, fn: Func, act, request: Obj) -> dict[str, tuple[Value, Site]]:
        """`config.baseURL = …` / `config.url = …` written to the request in the function."""
        a = self.ev.program.adapter(fn.site.rel)
        out: dict[str, tuple[Value, Site]] = {}
        for target, value in a.member_assignments():
            if not (fn.site.start <= target.start_byte and target.end_byte <= fn.site.end):
                continue
            view = a.view(target)
            if not isinstance(view, EMember):
                continue
            owner = self.ev.eval(fn.site.rel, view.obj, act)
            if (
                isinstance(owner, Obj)
                and owner.origin == request.origin
                and owner.role == request.role
            ):
                out[view.name] = (
                    self.ev.eval(fn.site.rel, value, act),
                    a.site(target.parent or target),
                )
        return out


def alternatives(values: list[Value]) -> list[Value]:
    """Every option of a list of values, choices flattened one level."""
    out: list[Value] = []
    for value in values:
        out += list(value.options) if isinstance(value, Choice) else [value]
    return out


def _prefix(url: Value | None, mark: Param) -> Value | None:
    """`P` of `P + mark` (the request's own URL last, once); None when the URL is kept."""
    if isinstance(url, Choice):
        return next((p for o in url.options if (p := _prefix(o, mark)) is not None), None)
    if isinstance(url, Concat) and url.parts[-1] == mark and mark not in url.parts[:-1]:
        head = url.parts[:-1]
        return head[0] if len(head) == 1 else Concat(head)
    return None


def _absolute(url: Value) -> bool:
    first = url.parts[0] if isinstance(url, Concat) else url
    return isinstance(first, Lit) and isinstance(first.value, str) and "://" in first.value


class ProvidedSource:
    """What a `<provide>` operation's selectors read: the provider literal's value as
    `arg0` (`{ provide: HTTP_INTERCEPTORS, useClass: AuthInterceptor }`)."""

    def __init__(self, ev, value: Value):
        self.ev, self.value = ev, value

    def select(self, selector, want=None):
        from extractors.models.selectors import select

        return select(selector, self, want)

    def arg(self, i: int) -> Value | None:
        return self.value if i == 0 else None

    def kwarg(self, name: str) -> Value | None:
        return None

    def arg_count(self) -> int:
        return 1

    def receiver(self) -> Value | None:
        return None

    def method_name(self) -> str:
        return "<provide>"

    def decorated(self) -> Value | None:
        return None

    def attr(self, name: str) -> Value | None:
        return None

    def item(self) -> Value | None:
        return None

    def member(self, value: Value, name: str) -> Value:
        return self.ev.member(value, name, "", None, 1)


def provided_transforms(ev, library) -> list[TransformEvent]:
    """Transforms registered by a provider literal whose token is a model object (Angular's
    `{ provide: HTTP_INTERCEPTORS, useClass: X, multi: true }`): its `<provide>` operations."""
    out: list[TransformEvent] = []
    for provider in ev.injector.providers():
        token = provider.token
        obj = token if isinstance(token, Obj) else library.claim(token)
        if obj is None:
            continue
        for op in library.operations(obj, "<provide>"):
            if op.action == "transform":
                out += transform_events(op, obj, ProvidedSource(ev, provider.value), provider.site)
    return out
