"""Generated OpenAPI clients that are not committed, and OpenAPI documents.

- An OpenAPI / Swagger document (JSON or YAML, any repo of the project) gets `operations`
  on its code_file node: `[{id, method, path, line}]` (the path with the document's server
  or `basePath` prefix). The bridge's operation index (warehouse/operations.py) reads them.
- A generator config (models/codegen.yaml: `openapi-ts.config.*`, `orval.config.*`,
  `openapitools.json`, a package.json script running a generator's CLI) names where the
  client is written and what from. A call of a function imported from that output — when
  the output is not in the repo, so nothing else can follow it — is an http_call with
  `operation` (the imported name, or the method called on an imported service object),
  `generator`, `generator_config` (`file:line`) and `generated_from` (the input). A
  committed client is read as written by the engine instead. The calls are found by
  codegen_calls.py (in JS/TS modules and the `<script>` blocks of Vue / Svelte components).
"""

from __future__ import annotations

import json
import posixpath
import re
import shlex
from functools import cache
from typing import Any

from extractors.base import ComponentContext
from extractors.engine.values import ObjLit, Value
from extractors.infra.codegen_calls import generated_calls
from extractors.infra.codegen_output import Generator, module_path
from extractors.infra.gateways import _entries, _text, json_at
from extractors.models import HERE
from extractors.models.sources import config_file
from extractors.shared import CodeSymbols, EngineRun, JsSymbols
from vocab.safe_yaml import load as safe_load

NAME = "infra.codegen"
PROVIDES = ()
REQUIRES = (EngineRun, JsSymbols, CodeSymbols)

METHODS = ("get", "post", "put", "patch", "delete", "head", "options", "trace")


@cache
def generator_models() -> dict[str, dict[str, Any]]:
    raw = safe_load((HERE / "codegen.yaml").read_text(encoding="utf-8")) or {}
    return dict(raw.get("generators") or {})


def extract(ctx: ComponentContext) -> None:
    documents(ctx)
    gens = generators(ctx)
    if gens:
        generated_calls(ctx, gens)


# -- OpenAPI documents ---------------------------------------------------------------------


def documents(ctx: ComponentContext) -> None:
    for rel, sf in sorted(ctx.files.items()):
        if not rel.endswith((".json", ".yaml", ".yml")) or "/node_modules/" in f"/{rel}":
            continue
        text = getattr(sf, "text", "") or ""
        if "paths" not in text or not re.search(
            r"""^\s*["']?(openapi|swagger)["']?\s*:""", text, re.M
        ):
            continue
        try:
            doc = json.loads(text) if rel.endswith(".json") else safe_load(text)
        except Exception:  # noqa: BLE001 - a malformed document is simply no document
            continue
        if not isinstance(doc, dict) or not isinstance(doc.get("paths"), dict):
            continue
        if not (doc.get("openapi") or doc.get("swagger")):
            continue
        ops = _operations(doc, text)
        if not ops:
            continue
        node = ctx.find_node(ctx.node_id("code_file", rel))
        if node is None:
            ctx.add_node("code_file", rel, rel, rel, 1, operations=ops)
        else:
            node.attrs["operations"] = ops


def _operations(doc: dict[str, Any], text: str) -> list[dict[str, Any]]:
    prefix = _server_path(doc)
    out = []
    for path, item in doc["paths"].items():
        if not isinstance(path, str) or not isinstance(item, dict):
            continue
        for method, op in item.items():
            if method not in METHODS or not isinstance(op, dict) or not op.get("operationId"):
                continue
            op_id = str(op["operationId"])
            at = re.search(r"""operationId["']?\s*:\s*["']?""" + re.escape(op_id), text)
            line = text.count("\n", 0, at.start()) + 1 if at else 1
            full = (prefix.rstrip("/") + "/" + path.lstrip("/")) if prefix else path
            out.append({"id": op_id, "method": method.upper(), "path": full, "line": line})
    return out


def _server_path(doc: dict[str, Any]) -> str:
    """The path every operation is under: Swagger 2 `basePath`, or the path of the first
    OpenAPI 3 server URL (`https://api.example/v1` → `/v1`, `/api` → `/api`)."""
    if isinstance(doc.get("basePath"), str):
        return doc["basePath"]
    servers = doc.get("servers")
    url = (
        servers[0].get("url")
        if isinstance(servers, list) and servers and isinstance(servers[0], dict)
        else None
    )
    if not isinstance(url, str) or "{" in url:
        return ""
    if "://" in url:
        url = "/" + url.split("://", 1)[1].partition("/")[2]
    return url if url.startswith("/") and url != "/" else ""


