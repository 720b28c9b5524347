"""Dependency injection the way the frameworks that have it do it (Angular, NestJS): the
value asked of the injector for a token — `inject(T)`, `@Inject(T)` on a constructor
parameter (a model operation's `dependency:`) — is what the component provides for it.

A provider object literal binds a token (`{ provide: API_URL, useValue: env.apiUrl }`,
`useClass`, `useFactory`, `useExisting`), read by the keys a model names (`providers:`);
a token nothing provides is a model's type (`HttpClient`: the model's object) or a class
of the component (an instance of it). Provider literals are also where a library learns
of a registration that is not a call (`{ provide: HTTP_INTERCEPTORS, useClass: X }`): a
model object used as a token gets its `<provide>` operations run with the provided value.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from extractors.engine.values import (
    Ext,
    Func,
    Instance,
    Klass,
    Site,
    Typed,
    Unknown,
    Value,
    choice,
    describe,
)
from extractors.lang.expr import EObject
from extractors.source import named_descendants

OBJECT_NODES = {"object", "dictionary"}
VALUE_KINDS = ("value", "class", "factory", "alias")  # the keys of `providers:` a value is under


@dataclass(frozen=True)
class Provider:
    """One provider literal: its token and the value it binds (already made: an instance
    for a class, the factory's return)."""

    token: Value
    value: Value
    site: Site


class Injector:
    def __init__(self, ev: Any):
        # the Evaluator, which makes and owns its injector: held weakly, so the two are no
        # reference cycle and the engine's state is freed when extraction drops it
        self.ev = weakref.proxy(ev)
        self.keys = [m.providers for m in getattr(ev.library, "models", ()) if m.providers]
        self._providers: list[Provider] | None = None
        self._resolving: set = set()

    def providers(self) -> list[Provider]:
        """Every provider literal of the component (found once)."""
        if self._providers is None:
            self._providers = []
            self._providers = self._scan()
        return self._providers

    def resolve(self, token: Value | None) -> Value:
        """What is injected for `token`: what providers bind it to, else the model object of
        a model's type, an instance of a component class, or a typed unknown."""
        if token is None:
            return Unknown("", "no token")
        provided = [p.value for p in self.providers() if p.token == token]
        if provided:
            return choice(provided)
        library = self.ev.library
        if isinstance(token, Ext):
            return library.typed(self.ev, token) or Typed(token, token.dotted)
        if isinstance(token, Klass):
            return library.subclass(self.ev, token) or Instance(token)
        return Unknown(describe(token), "nothing in the component provides this token")

    # --- the provider literals ------------------------------------------------------
    def _scan(self) -> list[Provider]:
        if not self.keys:
            return []
        # a provider literal names a model's token key and one of its value keys: a file
        # that does not write both is not walked (bundled code says `provide` everywhere)
        words = [(k["token"].encode(), [k[v].encode() for v in VALUE_KINDS if v in k])
                 for k in self.keys]  # fmt: skip
        out: list[Provider] = []
        program = self.ev.program
        for rel in program.rels():
            a = program.adapter(rel)
            data = a.sf.data if a is not None else b""
            if not any(t in data and any(v in data for v in vs) for t, vs in words):
                continue
            for node in named_descendants(a.root):
                if node.type in OBJECT_NODES:
                    out += self._literal(rel, a, node)
        return out

    def _literal(self, rel: str, a, node) -> list[Provider]:
        view = a.view(node)
        if not isinstance(view, EObject):
            return []
        entries = {e.key: e.value for e in view.entries if e.key is not None}
        out = []
        for keys in self.keys:
            token_node = entries.get(keys["token"])
            if token_node is None:
                continue
            for kind in VALUE_KINDS:
                value_node = entries.get(keys.get(kind, "\0"))
                if value_node is None:
                    continue
                token = self.ev.eval(rel, token_node, None)
                value = self._made(kind, self.ev.eval(rel, value_node, None))
                out.append(Provider(token, value, a.site(node)))
        return out

    def _made(self, kind: str, value: Value) -> Value:
        if kind == "class" and isinstance(value, Klass):
            return self.ev.library.subclass(self.ev, value) or Instance(value)
        if kind == "factory" and isinstance(value, Func):
            outs, _ = self.ev.apply(value, [])
            return choice(outs) if outs else Unknown(value.name, "factory returns nothing known")
        if kind == "alias":
            if value in self._resolving:
                return Unknown(describe(value), "a provider alias loop")
            self._resolving.add(value)
            try:
                return self.resolve(value)
            finally:
                self._resolving.discard(value)
        return value
