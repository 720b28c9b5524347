"""Values a component's configuration files give its environment variables: `.env`,
`.env.local`, `.env.<mode>`, `.env.example` / `.env.sample` (in that order of trust). An
env var read with no default in the code takes the first value found, as its default, so
a route prefix read from `API_PREFIX` reads `/api` — the hole stays typed (`source: env`)."""

from __future__ import annotations

import re

from extractors.base import ComponentContext
from extractors.engine.values import Choice, Concat, Env, Lit, Value

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
