"""The one value algebra every concern evaluates into (routes, URLs, settings, env reads).

String-like values: `Lit | Env(name, default) | Config(key, source, default) | Param |
Concat | Choice | Unknown(expr, why)`. What cannot be known stays symbolic and carries its
reason; nothing is dropped for a hole.

Reference values name the things a program passes around: an object or array literal (lazy:
members are evaluated when read), a function (with the activation it closes over), a class
and its instances, a module, an external package symbol (`Ext('axios', ('create',))`), a
typed value (a parameter annotated `HttpClient`) and a model object (`Obj`: an Express
router, an axios client) whose role and properties a model gave it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


class Value:
    """Base of every value. Immutable, hashable."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Lit(Value):
    value: Any  # str | int | float | bool | None


@dataclass(frozen=True, slots=True)
class Env(Value):
    """An environment variable read (`process.env.X`, `import.meta.env.X`, `os.getenv`)."""

    name: str
    default: Value | None = None
    via: str = "env"  # process.env | import.meta.env | os.environ | settings ...
    site: Site | None = field(default=None, compare=False)  # where it is read or declared


@dataclass(frozen=True, slots=True)
class Config(Value):
    """A configuration key read through a config library (`config.get('api.prefix')`)."""

    key: str
    source: str  # the config model that read it: nest-config, node-config, django ...
    default: Value | None = None
    site: Site | None = field(default=None, compare=False)  # where its value is written


@dataclass(frozen=True, slots=True)
class Param(Value):
    """A parameter of a function whose argument is not known here (a wrapper's input)."""

    name: str
    scope: Scope


@dataclass(frozen=True, slots=True)
class Concat(Value):
    parts: tuple[Value, ...]


@dataclass(frozen=True, slots=True)
class Choice(Value):
    """One of several values, chosen at run time (a ternary, reassignment, `a || b`)."""

    options: tuple[Value, ...]
    condition: str | None = None


@dataclass(frozen=True, slots=True)
class Unknown(Value):
    expr: str
    why: str


# --- references -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Scope:
    """A function, method or loop activation's identity: its file and node span."""

    rel: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Site:
    """Where something is written: file, 1-based lines, 0-based column, byte span."""

    rel: str
    line: int
    end_line: int
    col: int = 0
    start: int = 0
    end: int = 0

    @property
    def where(self) -> str:
        return f"{self.rel}:{self.line}"


@dataclass(frozen=True, slots=True)
class UseSite(Site):
    """A middleware written at one place (its span names it) and used at another line
    (`user: CurrentUser` uses the `Depends(current_user)` of an alias declared elsewhere)."""

    used_rel: str = ""
    used_line: int = 0


def used_at(site: Site) -> tuple[str, int]:
    """(file, line) where a middleware use happens."""
    if isinstance(site, UseSite) and site.used_rel:
        return site.used_rel, site.used_line
    return site.rel, site.line


@dataclass(frozen=True, slots=True)
class Activation:
    """Values bound for one scope (a call's arguments, a loop element), and the activation
    its closure was made in. Looked up by scope, innermost first."""

    scope: Scope
    values: tuple[tuple[str, Value], ...]
    this: Value | None = None
    parent: Activation | None = None
    depth: int = 0
    at: Site | None = None  # a loop element bound here: where that element is written

    def element_site(self) -> Site | None:
        """Where the element of the innermost unrolled loop is written (a registration made
        in a loop over a static list is that element's)."""
        return self._nearest("at")

    def find(self, scope: Scope) -> Activation | None:
        act: Activation | None = self
        while act is not None:
            if act.scope == scope:
                return act
            act = act.parent
        return None

    def get(self, name: str) -> Value | None:
        for key, value in self.values:
            if key == name:
                return value
        return None

    def this_value(self) -> Value | None:
        return self._nearest("this")

    def _nearest(self, name: str):
        """The innermost activation's `this` / `at` that is set."""
        act: Activation | None = self
        while act is not None:
            found = getattr(act, name)
            if found is not None:
                return found
            act = act.parent
        return None


@dataclass(frozen=True, slots=True)
class ObjLit(Value):
    """An object / dict literal, evaluated member by member when read."""

    site: Site
    act: Activation | None = None
    extra: tuple[tuple[str, Value], ...] = ()  # members set by assignments elsewhere


@dataclass(frozen=True, slots=True)
class Seq(Value):
    """A tuple written bare (`return method, url, headers`), its items evaluated only when
    read: by position, unpacked (`a, b = f()`) or spread into a call (`f(*t)`). Functions
    return such tuples everywhere; evaluating every item of each was costly for nothing."""

    site: Site
    act: Activation | None = None


@dataclass(frozen=True, slots=True)
class ArrLit(Value):
    items: tuple[Value, ...]
    site: Site | None = field(default=None, compare=False)  # the literal, when written as one


@dataclass(frozen=True, slots=True)
class Func(Value):
    site: Site  # the function node
    act: Activation | None = None  # what it closes over
    this: Value | None = None  # bound receiver (a method read off an object)
    name: str = ""
    via: str = ""  # the library helper that handed it over (`fp(plugin)`: fastify-plugin)


@dataclass(frozen=True, slots=True)
class Klass(Value):
    site: Site
    name: str = ""


@dataclass(frozen=True, slots=True)
class Instance(Value):
    """`new K(args)` of a class of the component."""

    klass: Klass
    args: tuple[Value, ...] = ()
    kwargs: tuple[tuple[str, Value], ...] = ()
    made: bool = field(default=False, compare=False)  # by a call read here (`K()`), not `self`