# -- generator configs ---------------------------------------------------------------------


def generators(ctx: ComponentContext) -> list[Generator]:
    analysis = ctx.shared.engine.result
    ev = getattr(getattr(analysis, "emitter", None), "ev", None)
    out: list[Generator] = []
    for tool, spec in sorted(generator_models().items()):
        if isinstance(spec.get("config"), dict) and ev is not None:
            out += _module(ev, tool, spec["config"])
        if isinstance(spec.get("json"), dict):
            out += _json(ctx, tool, spec["json"])
        if isinstance(spec.get("cli"), dict):
            out += _scripts(ctx, tool, spec["cli"])
    return out


def _pick(ev, value: Value, keys: list[str], rel: str) -> str | None:
    for key in keys:
        cur: Value | None = value
        for part in key.split("."):
            cur = ev.member(cur, part, rel, None, 1) if isinstance(cur, ObjLit) else None
        text = _text(cur) if cur is not None else None
        if text:
            return text
    return None


def _module(ev, tool: str, spec: dict[str, Any]) -> list[Generator]:
    config = config_file(ev, str(spec["file"]))
    if not isinstance(config, ObjLit):
        return []
    rel = config.site.rel
    items: list[tuple[Value, int]] = [(config, config.site.line)]
    if spec.get("projects"):
        items = []
        for key, node, line in _entries(ev, config):
            item = ev.eval(rel, node, config.act) if key is not None else None
            if isinstance(item, ObjLit):
                items.append((item, line))
    out = []
    for item, line in items:
        output = _pick(ev, item, list(spec.get("output") or []), rel)
        if output and "://" not in output:
            source = _pick(ev, item, list(spec.get("input") or []), rel) or ""
            out.append(Generator(tool, f"{rel}:{line}", source, module_path(output, rel)))
    return out


def _json(ctx: ComponentContext, tool: str, spec: dict[str, Any]) -> list[Generator]:
    out = []
    for rel, data in json_at(ctx, str(spec["file"]), list(spec.get("at") or [])):
        lines = ctx.files[rel].text.splitlines()
        for name, item in (data or {}).items() if isinstance(data, dict) else []:
            if not isinstance(item, dict):
                continue
            output = next(
                (item[k] for k in spec.get("output") or [] if isinstance(item.get(k), str)), None
            )
            source = next(
                (item[k] for k in spec.get("input") or [] if isinstance(item.get(k), str)), ""
            )
            if output:
                line = next((i + 1 for i, t in enumerate(lines) if f'"{name}"' in t), 1)
                out.append(Generator(tool, f"{rel}:{line}", source, module_path(output, rel)))
    return out


def _scripts(ctx: ComponentContext, tool: str, spec: dict[str, Any]) -> list[Generator]:
    out = []
    for rel in sorted(r for r in ctx.files if posixpath.basename(r) == "package.json"):
        try:
            scripts = json.loads(ctx.files[rel].text).get("scripts") or {}
        except (ValueError, AttributeError):
            continue
        lines = ctx.files[rel].text.splitlines()
        for name, command in scripts.items() if isinstance(scripts, dict) else []:
            for part in re.split(r"&&|\|\||;", str(command)):
                try:
                    words = shlex.split(part)
                except ValueError:
                    continue
                words = [
                    w for w in words if w not in ("npx", "pnpm", "yarn", "bunx", "exec", "dlx")
                ]
                if not words or posixpath.basename(words[0]) != spec["command"]:
                    continue
                flags = _flags(words[1:])
                output = next((flags[f] for f in spec.get("output") or [] if f in flags), None)
                source = next((flags[f] for f in spec.get("input") or [] if f in flags), "")
                if output:
                    line = next((i + 1 for i, t in enumerate(lines) if f'"{name}"' in t), 1)
                    out.append(Generator(tool, f"{rel}:{line}", source, module_path(output, rel)))
    return out


def _flags(words: list[str]) -> dict[str, str]:
    out = {}
    for i, w in enumerate(words):
        if w.startswith("-") and "=" in w:
            k, _, v = w.partition("=")
            out[k] = v
        elif w.startswith("-") and i + 1 < len(words) and not words[i + 1].startswith("-"):
            out[w] = words[i + 1]
    return out
