"""Selectors: how a model names a value of a call — `arg0`, `arg1.baseURL`, `kw.prefix`,
`prop.path` (the receiver object's property), `attr.path` (a class attribute of the class a
model object was made from), `item.method` (a member of each item of a list being
registered), `file(nuxt.config)` (what a configuration file of the component exports),
`name` (the method called), `self` (the receiver), `decorated` (what a decorator
decorates), `chained` (the HTTP method named by a method called on the call's value:
'post' of `useFetch(url).post(body)`; absent for any other method), `last`, `rest` (the
arguments after the ones named before), `args` (every positional argument as a list;
`args1` from the second on), `'GET'` (a literal), `['GET', 'POST']` (a list of literals: a
default that is several methods), `made.kw(arg0)` (the keyword argument, named by this
call's first argument, of the call that made the receiver: django-environ's
`Env(DEBUG=(bool, False))` declares a default where the reader is made),
`made(module).baseURL` (the one object of that role of the receiver's model the component
makes, anywhere: NestJS's `HttpModule.register({ baseURL })` for its injected HttpService;
absent when it makes none or several that differ), text joined `'https://' + kw.host`
(present when every part is), and a choice `a | b` (the first present).
`arg0?` takes the argument only when it is a string (Express's optional path)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from extractors.engine.paths import HTTP_METHODS
from extractors.engine.values import (
    STRINGISH,
    ArrLit,
    Choice,
    Lit,
    Method,
    Obj,
    Param,
    Unknown,
    Value,
    concat,
)

CHAINED_METHODS = HTTP_METHODS - {"ANY"}  # `.get()` … `.trace()` chained on a request
_TERM = re.compile(
    r"^(?:(?P<lit>'[^']*'|\"[^\"]*\")|(?P<list>\[[^\]]*\])|(?P<arg>arg(?P<n>\d+)(?P<opt>\?)?)|kw\.(?P<kw>[A-Za-z_]\w*)"
    r"|prop\.(?P<prop>[A-Za-z_$][\w$]*)|attr\.(?P<attr>[A-Za-z_$][\w$]*)|item\.(?P<item>[A-Za-z_$][\w$]*)"
    r"|file\((?P<file>[\w.-]+)\)|made\.kw\(arg(?P<made>\d+)\)|made\((?P<madeof>[\w-]+)\)"
    r"|args(?P<from>\d+)|(?P<word>name|self|decorated|chained|last|rest|all|item|args))"
    r"(?P<path>(?:\.[\w$]+)*)$"
)


@dataclass(frozen=True)
class Term:
    kind: str  # lit | list | arg | kw | prop | attr | item | made | name | self | … | concat
    key: str = ""  # the literal, the argument index, the keyword or property name
    optional: bool = False
    path: tuple[str, ...] = ()
    parts: tuple[Term, ...] = ()  # concat: the terms whose text is joined (`'https://' + kw.host`);
    # list: its literal items


@dataclass(frozen=True)
class Selector:
    terms: tuple[Term, ...]

    @property
    def text(self) -> str:
        return " | ".join(t.kind + (f":{t.key}" if t.key else "") for t in self.terms)

    def positions(self) -> set[int]:
        return {int(t.key) for t in self.terms if t.kind == "arg"}


def parse_selector(raw) -> Selector:
    if isinstance(raw, (int, float, bool)) or raw is None:
        return Selector((Term("lit", str(raw) if raw is not None else ""),))
    if not isinstance(raw, str):
        raise ValueError(f"a selector is a string such as arg0 or kw.prefix, got {raw!r}")
    terms = []
    for alternative in raw.split("|"):
        pieces = [_parse_term(p.strip()) for p in alternative.split(" + ")]
        terms.append(pieces[0] if len(pieces) == 1 else Term("concat", parts=tuple(pieces)))
    return Selector(tuple(terms))


def _parse_term(part: str) -> Term:
    m = _TERM.match(part)
    if m is None:
        raise ValueError(f"cannot read selector {part!r}")
    path = tuple(p for p in (m.group("path") or "").split(".") if p)
    if m.group("lit"):
        text = m.group("lit")[1:-1]
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1]  # `"'GET'"` written inside YAML's own quotes
        return Term("lit", text)
    if m.group("list"):  # `['GET', 'POST']`: its items, each a literal
        items = [_parse_term(i.strip()) for i in m.group("list")[1:-1].split(",") if i.strip()]
        if any(i.kind != "lit" for i in items):
            raise ValueError(f"a list in a selector holds literals only, got {part!r}")
        return Term("list", parts=tuple(items))
    if m.group("arg"):
        return Term("arg", m.group("n"), bool(m.group("opt")), path)
    if m.group("from"):
        return Term("args", m.group("from"), False, path)
    for kind in ("kw", "prop", "attr", "file", "made", "madeof", "item"):
        if m.group(kind):
            return Term(kind, m.group(kind), False, path)
    return Term(m.group("word"), "", False, path)


class Source(Protocol):
    """What a selector reads from: a call (or a decorator call) being interpreted."""

    def arg(self, i: int) -> Value | None: ...

    def kwarg(self, name: str) -> Value | None: ...

    def arg_count(self) -> int: ...

    def receiver(self) -> Value | None: ...

    def method_name(self) -> str: ...

    def decorated(self) -> Value | None: ...

    def attr(self, name: str) -> Value | None: ...

    def item(self) -> Value | None: ...

    def member(self, value: Value, name: str) -> Value: ...


def select(selector: Selector | None, src: Source, want: tuple | None = None) -> Value | None:
    """The first term of the selector that is present (and, with `want`, of one of those
    value types), its member path applied."""
    if selector is None:
        return None
    for term in selector.terms:
        if term.kind == "concat":  # present when every part is: their text joined
            parts = [_present(p, src) for p in term.parts]
            value = concat(*parts) if all(p is not None for p in parts) else None  # type: ignore[arg-type]
        else:
            value = _present(term, src)
        if value is None or (want is not None and not isinstance(value, want)):
            continue
        return value
    return None


def _present(term: Term, src: Source) -> Value | None:
    """A term's value with its member path applied, None when absent (no such argument,
    no such member, `undefined`)."""
    value = _term(term, src)
    if value is None:
        return None
    for step in term.path:
        value = src.member(value, step)
    member = bool(term.path) or (term.kind == "item" and bool(term.key))
    if isinstance(value, Method) or (member and (isinstance(value, Unknown) or value == Lit(None))):
        return None
    return value


def _term(term: Term, src: Source) -> Value | None:
    kind = term.kind
    if kind == "lit":
        return Lit(term.key)
    if kind == "list":
        return ArrLit(tuple(Lit(item.key) for item in term.parts))
    if kind == "arg":
        value = src.arg(int(term.key))
        if term.optional and value is not None and not _pathlike(value):
            return None
        return value
    if kind == "kw":
        return src.kwarg(term.key)
    if kind == "prop":
        receiver = src.receiver()
        return receiver.prop(term.key) if isinstance(receiver, Obj) else None
    if kind == "name":
        return Lit(src.method_name())
    if kind == "self":
        return src.receiver()
    if kind == "decorated":
        return src.decorated()
    if kind == "chained":
        reader = getattr(src, "chained", None)
        name = reader() if reader is not None else None
        return Lit(name) if name is not None and name.upper() in CHAINED_METHODS else None
    if kind == "attr":
        return src.attr(term.key)
    if kind == "item":
        item = src.item()
        return src.member(item, term.key) if item is not None and term.key else item
    if kind == "file":
        reader = getattr(src, "file", None)
        return reader(term.key) if reader is not None else None
    if kind == "madeof":  # the one object of that role the component makes
        reader = getattr(src, "made_of", None)
        return reader(term.key) if reader is not None else None
    if kind == "made":
        name, made = src.arg(int(term.key)), getattr(src, "made_kwarg", None)
        if made is None or not isinstance(name, Lit) or not isinstance(name.value, str):
            return None
        return made(name.value)
    if kind == "args":  # every positional argument (`args1`: from the second on), as a list
        start = int(term.key or 0)
        return ArrLit(
            tuple(v for i in range(start, src.arg_count()) if (v := src.arg(i)) is not None)
        )
    if kind == "last":
        n = src.arg_count()
        return src.arg(n - 1) if n else None
    return None


def _pathlike(value: Value) -> bool:
    """What an optional path argument can be: text known at least in part (not a value
    that is only known to be unknown, which is as likely a function)."""
    if isinstance(value, Choice):
        return all(_pathlike(v) for v in value.options)
    return isinstance(value, STRINGISH) and not isinstance(value, (Unknown, Param))


def first_free(selectors: list[Selector | None], src: Source) -> int:
    """The first argument position after every argument the selectors took (for `rest`)."""
    used = -1
    for selector in selectors:
        if selector is None:
            continue
        for term in selector.terms:
            if term.kind == "arg" and (value := _term(term, src)) is not None:
                del value
                used = max(used, int(term.key))
                break
    return used + 1
