"""Proxies and rewrites a component's own config declares (gateway models,
`extractors/models/gateway/*.yaml`): Vite `server.proxy`, webpack devServer `proxy`, Create
React App's package.json `proxy`, Next.js `rewrites()` + `basePath`, nginx `location` +
`proxy_pass`, and Firebase Hosting `rewrites` to a function or Cloud Run service (their own
code_file attr `rewrites`: `[{kind, role, source | regex, function | run, region, line}]`).
Each config file with proxy rules gets `proxies` on its code_file node:
`[{kind, role, source, match, target, strip, line}]` — `match` is `prefix` (a path prefix),
`pattern` (path-to-regexp) or `regex`; `target` an absolute URL or a same-origin path;
`strip` the prefix a rewrite removes. The bridge (warehouse/relative.py) sends relative
URLs through them.

The readers are the mechanism (a JS/TS config module through the engine's evaluator, a
JSON file, an nginx file); what to read where is each model's `gateway:` block."""

from __future__ import annotations

import fnmatch
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from extractors.base import ComponentContext
from extractors.engine.values import ArrLit, Choice, Concat, Env, Func, Lit, ObjLit, Value
from extractors.lang.expr import EObject
from extractors.models import HERE
from extractors.models.sources import config_file
from extractors.shared import EngineRun

NAME = "infra.gateways"
PROVIDES = ()
REQUIRES = (EngineRun,)

_STRIP_FN = re.compile(r"replace\(\s*/\^?((?:\\/|[\w-])+)/")
_NGINX = re.compile(r"location\s+(=\s*)?(/[^\s{]*)\s*\{([^{}]*)\}", re.S)
_PASS = re.compile(r"proxy_pass\s+([^;\s]+)\s*;")


@cache
def gateway_models() -> tuple[tuple[str, dict[str, Any]], ...]:
    out = []
    for path in sorted((HERE / "gateway").glob("*.yaml")):
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if isinstance(raw.get("gateway"), dict):
            out.append((str(raw["id"]), raw["gateway"]))
    return tuple(out)


def extract(ctx: ComponentContext) -> None:
    analysis = ctx.shared.engine.result
    ev = getattr(getattr(analysis, "emitter", None), "ev", None)
    found: dict[str, list[dict[str, Any]]] = {}
    for model_id, spec in gateway_models():
        read = spec.get("read")
        rules: list[tuple[str, dict[str, Any]]] = []
        if read == "module" and ev is not None:
            rules = _module(ev, spec)
        elif read == "json":
            rules = _json(ctx, spec)
        elif read == "nginx":
            rules = _nginx(ctx, spec)
        elif read == "json-rules":
            rules = _json_rules(ctx, spec)
        attr = str(spec.get("attr") or "proxies")
        for rel, rule in rules:
            found.setdefault((rel, attr), []).append({"kind": model_id.split("-")[0], **rule})
    for (rel, attr), rules in sorted(found.items()):
        node = ctx.find_node(ctx.node_id("code_file", rel))
        if node is None:
            ctx.add_node("code_file", rel, rel, rel, 1, **{attr: rules})
        else:
            node.attrs.setdefault(attr, []).extend(rules)


def _text(value: Value | None) -> str | None:
    if isinstance(value, Lit) and isinstance(value.value, str):
        return value.value
    if isinstance(value, Concat) and all(isinstance(p, Lit) for p in value.parts):
        return "".join(str(p.value or "") for p in value.parts)
    return None


def _env_target(value: Value | None) -> tuple[str, str] | None:
    """(`{NAME}` + any literal tail, NAME) of a target read from the environment
    (`env.VITE_API_URL` after Vite's `loadEnv`, `process.env.API`): the bridge resolves the
    variable's values like a call's env base."""
    if isinstance(value, Env):
        return "{" + value.name + "}", value.name
    if isinstance(value, Concat) and value.parts and isinstance(value.parts[0], Env):
        tail = _text(Concat(value.parts[1:])) if value.parts[1:] else ""
        if tail is not None:
            return "{" + value.parts[0].name + "}" + tail, value.parts[0].name
    return None


def _config_object(ev, config: Value | None) -> ObjLit | None:
    """The config object: written as one, or returned by the function the config exports
    (`defineConfig(({ mode }) => ({ … }))`: the tool calls it with the command and mode)."""
    if isinstance(config, Func):
        outs, _ = ev.apply(config, [])
        for out in outs:
            options = out.options if isinstance(out, Choice) else (out,)
            config = next((o for o in options if isinstance(o, ObjLit)), None)
            if config is not None:
                break
    return config if isinstance(config, ObjLit) else None


