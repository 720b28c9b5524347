"""Firebase Hosting: `firebase.json` as a code_file node with the hosting rewrites that send
traffic to code. (Cloud Functions are a server model: models/server/firebase-functions.yaml.)

`firebase.json`: a code_file node (qualifier = its rel path) with attrs `rewrites` — the
hosting rewrites that send traffic to code, as written: `[{"source": "/api/**", "function":
"api", "region": ...}, {"source": ..., "run": {"serviceId": ..., "region": ...}}]` (static
`destination` rules are left out) — and `hosting_public` / `functions_source`. The bridge
step (warehouse/http_bridge.py) reads `rewrites` to send relative calls to the function.
"""

from __future__ import annotations

import json
import posixpath

from extractors.base import ComponentContext
from extractors.shared import CodeSymbols
from extractors.source import SourceFile

NAME = "firebase"
PROVIDES = (CodeSymbols,)
REQUIRES = ()


def extract(ctx: ComponentContext) -> None:
    for rel, sf in sorted(ctx.files.items()):
        if posixpath.basename(rel) == "firebase.json" and sf.virtual_of is None:
            _firebase_json(ctx, sf)


def _firebase_json(ctx: ComponentContext, sf: SourceFile) -> None:
    try:
        data = json.loads(sf.text)
    except (ValueError, RecursionError) as exc:
        ctx.problem("warning", sf.rel, None, "bad-json", f"firebase.json unreadable: {exc}")
        return
    hosting = data.get("hosting") if isinstance(data, dict) else None
    sites = hosting if isinstance(hosting, list) else [hosting] if isinstance(hosting, dict) else []
    rewrites, public = [], []
    for site in sites:
        if site.get("public"):
            public.append(site["public"])
        for rule in site.get("rewrites") or []:
            if isinstance(rule, dict) and ("function" in rule or "run" in rule):
                rewrites.append(
                    {
                        k: v
                        for k, v in rule.items()
                        if k in {"source", "regex", "function", "run", "region"}
                    }
                )
    functions = data.get("functions") if isinstance(data, dict) else None
    sources = [
        f.get("source")
        for f in (functions if isinstance(functions, list) else [functions])
        if isinstance(f, dict)
    ]
    attrs = {
        "rewrites": rewrites,
        "hosting_public": public,
        "functions_source": [s for s in sources if s],
    }
    existing = ctx.find_node(ctx.node_id("code_file", sf.rel))
    if existing is not None:
        existing.attrs.update(attrs)
    else:
        ctx.add_node(
            "code_file",
            sf.rel,
            sf.rel,
            sf.rel,
            1,
            sf.data.count(b"\n") + 1,
            language="json",
            **attrs,
        )
