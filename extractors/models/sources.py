"""What a model's selectors read from: a call (`CallSource`: its arguments, receiver, name,
decorated target), nothing but the component's files (`FileSource`: `file(nuxt.config)`),
or a class (`ClassSource`: its attributes)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from extractors.engine.values import Klass, Method, Obj, Value
from extractors.lang.expr import EMember

if TYPE_CHECKING:
    from extractors.engine.evaluate import Call, Evaluator


class CallSource:
    """What selectors read at a call: its arguments, receiver, name, decorated target."""

    def __init__(self, ev: Evaluator, call: Call, receiver: Value | None,
                 decorated: Value | None = None, item: Value | None = None):  # fmt: skip
        self.ev, self.call, self._receiver = ev, call, receiver
        self._decorated, self._item = decorated, item

    def select(self, selector, want: tuple | None = None) -> Value | None:
        from extractors.models.selectors import select

        return select(selector, self, want)

    def arg(self, i: int) -> Value | None:
        return self.call.arg(i)

    def kwarg(self, name: str) -> Value | None:
        return self.call.kwarg(name)

    def arg_count(self) -> int:
        return len(self.call.view.args)

    def receiver(self) -> Value | None:
        return self._receiver

    def method_name(self) -> str:
        callee = self.call.callee
        return callee.name if isinstance(callee, Method) else ""

    def decorated(self) -> Value | None:
        return self._decorated

    def chained(self) -> str | None:
        """The name of the method called on this call's value (`post` of
        `useFetch(url).post(body)`), else None."""
        a = self.ev.program.adapter(self.call.rel)
        member = self.call.node.parent
        outer = member.parent if member is not None else None
        view = a.call_view(outer) if a is not None and outer is not None else None
        if view is None or view.callee != member:
            return None
        read = a.view(member)
        return read.name if isinstance(read, EMember) and read.obj == self.call.node else None

    def attr(self, name: str) -> Value | None:
        return None

    def item(self) -> Value | None:
        return self._item

    def file(self, stem: str) -> Value | None:
        """What a configuration file of the component exports (`nuxt.config.ts`: its default
        export), the shallowest file of that name."""
        return config_file(self.ev, stem)

    def member(self, value: Value, name: str) -> Value:
        return self.ev.member(value, name, self.call.rel, self.call.node, self.call.depth + 1)

    def made_of(self, role: str) -> Value | None:
        """The object of `role` (of the receiver's model) the component makes, when it makes
        one, or several alike (`made(module)`)."""
        obj = self._receiver.target if isinstance(self._receiver, Method) else self._receiver
        if not isinstance(obj, Obj):
            return None
        made = self.ev.library.made.get((obj.model, role), [])
        props = {m.props for m in made}
        return made[0] if len(props) == 1 else None

    def made_kwarg(self, name: str) -> Value | None:
        """The keyword argument `name` of the call that made the receiver (`made.kw(…)`)."""
        obj = self._receiver.target if isinstance(self._receiver, Method) else self._receiver
        if not isinstance(obj, Obj):
            return None
        a = self.ev.program.adapter(obj.origin.rel)
        node = a.node_at(obj.origin) if a is not None else None
        view = a.call_view(node) if a is not None and node is not None else None
        value = view.kwargs.get(name) if view is not None else None
        if value is None:
            return None
        return self.ev.eval(obj.origin.rel, value, None, self.call.depth + 1)


def config_file(ev: Evaluator, stem: str) -> Value | None:
    program = ev.program
    found = sorted((r.count("/"), r) for r in program.js
                   if r.rsplit("/", 1)[-1].rsplit(".", 1)[0] == stem)  # fmt: skip
    if not found:
        return None
    rel = found[0][1]
    value = program.module_exports(ev, rel)
    return value if value is not None else program.exported(ev, rel, "default")


class FileSource(CallSource):
    """Selectors with no call: what the component's files say (`file(nuxt.config).x`)."""

    def __init__(self, ev: Evaluator):
        self.ev = ev
        self._receiver = self._decorated = self._item = None

    def arg(self, i: int) -> Value | None:
        return None

    def kwarg(self, name: str) -> Value | None:
        return None

    def arg_count(self) -> int:
        return 0

    def method_name(self) -> str:
        return ""

    def member(self, value: Value, name: str) -> Value:
        return self.ev.member(value, name, "", None, 1)


class ClassSource(FileSource):
    """Selectors over a class: its attributes (`attr.path`)."""

    def __init__(self, ev: Evaluator, klass: Klass):
        super().__init__(ev)
        self.klass = klass

    def attr(self, name: str) -> Value | None:
        value = self.ev.class_member(self.klass, name, 1, static=True)
        return None if isinstance(value, Method) else value

    def member(self, value: Value, name: str) -> Value:
        return self.ev.member(value, name, self.klass.site.rel, None, 1)
