"""Values a component's configuration files give its environment variables: `.env`,
`.env.local`, `.env.<mode>`, `.env.example` / `.env.sample` (in that order of trust), then
the `environment` of its compose files' services. An env var read with no default in the
code takes the first value found, as its default, so a route prefix read from `API_PREFIX`
reads `/api` — the hole stays typed (`source: env`). Config models whose values sit in
settings files (node-config) or registered factories (NestJS `registerAs`) are read here
too."""

from __future__ import annotations

import re

from extractors.base import ComponentContext
from extractors.engine.values import Choice, Concat, Config, Env, Lit, Site, Value
from extractors.infra.deploy_compose import environment_values

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
    for rel in sorted(ctx.files, key=lambda r: (r.count("/"), r)):  # then compose services
        for number, name, value in environment_values(ctx.files[rel]):
            if "${" not in value:  # an interpolation is the shell's, not a value
                found.setdefault(name, (rel, number, value))
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


def settings_file_value(ev, data: dict, key: str, model: str, default: Value | None) -> Value:
    """A key read from settings files a config model names (node-config's
    `config/default.json`, `config/<NODE_ENV>.yaml`; `data.files`, most trusted first): a
    `Config` whose default is the value written there, at that line — or, when a mapping
    file (`data.env_map`: `custom-environment-variables.json`) names an environment
    variable for the key, that `Env`, the file's value its default."""
    program = ev.program
    tables = _tables(program, tuple(data.get("files") or ()))
    written = next(((rel, found) for rel, t in tables if (found := _at(t, key)) is not None), None)
    if written is not None and isinstance(written[1], (str, int, float, bool)):
        rel, found = written
        line = _line_of(program.ctx, rel, key)
        site = Site(rel, line, line)
        default = Lit(str(found) if not isinstance(found, str) else found)
    else:
        site = None
    mapping = _tables(program, tuple(data.get("env_map") or ()))
    env_name = next((n for _, t in mapping if isinstance(n := _at(t, key), str)), None)
    if env_name is None and isinstance(n := next((_at(t, key) for _, t in mapping), None), dict):
        env_name = n.get("__name") if isinstance(n.get("__name"), str) else None
    if env_name is not None:
        return Env(env_name, default, model, site)
    return Config(key, model, default, site)


def keyed_member(ev, obj, name: str, reads: list) -> Value:
    """`config.server.port` of a config object whose members are its keys (node-config):
    a branch of the settings files stays the object (its `key` prop the path so far), a
    leaf is read as `get('server.port')` would be (`reads`: the model's `get` operations)."""
    from extractors.engine.values import Obj

    below = obj.prop("key")
    key = f"{below.value}.{name}" if isinstance(below, Lit) else name
    data = next((op.data for op in reads if op.data.get("files")), {})
    tables = _tables(ev.program, tuple(data.get("files") or ()))
    if any(isinstance(_at(t, key), dict) for _, t in tables):
        return Obj(obj.model, obj.role, obj.origin, (("key", Lit(key)),))
    return settings_file_value(ev, data, key, obj.model, None)


def _at(table, key: str):
    for part in key.split("."):
        if not isinstance(table, dict) or part not in table:
            return None
        table = table[part]
    return table


def _tables(program, patterns: tuple[str, ...]) -> list[tuple[str, dict]]:
    """(file, parsed mapping) of each settings file matching a pattern (in pattern order,
    the shallowest first): JSON or YAML; a file that does not parse is skipped."""
    import fnmatch
    import json

    import yaml

    ctx = program.ctx
    cache = program.__dict__.setdefault("_settings_tables", {})
    if patterns in cache:
        return cache[patterns]
    out: list[tuple[str, dict]] = []
    for pattern in patterns:
        for rel in sorted((r for r in ctx.files if fnmatch.fnmatch(r, pattern)
                           or fnmatch.fnmatch(r, "*/" + pattern)), key=lambda r: (r.count("/"), r)):  # fmt: skip
            text = ctx.files[rel].text
            try:
                parsed = json.loads(text) if rel.endswith(".json") else yaml.safe_load(text)
            except (ValueError, yaml.YAMLError):
                continue
            if isinstance(parsed, dict):
                out.append((rel, parsed))
    cache[patterns] = out
    return out


def _line_of(ctx: ComponentContext, rel: str, key: str) -> int:
    last = key.rsplit(".", 1)[-1]
    pattern = re.compile(rf"""^\s*["']?{re.escape(last)}["']?\s*:""")
    for number, line in enumerate(ctx.files[rel].text.splitlines(), start=1):
        if pattern.search(line):
            return number
    return 1


def namespaced_value(ev, maker: str, key: str) -> Value | None:
    """`get('app.prefix')` of a configuration registered under a namespace by a factory
    (NestJS `registerAs('app', () => ({ prefix: … }))`; `maker` is that function's name):
    the member the factory's returned object has at the rest of the key, else None."""
    from extractors.engine.values import Func, Unknown, choice

    namespace, _, rest = key.partition(".")
    if not rest:
        return None
    program, word = ev.program, maker.encode()
    for rel in sorted(program.js):
        a = program.adapter(rel)
        if a is None or word not in a.sf.data:
            continue
        for node in a.calls():
            view = a.call_view(node)
            if view is None or len(view.args) < 2 or a.terminal(view.callee) != maker:
                continue
            if ev.eval(rel, view.args[0], None) != Lit(namespace):
                continue
            factory = ev.eval(rel, view.args[1], None)
            outs = ev.apply(factory, [])[0] if isinstance(factory, Func) else []
            value = choice(outs) if outs else None
            for part in rest.split("."):
                value = ev.member(value, part, rel, None, 1) if value is not None else None
            return None if value is None or isinstance(value, Unknown) else value
    return None
