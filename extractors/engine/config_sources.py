"""Values a component's configuration files give its environment variables: `.env`,
`.env.local`, `.env.<mode>`, `.env.example` / `.env.sample` (in that order of trust). An
env var read with no default in the code takes the first value found, as its default, so
a route prefix read from `API_PREFIX` reads `/api` — the hole stays typed (`source: env`)."""

from __future__ import annotations

import re

from extractors.base import ComponentContext
from extractors.engine.values import Choice, Concat, Config, Env, Lit, Value

PLACEHOLDER = re.compile(r"^__[A-Za-z][A-Za-z0-9_]*__$")


def build_placeholder(key: str, value: Value, site=None) -> Value:
    """`API_URL: '__api_url__'`: a token a bundler replaces at build time (rollup replace,
    webpack DefinePlugin, Vite define): the value is not in the source, so it reads as the
    configuration key that holds it — `{API_URL}` in a URL, typed `source: config`."""
    if isinstance(value, Lit) and isinstance(value.value, str) and PLACEHOLDER.match(value.value):
        return Config(key, "build placeholder", None, site)
    return value


ORDER = (".env", ".env.local", ".env.development", ".env.dev", ".env.production", ".env.prod")
LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")


def env_file_values(ctx: ComponentContext) -> dict[str, tuple[str, int, str]]:
    """NAME -> (file, line, value), from the most trusted env file that sets it."""
    files = [rel for rel in ctx.files if rel.rsplit("/", 1)[-1].startswith(".env")]

    def rank(rel: str) -> tuple[int, int, str]:
        name = rel.rsplit("/", 1)[-1]
        return (rel.count("/"), ORDER.index(name) if name in ORDER else len(ORDER), rel)

    found: dict[str, tuple[str, int, str]] = {}
    for rel in sorted(files, key=rank):
        for number, line in enumerate(ctx.files[rel].text.splitlines(), start=1):
            m = LINE.match(line)
            if m is None or line.lstrip().startswith("#"):
                continue
            value = m.group(2)
            if value[:1] in "\"'" and value[-1:] == value[:1] and len(value) >= 2:
                value = value[1:-1]
            else:
                value = value.split(" #", 1)[0].strip()
            found.setdefault(m.group(1), (rel, number, value))
    return found


def with_env_defaults(value: Value, known: dict[str, tuple[str, int, str]]) -> Value:
    """The value with each default-less env var given the value its env file sets."""
    if isinstance(value, Env) and value.default is None and value.name in known:
        return Env(value.name, Lit(known[value.name][2]), value.via)
    if isinstance(value, Concat):
        return Concat(tuple(with_env_defaults(p, known) for p in value.parts))
    if isinstance(value, Choice):
        return Choice(tuple(with_env_defaults(o, known) for o in value.options), value.condition)
    return value


def file_values(ev, config: Config) -> dict:
    """{file: (value, line)} of a configuration key in every file its model's `file` maker
    names (`environment.apiUrl` in environment.ts, environment.prod.ts …), plus "" for where
    the key is first written (the default file, the shallowest / shortest name)."""
    import fnmatch

    from extractors.engine.values import ObjLit

    library = ev.library
    export, _, key = config.key.partition(".")
    claims = [c for c in getattr(library, "by_file", ()) if c.model.id == config.source]
    out: dict = {}
    for rel in sorted(ev.program.js, key=lambda r: (r.count("/"), len(r), r)):
        if not any(fnmatch.fnmatch(rel, c.maker.target) for c in claims):
            continue
        obj = ev.program.exported(ev, rel, export)
        value = ev.object_member(obj, key, 1) if isinstance(obj, ObjLit) else None
        if isinstance(value, Lit) and value.value is not None:
            out[rel] = (str(value.value), obj.site.line)
            out.setdefault("", (rel, obj.site.line))
    return out