def _entries(ev, value: Value) -> list[tuple[str | None, Any, int]]:
    """(key, value node, line) of an object literal's members."""
    if not isinstance(value, ObjLit):
        return []
    a = ev.program.adapter(value.site.rel)
    node = a.node_at(value.site) if a is not None else None
    view = a.view(a.unwrap(node)) if node is not None else None
    if not isinstance(view, EObject):
        return []
    return [(e.key, e.value, e.value.start_point[0] + 1) for e in view.entries if e.kind == "prop"]


def _module(ev, spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    config = _config_object(ev, config_file(ev, str(spec["file"])))
    if config is None:
        return []
    rel = config.site.rel
    value: Value | None = config
    for key in spec.get("at") or []:
        value = ev.member(value, key, rel, None, 1) if value is not None else None
    if value is None:
        return []
    role = str(spec.get("role") or "proxy")
    if spec.get("rules") == "returned":
        base = (
            _text(ev.member(config, str(spec.get("base_path") or ""), rel, None, 1))
            if spec.get("base_path")
            else None
        )
        return [(rel, r) for r in _returned(ev, value, spec, role, base)]
    if isinstance(value, ArrLit):
        return [(rel, r) for r in _listed(ev, value, spec, role, rel)]
    out = []
    for key, node, line in _entries(ev, value):
        if key is None:
            continue
        item = ev.eval(rel, node, getattr(value, "act", None))
        target, strip = item, None
        if isinstance(item, ObjLit):
            target = ev.member(item, str(spec.get("target") or "target"), rel, None, 1)
            strip = _strip(ev, item, spec, rel, key)
        match = "regex" if key.startswith("^") else "prefix"
        if rule := _target_rule(role, key, match, target, strip, line):
            out.append((rel, rule))
    return out


def _target_rule(role, source, match, target: Value | None, strip, line) -> dict | None:
    text = _text(target)
    if text:
        return _rule(role, source, match, text, strip, line)
    env = _env_target(target)
    if env is None:
        return None
    rule = _rule(role, source, match, env[0], strip, line)
    rule["env_var"] = env[1]
    return rule


def _listed(ev, value: ArrLit, spec: dict[str, Any], role: str, rel: str) -> list[dict]:
    """webpack-dev-server v5's list form: `[{ context: ['/api', '/auth'], target }]`."""
    out = []
    for item in value.items:
        if not isinstance(item, ObjLit):
            continue
        line = item.site.line
        ctx = ev.member(item, str(spec.get("context") or "context"), rel, None, 1)
        sources = [ctx] if not isinstance(ctx, ArrLit) else list(ctx.items)
        target = ev.member(item, str(spec.get("target") or "target"), rel, None, 1)
        for source in (_text(s) for s in sources):
            if not source:
                continue
            strip = _strip(ev, item, spec, rel, source)
            if rule := _target_rule(role, source, "prefix", target, strip, line):
                out.append(rule)
    return out


def _strip(ev, item: ObjLit, spec: dict[str, Any], rel: str, key: str) -> str | None:
    """The prefix a `rewrite: (p) => p.replace(/^\\/api/, '')` or a `pathRewrite: {'^/api':
    ''}` removes."""
    for k, node, _ in _entries(ev, item):
        if k == spec.get("rewrite"):
            a = ev.program.adapter(rel)
            m = _STRIP_FN.search(a.text(node)) if a is not None else None
            if m and "''" in a.text(node) or m and '""' in a.text(node):
                return m.group(1).replace("\\/", "/")
        if k == spec.get("path_rewrite"):
            sub = ev.eval(rel, node, item.act)
            for pattern, repl, _ in _entries(ev, sub) if isinstance(sub, ObjLit) else []:
                if pattern and pattern.startswith("^") and _text(ev.eval(rel, repl, None)) == "":
                    return pattern[1:]
    return None


def _returned(ev, fn: Value, spec: dict[str, Any], role: str, base: str | None):
    """Rule objects (`{source, destination}`) written in the function the config names."""
    site = getattr(fn, "site", None)
    a = ev.program.adapter(site.rel) if site is not None else None
    node = a.node_at(site) if a is not None else None
    if node is None:
        return []
    out, todo = [], [node]
    while todo:
        cur = todo.pop()
        todo.extend(reversed(cur.named_children))
        if cur.type != "object":
            continue
        keys = {k: (v, line) for k, v, line in ((e.key, e.value, e.value.start_point[0] + 1)
                for e in getattr(a.view(cur), "entries", []) if e.kind == "prop")}  # fmt: skip
        src, dst = keys.get(str(spec.get("source"))), keys.get(str(spec.get("target")))
        if src is None or dst is None:
            continue
        source, target = (
            _text(ev.eval(site.rel, src[0], None)),
            _text(ev.eval(site.rel, dst[0], None)),
        )
        if not source or not target:
            continue
        no_base = "basePath" in keys and a.text(keys["basePath"][0]) == "false"
        if base and not no_base:
            source = base.rstrip("/") + source
        out.append(_rule(role, source, "pattern", target, None, src[1]))
    return out


def _rule(role, source, match, target, strip, line) -> dict[str, Any]:
    rule = {"role": role, "source": source, "match": match, "target": target, "line": line}
    if strip:
        rule["strip"] = strip
    return rule


def json_at(ctx: ComponentContext, name: str, at: list[str]) -> list[tuple[str, Any]]:
    """(rel, value) of every JSON file of that name that parses, read down the `at` keys
    (None where one is missing)."""
    out = []
    for rel in sorted(r for r in ctx.files if Path(r).name == name):
        try:
            data = json.loads(ctx.files[rel].text)
        except (ValueError, AttributeError):
            continue
        for key in at:
            data = data.get(key) if isinstance(data, dict) else None
        out.append((rel, data))
    return out


def _json(ctx: ComponentContext, spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for rel, data in json_at(ctx, str(spec["file"]), list(spec.get("at") or [])):
        if isinstance(data, str) and "://" in data:
            line = next((i + 1 for i, t in enumerate(ctx.files[rel].text.splitlines())
                         if f'"{spec["at"][-1]}"' in t), 1)  # fmt: skip
            out.append(
                (
                    rel,
                    _rule(
                        spec.get("role", "proxy"),
                        spec.get("source", "/"),
                        "prefix",
                        data,
                        None,
                        line,
                    ),
                )
            )
    return out


def _json_rules(ctx: ComponentContext, spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Rule objects of a JSON config (Firebase Hosting `rewrites`), below `at` (an object or
    a list of them), that have one of the `when` keys: their `keep` keys as written, with
    the line of the rule's first kept key."""
    out = []
    keep, when = list(spec.get("keep") or []), list(spec.get("when") or [])
    for rel in sorted(r for r in ctx.files if Path(r).name == spec["file"]):
        sf = ctx.files[rel]
        if sf.virtual_of is not None:
            continue
        try:
            data = json.loads(sf.text)
        except (ValueError, RecursionError):
            continue  # infra.deploy reports an unreadable file
        for key in spec.get("at") or []:
            data = data.get(key) if isinstance(data, dict) else None
        lines = sf.text.splitlines()
        seen: dict[str, int] = {}
        for site in data if isinstance(data, list) else [data]:
            for rule in (site.get(str(spec["rules"])) or []) if isinstance(site, dict) else []:
                if not isinstance(rule, dict) or not any(k in rule for k in when):
                    continue
                kept = {k: rule[k] for k in keep if k in rule}
                first = next(iter(kept.items()), None)
                needle = json.dumps(first[1]) if first and isinstance(first[1], str) else None
                line = _line_after(lines, needle, seen) if needle else 1
                out.append((rel, {**kept, "role": spec.get("role", "rewrite"), "line": line}))
    return out


def _line_after(lines: list[str], needle: str, seen: dict[str, int]) -> int:
    """The line of the next occurrence of `needle` (a JSON string) after the last one taken."""
    start = seen.get(needle, 0)
    for i in range(start, len(lines)):
        if needle in lines[i]:
            seen[needle] = i + 1
            return i + 1
    return 1


def _nginx(ctx: ComponentContext, spec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for rel in sorted(r for r in ctx.files if fnmatch.fnmatch(Path(r).name, str(spec["file"]))):
        text = getattr(ctx.files[rel], "text", "") or ""
        if "proxy_pass" not in text:
            continue
        for m in _NGINX.finditer(text):
            p = _PASS.search(m.group(3))
            if p is None or "://" not in p.group(1) or "$" in p.group(1):
                continue
            target, location = p.group(1), m.group(2)
            line = text.count("\n", 0, m.start()) + 1
            host_path = target.split("://", 1)[1].partition("/")
            strip = location if host_path[1] else None  # a URI in proxy_pass replaces the prefix
            match = "exact" if m.group(1) else "prefix"
            if match == "exact":
                continue
            out.append(
                (rel, _rule(spec.get("role", "proxy"), location, match, target, strip, line))
            )
    return out
