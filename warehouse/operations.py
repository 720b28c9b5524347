"""The project's operation index: operationId → the route that serves it, so that a call of
a generated client's operation (`import { usersList } from '@/api/client'`, a client
generated from the backend's schema and not committed) resolves by unique name.

Operation ids come from, in order of trust: an explicit id on the route (`operation_id`
attr: an argument of the route call, a describing decorator, or the app's naming function
evaluated for the route — extractors/engine/operation_ids.py), an OpenAPI document in any
repository of the project (`operations` attr of its code_file: id, method, path), and the
backend framework's naming convention when the code names none
(warehouse/data/operation_ids.yaml, written from each tool's docs). A generator turns an
id into the function the frontend imports (camelCase for hey-api, orval,
openapi-generator, openapi-typescript-codegen); a name that two operations share is
ambiguous and draws no edge."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from vocab.pathparts import Seg, shown, text_segments
from vocab.safe_yaml import load as safe_load
from warehouse.bases import Target
from warehouse.segmatch import best_routes
from warehouse.urls import netloc

DATA = Path(__file__).parent / "data" / "operation_ids.yaml"


@cache
def naming() -> dict[str, Any]:
    return safe_load(DATA.read_text(encoding="utf-8")) or {}


def camel(op_id: str) -> str:
    """`users_list` / `list-users` / `UsersController_findAll` → `usersList`, … — how the
    generators name an operation's function."""
    words = [w for w in re.split(r"[^A-Za-z0-9]+", op_id) if w]
    if not words:
        return op_id
    head, rest = words[0], words[1:]
    return head[:1].lower() + head[1:] + "".join(w[:1].upper() + w[1:] for w in rest)


def function_names(name: str, generator: str = "") -> set[str]:
    """The operation names a generated function's name can stand for: itself, and what is
    left once a generator's wrapper pattern (`{op}Options`, `use{Op}`) is taken off."""
    out = {name}
    gens = naming().get("generators") or {}
    for gid, rule in gens.items():
        if generator and gid != generator or not isinstance(rule, dict):
            continue
        for pattern in rule.get("functions") or []:
            head, _, tail = str(pattern).partition("{op}")
            if head == pattern:  # `use{Op}`: the operation capitalised after the prefix
                head, _, tail = str(pattern).partition("{Op}")
            if name.startswith(head) and name.endswith(tail) and len(name) > len(head + tail):
                core = name[len(head) : len(name) - len(tail)]
                out.add(core[:1].lower() + core[1:])
    return out


@dataclass(frozen=True)
class Operation:
    id: str
    component: str | None  # None: an OpenAPI document that says no more than method + path
    method: str
    segs: tuple[Seg, ...]
    evidence: str
    source: str  # explicit | openapi | convention


def convention_id(framework: str, method: str, segs: list[Seg], handler: str, owner: str,
                  is_list: bool = False) -> str | None:  # fmt: skip
    rule = (naming().get("conventions") or {}).get(framework)
    if not isinstance(rule, dict) or not handler:
        return None
    path = "/" + "/".join(s.text if s.kind == "lit" else "{" + s.text + "}" for s in segs)
    strip = set(rule.get("strip_prefix") or [])
    lits = [s.text for s in segs if s.kind == "lit"]
    while lits and lits[0] in strip:
        lits = lits[1:]
    actions = rule.get("actions") or {}
    action = actions.get(f"{method}_LIST" if is_list else method) or method.lower()
    text = str(rule.get("id") or "").format(
        handler=handler, controller=owner, method=method.lower(), path=path,
        tokens="_".join(lits), action=action,
    )  # fmt: skip
    if rule.get("sub"):
        text = re.sub(str(rule["sub"]), "_", text)
    return text or None


