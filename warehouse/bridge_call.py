"""One http_call as the bridge reads it (its typed attrs, extractors/parts.py), and the
attrs of the CALLS edge it gets: shared by the bridge's resolvers (warehouse.http_bridge,
warehouse.route_shape, warehouse.operations)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vocab.pathparts import Seg, from_attrs, shown
from warehouse.bases import Target
from warehouse.urls import netloc


@dataclass
class Call:
    """One http_call node, read from its typed attrs."""

    id: str
    component: str
    file: str
    line: int
    method: str
    segs: list[Seg] | None
    env_var: str | None = None
    base: str | None = None
    page_relative: bool = False
    default: str | None = None  # the env base's default in the code
    function: str | None = None  # a Firebase callable's name
    operation: str | None = None
    condition: str | None = None
    hops: list[str] = field(default_factory=list)
    expr: str = ""
    resolved_via: str = ""
    base_hole: str | None = None  # the URL starts with a run-time value (segs follow it)
    generator: str = ""  # a generated client's tool, when the call is one of its operations
    generator_evidence: str = ""  # `config:line` and what the client is generated from
    generated_from: str = ""  # the generator's input: an OpenAPI document's path or URL
    uncalled: str = ""  # the module-private function nothing calls that holds the call

    @property
    def unknown_base(self) -> str | None:
        """What to group the call by when its host is unknown: the host, or `{hole}`."""
        if self.base_hole:
            return "{" + self.base_hole + "}"
        loc = netloc(self.base or "")
        return loc[0] if loc else None

    @classmethod
    def of(cls, n: dict[str, Any]) -> Call:
        a = n["attrs"]
        env = a.get("env_var") if isinstance(a.get("env_var"), str) else None
        default = next((h.get("default") for h in a.get("holes") or []
                        if isinstance(h, dict) and h.get("name") == env and h.get("default")), None)  # fmt: skip
        fn = None
        if a.get("resolved_via") == "callable":
            fn = str(a.get("function") or str(a.get("path") or "").strip("/")) or None
        call = cls(
            n["id"], n.get("component") or "", n.get("file") or "", n.get("line") or 1,
            str(a.get("method") or "GET").upper(), from_attrs(a.get("segments")), env,
            a.get("base") if isinstance(a.get("base"), str) else None,
            bool(a.get("page_relative")), default if isinstance(default, str) else None, fn,
            a.get("operation") if isinstance(a.get("operation"), str) else None,
            a.get("condition") if isinstance(a.get("condition"), str) else None,
            [str(h) for h in a.get("hops") or []], str(a.get("url_template") or n["name"]),
            str(a.get("resolved_via") or ""),
            a.get("base_hole") if isinstance(a.get("base_hole"), str) else None,
        )  # fmt: skip
        if call.operation and isinstance(a.get("generator_config"), str):
            call.generator = str(a.get("generator") or "")
            call.generated_from = str(a.get("generated_from") or "")
            source = call.generated_from or "an input the config does not name"
            call.generator_evidence = (f"{a['generator_config']} {call.generator} generates "
                                       f"{a.get('import_spec') or 'the client'} from {source}")  # fmt: skip
        if isinstance(a.get("uncalled"), str):
            call.uncalled = a["uncalled"]
        if call.base_hole and call.segs:
            call.segs = call.segs[1:]
        return call


def edge_attrs(call: Call, t: Target, m, full: list[Seg], conf: str, dead: bool) -> dict:
    route = m.route
    evidence = [f"{call.file}:{call.line} call {call.method} {shown(full)}", *call.hops,
                *t.evidence, f"{route.component}: {route.file}:{route.line} route {route.text}"]  # fmt: skip
    out: dict[str, Any] = {
        "via": t.via,
        "envs": sorted(t.envs),
        "confidence": conf,
        "resolution": t.resolution,
        "evidence": list(dict.fromkeys(evidence)),
        # the statement the bridge rests on (a KB entry, an env file, a proxy), not a hop
        "link": next((e for e in t.evidence if ":" in e.split(" ", 1)[0]), ""),
        "how": t.how,
        "match": "suffix" if m.suffix else m.kind,
        "target_component": t.component,
        "path": shown(full),
    }
    if t.modes:
        out["modes"] = sorted(t.modes)
    if call.condition:
        out["condition"] = call.condition
    if dead:
        out["dead_code"] = True
        out["confidence"] = "low"
        out["how"] += (
            f" — but it is in {call.uncalled}, a function of {call.file} nothing calls (dead code?)"
            if call.uncalled
            else f" — but {call.file} is imported by no file and is no entry point (dead code?)"
        )
    return out
