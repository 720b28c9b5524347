"""A request's URL as text and parts: its template (`{ENV}/path/{param}`), the literal
origin and the path after the base, the path value its typed segments are read from, and
how a client's base joins a relative URL."""

from __future__ import annotations

from extractors.engine.paths import hole_name, member_chain, member_name
from extractors.engine.values import (
    Concat,
    Config,
    Env,
    Lit,
    Param,
    Unknown,
    Value,
    concat,
    describe,
)


def by_path(pairs: list[tuple[str, Value, tuple]]) -> list[tuple[str, Value, tuple]]:
    """One alternative per method and path: alternatives that differ only after the `?`
    (`query ? '?' + qs : ''`) are one call, written with the shortest query."""
    best: dict[tuple[str, str], tuple[str, Value, tuple]] = {}
    for pair in pairs:
        template = url_template(pair[1])[0]
        key = (pair[0], template.split("?", 1)[0])
        if key not in best or len(template) < len(url_template(best[key][1])[0]):
            best[key] = pair
    return list(best.values())


def with_base(base: Value, url: Value) -> Value:
    """A client's base before a relative URL, one slash between them (how axios, ky, got and
    ofetch join them); a URL that is only a query string follows the base as is."""
    parts = list(url.parts) if isinstance(url, Concat) else [url]
    head = parts[0].value if isinstance(parts[0], Lit) and isinstance(parts[0].value, str) else None
    if head is not None and (head == "" or head.startswith(("?", "#"))):
        return concat(base, url)
    last = base.parts[-1] if isinstance(base, Concat) else base
    slash = isinstance(last, Lit) and isinstance(last.value, str) and last.value.endswith("/")
    if head is not None:
        parts[0] = Lit(head.lstrip("/") if slash else "/" + head.lstrip("/"))
        return concat(base, *parts)
    return concat(base, url) if slash else concat(base, Lit("/"), url)


def shaped_by_parameter(url: Value) -> bool:
    """The URL's path (after its base) starts with a wrapper's parameter (`${BASE}/${tail}`:
    the slash after the base is no path of its own)."""
    parts = [
        p
        for p in (url.parts if isinstance(url, Concat) else (url,))
        if not isinstance(p, (Env, Config))
        and not (isinstance(p, Lit) and str(p.value or "") in ("", "/"))
    ]
    return bool(parts) and isinstance(parts[0], Param)


def absolute(url: Value) -> bool:
    first = url.parts[0] if isinstance(url, Concat) else url
    return isinstance(first, Lit) and isinstance(first.value, str) and "://" in first.value


def url_template(url: Value) -> tuple[str, str | None]:
    """`{ENV}/path/{param}` text of a URL and the env var its base comes from."""
    parts = url.parts if isinstance(url, Concat) else (url,)
    out, env_var = [], None
    for part in parts:
        if isinstance(part, Lit):
            out.append("" if part.value is None else str(part.value))
        elif isinstance(part, Env):
            env_var = env_var or part.name
            out.append("{" + part.name + "}")
        elif isinstance(part, Config):
            if part is parts[0]:  # a base read from configuration, named like an env var
                env_var = env_var or part.key
            out.append("{" + part.key + "}")
        elif isinstance(part, Param):
            out.append("{" + member_name(part.name) + "}")
        elif isinstance(part, Unknown) and member_chain(part.expr):
            out.append("{" + hole_name(part)[0] + "}")  # `article.slug`: `{slug}`
        else:
            out.append("{" + (describe(part, 30).split("(")[0].strip("'\" ") or "dynamic") + "}")
    return "".join(out), env_var


def split_base(url: Value, template: str) -> tuple[str | None, str]:
    """(literal origin or None, the path after the base / env var)."""
    parts = url.parts if isinstance(url, Concat) else (url,)
    if parts and isinstance(parts[0], (Env, Config)):
        rest = (
            Concat(tuple(parts[1:]))
            if len(parts) > 2
            else (parts[1] if len(parts) == 2 else Lit(""))
        )
        return None, url_template(rest)[0] or "/"
    if "://" in template:
        scheme, _, rest = template.partition("://")
        host, slash, path = rest.partition("/")
        return f"{scheme}://{host}", "/" + path if slash else "/"
    return None, template


def path_value(url: Value) -> Value:
    parts = list(url.parts) if isinstance(url, Concat) else [url]
    if parts and isinstance(parts[0], (Env, Config)):
        parts = parts[1:]
    elif (
        parts
        and isinstance(parts[0], Lit)
        and isinstance(parts[0].value, str)
        and "://" in parts[0].value
    ):
        scheme, _, rest = parts[0].value.partition("://")
        _, slash, path = rest.partition("/")
        parts[0] = Lit("/" + path if slash else "")
    return Concat(tuple(parts)) if len(parts) > 1 else (parts[0] if parts else Lit(""))
