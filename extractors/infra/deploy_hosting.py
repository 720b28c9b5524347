"""Hosting configs: Firebase Hosting (`firebase.json`), Firebase App Hosting
(`apphosting*.yaml`), Vercel (`vercel.json`) and Netlify (`netlify.toml`) — rewrites,
regions and runtime settings as settings, env assignments as env declarations
(see `infra.deploy`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml

from extractors.infra.locate import (
    JsonPath,
    command_env,
    json_lines,
    line_of,
    load_json,
    named_items,
    toml_pairs,
    ymap,
    yscalar,
)
from extractors.source import SourceFile
from vocab import safe_yaml

if TYPE_CHECKING:
    from extractors.infra.emit import Emitter

_APPHOSTING = re.compile(r"^apphosting(\.[\w-]+)?\.ya?ml$")
_VERCEL_COMMANDS = ("buildCommand", "devCommand", "installCommand")


def read(emit: Emitter, sf: SourceFile, base: str) -> bool:
    if base == "firebase.json":
        _firebase(emit, sf)
    elif _APPHOSTING.match(base):
        _apphosting(emit, sf)
    elif base == "vercel.json":
        _vercel(emit, sf)
    elif base == "netlify.toml":
        _netlify(emit, sf)
    else:
        return False
    return True


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def rewrite_target(rule: dict[str, Any]) -> tuple[str, str | None, str | None, str | None]:
    """(what a Hosting rewrite sends to, the name it refers to, its kind, its region)."""
    run, function = rule.get("run"), rule.get("function")
    if isinstance(run, dict) and run.get("serviceId"):
        region = run.get("region")
        where = f" ({region})" if region else ""
        service = str(run["serviceId"])
        return f"Cloud Run service {service}{where}", service, "cloud_run_service", region
    if isinstance(function, dict):
        function, region = function.get("functionId"), function.get("region")
    else:
        region = rule.get("region")
    if isinstance(function, str):
        where = f" ({region})" if region else ""
        return f"Cloud Function {function}{where}", function, "function", region
    if isinstance(rule.get("destination"), str):
        return f"page {rule['destination']}", None, None, None
    if rule.get("dynamicLinks"):
        return "Dynamic Links", None, None, None
    return "", None, None, None


def _firebase(emit: Emitter, sf: SourceFile) -> None:
    data = load_json(sf)
    if data is None:
        emit.ctx.problem("warning", sf.rel, None, "bad-json",
                         "firebase.json unreadable, hosting and functions not read — fix the JSON")  # fmt: skip
    if not isinstance(data, dict):
        return
    lines = json_lines(sf)
    hosting = data.get("hosting")
    sites: list[tuple[JsonPath, Any]] = (
        [(("hosting", i), s) for i, s in enumerate(hosting)]
        if isinstance(hosting, list)
        else [(("hosting",), hosting)]
    )
    for path, site in sites:
        if not isinstance(site, dict):
            continue
        label = f" (site {site['site']})" if isinstance(site.get("site"), str) else ""
        if isinstance(site.get("public"), str):
            emit.setting(sf, lines.get((*path, "public")), "hosting.public", site["public"],
                         f"Firebase Hosting public folder{label}", "firebase.json", "json")  # fmt: skip
        for i, rule in enumerate(_list(site.get("rewrites"))):
            if not isinstance(rule, dict):
                continue
            key = "source" if "source" in rule else "regex"
            target, refers_to, refers_kind, region = rewrite_target(rule)
            if not target or not isinstance(rule.get(key), str):
                continue
            emit.setting(sf, lines.get((*path, "rewrites", i, key)), "hosting.rewrites",
                         f"{rule[key]} → {target}", f"Firebase Hosting rewrite{label}",
                         "firebase.json", "json", refers_to=refers_to,
                         refers_kind=refers_kind, region=region,
                         path=rule[key])  # fmt: skip
        backend = site.get("frameworksBackend")
        if isinstance(backend, dict):
            for option, value in backend.items():
                if isinstance(value, str | int | float | bool):
                    about = f"Firebase Hosting frameworks backend {option}"
                    emit.setting(sf, lines.get((*path, "frameworksBackend", option)),
                                 f"hosting.frameworksBackend.{option}", value, about + label,
                                 "firebase.json", "json")  # fmt: skip
    functions = data.get("functions")
    for i, entry in enumerate(functions if isinstance(functions, list) else [functions]):
        if not isinstance(entry, dict):
            continue
        path = ("functions", i) if isinstance(functions, list) else ("functions",)
        for option in ("source", "runtime", "region"):
            if isinstance(entry.get(option), str):
                emit.setting(sf, lines.get((*path, option)), f"functions.{option}", entry[option],
                             f"Cloud Functions {option}", "firebase.json", "json",
                             codebase=entry.get("codebase"))  # fmt: skip


def _apphosting(emit: Emitter, sf: SourceFile) -> None:
    try:
        _, root = safe_yaml.load_with_node(sf.text)
    except yaml.YAMLError:
        emit.ctx.problem("warning", sf.rel, None, "apphosting-file",
                         "App Hosting config unreadable, env not read — fix the YAML")  # fmt: skip
        return
    top = ymap(root)
    for name, key, entry in named_items(top.get("env", (None, None))[1], "variable"):
        value = yscalar(entry.get("value", (None, None))[1])
        emit.env(sf, line_of(key), name, value, "apphosting", "yaml")
        if "secret" in entry and (secret := yscalar(entry["secret"][1])):
            emit.setting(sf, line_of(entry["secret"][0]), f"env.{name}.secret", secret,
                         "Secret Manager secret (App Hosting)",
                         "apphosting.yaml", "yaml", refers_to=name, secret=secret)  # fmt: skip
    for option, (key, value) in ymap(top.get("runConfig", (None, None))[1]).items():
        if scalar := yscalar(value):
            emit.setting(sf, line_of(key), f"runConfig.{option}", scalar,
                         f"App Hosting Cloud Run {option}", "apphosting.yaml", "yaml")  # fmt: skip


def _vercel(emit: Emitter, sf: SourceFile) -> None:
    data = load_json(sf)
    if not isinstance(data, dict):
        emit.ctx.problem("warning", sf.rel, None, "bad-json",
                         "vercel.json is not valid JSON, its settings are not read")  # fmt: skip
        return
    lines = json_lines(sf)
    for key in _VERCEL_COMMANDS:
        if isinstance(data.get(key), str):
            for name, value in command_env(data[key]):
                emit.env(sf, lines.get((key,)), name, value, "vercel", "json")
    for path in (("env",), ("build", "env")):
        block = data.get(path[0]) if len(path) == 1 else (data.get("build") or {}).get("env")
        for name, value in block.items() if isinstance(block, dict) else []:
            emit.env(sf, lines.get((*path, name)), name, value, "vercel", "json")
    for i, rule in enumerate(_list(data.get("rewrites"))):
        if isinstance(rule, dict) and isinstance(rule.get("source"), str):
            destination = rule.get("destination")
            emit.setting(sf, lines.get(("rewrites", i, "source")), "rewrites",
                         f"{rule['source']} → {destination}", "Vercel rewrite", "vercel.json",
                         "json", path=rule["source"], refers_to=destination)  # fmt: skip
    regions = data.get("regions")
    if isinstance(regions, list) and regions:
        emit.setting(sf, lines.get(("regions",)), "regions", ", ".join(map(str, regions)),
                     "Vercel function regions", "vercel.json", "json")  # fmt: skip


def _netlify(emit: Emitter, sf: SourceFile) -> None:
    redirect: dict[str, Any] = {}

    def flush() -> None:
        if redirect.get("from") and redirect.get("to"):
            status = redirect.get("status")
            kind = "rewrite (proxy)" if status == 200 else f"redirect ({status or 301})"
            emit.setting(sf, redirect["line"], "redirects",
                         f"{redirect['from']} → {redirect['to']}", f"Netlify {kind}",
                         "netlify.toml", "toml", path=redirect["from"],
                         refers_to=redirect["to"])  # fmt: skip
        redirect.clear()

    for number, table, key, value in toml_pairs(sf.text):
        if key is None:
            flush()
        elif table == "redirects":
            redirect.update({key: value, **({"line": number} if key == "from" else {})})
        elif table.split(".")[-1] == "environment":
            emit.env(sf, number, key, value, "netlify", "toml")
        elif key == "command" and isinstance(value, str):
            for name, assigned in command_env(value):
                emit.env(sf, number, name, assigned, "netlify", "toml")
    flush()