class OperationIndex:
    def __init__(self, bridge, nodes: list[dict[str, Any]], edges: list[dict[str, Any]]):
        self.bridge = bridge
        by_id = {n["id"]: n for n in nodes}
        handler: dict[str, str] = {}
        for e in edges:
            if e.get("type") == "ROUTES_TO" and e["dst"] in by_id:
                handler.setdefault(e["src"], by_id[e["dst"]]["name"])
        self.ops: list[Operation] = []
        for n in nodes:
            a = n["attrs"]
            if n["kind"] == "route":
                self._route(n, a, handler.get(n["id"], ""))
            elif n["kind"] == "code_file" and isinstance(a.get("operations"), list):
                for op in a["operations"]:
                    if isinstance(op, dict) and op.get("id") and op.get("path"):
                        where = f"{n.get('file')}:{op.get('line') or 1} operationId {op['id']}"
                        self.ops.append(Operation(str(op["id"]), None, str(op.get("method") or "GET").upper(),
                                                  tuple(text_segments(str(op["path"]))), where, "openapi"))  # fmt: skip

    def _route(self, n: dict[str, Any], a: dict[str, Any], handler: str) -> None:
        comp = n.get("component") or ""
        refs = [r for r in self.bridge.routes.get(comp, []) if r.id == n["id"]]
        if not refs:
            return
        r = refs[0]
        where = f"{comp}: {r.file}:{r.line}"
        if isinstance(a.get("operation_id"), str):
            named = f" (named at {a['operation_id_at']})" if a.get("operation_id_at") else ""
            self.ops.append(Operation(a["operation_id"], comp, r.method, r.segs,
                                      f"{where} operationId {a['operation_id']}{named}", "explicit"))  # fmt: skip
            return
        owner, _, fn = handler.rpartition(".")
        listing = r.method == "GET" and bool(r.segs) and r.segs[-1].kind == "lit"
        op_id = convention_id(str(a.get("framework") or ""), r.method, list(r.segs), fn, owner,
                              listing)  # fmt: skip
        unread = (f" (the naming function at {a['operation_id_function']} is not read)"
                  if a.get("operation_id_function") else "")  # fmt: skip
        if op_id:
            self.ops.append(Operation(op_id, comp, r.method, r.segs,
                                      f"{where} {a.get('framework')} operation id {op_id}{unread}", "convention"))  # fmt: skip

    def find(self, name: str, generator: str = "") -> list[Operation]:
        names = function_names(name, generator)
        hits = [o for o in self.ops if names & {o.id, camel(o.id)}]
        explicit = [o for o in hits if o.source != "convention"]
        return explicit or hits

    def tiers(self, call) -> tuple[list[list[Target]], str]:
        name = call.operation or ""
        hits = self.find(name, call.generator)
        if not hits:
            return (
                [],
                f"generated operation {name}: no operationId in the project's routes or OpenAPI documents names it",
            )
        keys = {(o.component, o.method, shown(list(o.segs))) for o in hits}
        if len(keys) > 1 and (mine := self._generated_from(call, hits)):
            hits, keys = mine, {(o.component, o.method, shown(list(o.segs))) for o in mine}
        if len(keys) > 1:
            return [], f"generated operation {name}: {len(keys)} operations share the name"
        op = hits[0]
        comps = [op.component] if op.component else self._serving(op)
        if len(comps) != 1:
            return [], (f"generated operation {name} ({op.method} {shown(list(op.segs))}): "
                        f"{'no' if not comps else 'more than one'} API of the project serves it")  # fmt: skip
        conf = "high" if op.source != "convention" else "medium"
        how = f"generated operation {name} is operationId {op.id} ({op.source})"
        evidence = [e for e in (call.generator_evidence, op.evidence) if e]
        t = Target(comps[0], [], f"operation {name}", "operation", how,
                   self.bridge.bases.envs(comps[0]), evidence, conf, path=list(op.segs))  # fmt: skip
        call.method = op.method
        return [[t]], ""

    def _generated_from(self, call, hits: list[Operation]) -> list[Operation]:
        """The operations of the API the client is generated from, when the generator's
        input is a URL of a component (`http://localhost:8000/openapi.json`)."""
        loc = netloc(call.generated_from) if "://" in call.generated_from else None
        if loc is None:
            return []
        targets, _ = self.bridge.bases.by_url(call.component, loc[0], loc[1], "", [])
        comps = {t.component for t in targets}
        return [o for o in hits if o.component in comps]

    def _serving(self, op: Operation) -> list[str]:
        """Components with exactly one route of the operation's method and path."""
        return sorted(c for c, routes in self.bridge.routes.items()
                      if len(best_routes(op.method, list(op.segs), routes, suffix=False)) == 1)  # fmt: skip