@dataclass(frozen=True, slots=True)
class Module(Value):
    rel: str


@dataclass(frozen=True, slots=True)
class Ext(Value):
    """A symbol of an external package (or a global: package `<global>`), by access path."""

    package: str
    path: tuple[str, ...] = ()

    @property
    def dotted(self) -> str:
        return ".".join((self.package, *self.path)) if self.path else self.package


@dataclass(frozen=True, slots=True)
class Typed(Value):
    """A value known only by its declared type (`http: HttpClient`)."""

    type: Value  # usually an Ext or a Klass
    origin: str = ""


@dataclass(frozen=True, slots=True)
class Obj(Value):
    """An object a model recognised: a router, an app, an HTTP client, a settings object."""

    model: str
    role: str
    origin: Site
    props: tuple[tuple[str, Value], ...] = field(default=())
    name: str = ""  # the class it is, for class-based controllers and views

    def prop(self, name: str) -> Value | None:
        for key, value in self.props:
            if key == name:
                return value
        return None

    def with_props(self, **more: Value) -> Obj:
        kept = tuple((k, v) for k, v in self.props if k not in more)
        return Obj(self.model, self.role, self.origin, kept + tuple(more.items()), self.name)


STRINGISH = (Lit, Env, Config, Param, Concat, Choice, Unknown)


def concat(*parts: Value) -> Value:
    """Concatenation with adjacent literals merged and nested concatenations flattened."""
    flat: list[Value] = []
    for part in parts:
        items = part.parts if isinstance(part, Concat) else (part,)
        for item in items:
            if isinstance(item, Lit) and item.value in ("", None):
                continue
            if flat and isinstance(item, Lit) and isinstance(flat[-1], Lit):
                flat[-1] = Lit(f"{flat[-1].value}{item.value}")
            else:
                flat.append(item)
    if not flat:
        return Lit("")
    return flat[0] if len(flat) == 1 else Concat(tuple(flat))


MAX_OPTIONS = 16  # alternatives a value keeps; past that it is widened to Unknown


def choice(options: list[Value] | tuple[Value, ...], condition: str | None = None) -> Value:
    """A choice of distinct options (nested choices flattened); one option is itself. A
    name reassigned in many places (library code: a module-level variable set by every
    branch of a setup function) would otherwise multiply through every read of it, so
    more than MAX_OPTIONS alternatives widen to an Unknown that says so."""
    if len(options) == 1 and not isinstance(options[0], Choice):
        return options[0]  # most reads: one declaration, one value
    # compared, never hashed: values share sub-values (closures, activations), and a hash
    # walks every path through them while `in` stops at the first identical one
    seen: list[Value] = []
    for option in options:
        for item in option.options if isinstance(option, Choice) else (option,):
            if item in seen:
                continue
            seen.append(item)
            if len(seen) > MAX_OPTIONS:
                return Unknown(
                    "",
                    f"one of more than {MAX_OPTIONS} values chosen at run time (too many to follow)",
                )
    if not seen:
        return Unknown("", "no value")
    items = tuple(seen)
    return items[0] if len(items) == 1 else Choice(items, condition)


def text_of(value: Value) -> str | None:
    """The literal string a value certainly is, else None."""
    if isinstance(value, Lit) and isinstance(value.value, (str, int, float)):
        return str(value.value)
    return None


def params_in(value: Value) -> set[Scope]:
    """The scopes whose parameters this value depends on."""
    found: set[Scope] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, Param):
            found.add(v.scope)
        elif isinstance(v, Concat):
            stack.extend(v.parts)
        elif isinstance(v, Choice):
            stack.extend(v.options)
        elif isinstance(v, (Env, Config)) and v.default is not None:
            stack.append(v.default)
        elif isinstance(v, Obj):
            stack.extend(p for _, p in v.props)
    return found


def describe(value: Value, limit: int = 80) -> str:
    """A short readable form, for `unresolved` rows and provenance tails."""
    if isinstance(value, Lit):
        return repr(value.value)
    if isinstance(value, Env):
        return f"env {value.name}" + (
            f" (default {describe(value.default)})" if value.default else ""
        )
    if isinstance(value, Config):
        return f"config {value.key}"
    if isinstance(value, Param):
        return f"parameter {value.name}"
    if isinstance(value, Concat):
        return " + ".join(describe(p, limit) for p in value.parts)[:limit]
    if isinstance(value, Choice):
        return " | ".join(describe(p, limit) for p in value.options)[:limit]
    if isinstance(value, Unknown):
        return value.expr[:limit] or value.why
    if isinstance(value, Ext):
        return value.dotted
    if isinstance(value, Obj):
        return f"{value.model} {value.role}"
    return type(value).__name__


@dataclass(frozen=True, slots=True)
class Method(Value):
    """A member of a value the engine does not model itself (`router.get`, `str.replace`),
    kept with its receiver so that calling it can be interpreted."""

    target: Value
    name: str


def literal_names(value: Value | None) -> list[str] | None:
    """A list of strings written literally (`methods: ['find', 'get']`), else None."""
    if not isinstance(value, ArrLit):
        return None
    names = [i.value for i in value.items if isinstance(i, Lit) and isinstance(i.value, str)]
    return names if len(names) == len(value.items) else None


def as_list(value: Value | None) -> list[Value]:
    """A value as the values it stands for: a list's items, a choice's options, itself."""
    if value is None:
        return []
    if isinstance(value, ArrLit):
        return list(value.items)
    if isinstance(value, Choice):
        return list(value.options)
    return [value]
