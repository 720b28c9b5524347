"""Calls to a host nothing in the project names (a public demo host, an address only the
deploy knows), matched by route shape: when most of one component's calls to that host
fit one sibling API's routes by method and path — and no other sibling's — those calls get
CALLS edges at `confidence: low`, `resolution: route-shape`. A host whose calls fit no
sibling, or fit two, stays external (no edge, no row: a third-party API)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from extractors.facts import Edge, Unresolved
from vocab.pathparts import Seg
from warehouse.bases import Target
from warehouse.bridge_call import edge_attrs
from warehouse.segmatch import best_routes

MIN_CALLS = 2  # one call that fits says nothing about the host


class RouteShape:
    def __init__(self, bridge):
        self.bridge = bridge
        self.groups: dict[tuple[str, str], list[tuple[Any, str]]] = defaultdict(list)

    def add(self, call, why: str) -> None:
        """A call to an unknown host (or a base that is a run-time value), and why."""
        if call.segs is not None:
            self.groups[(call.component, call.unknown_base)].append((call, why))

    def _fit(self, comp: str, method: str, segs: list[Seg]):
        """The one route of `comp` the path fits (whole, else its tail), or None."""
        routes = self.bridge.routes.get(comp, [])
        for suffix in (False, True):
            found = best_routes(method, segs, routes, suffix=suffix)
            if len(found) == 1 and found[0].kind in ("exact", "param", "default"):
                return found[0]
            if found:
                return None
        return None

    def _fits(self, caller: str, calls: list) -> dict[str, list]:
        """Siblings whose routes fit most of the calls, with the calls that fit."""
        fits: dict[str, list] = {}
        for comp in sorted(self.bridge.routes):
            if comp == caller:
                continue
            got = [(c, m) for c, _ in calls if (m := self._fit(comp, c.method, c.segs or []))]
            if 2 * len(got) > len(calls):
                fits[comp] = got
        return fits

    def resolve(self, dead: set[str]) -> tuple[list[Edge], list[Unresolved]]:
        b = self.bridge
        edges: list[Edge] = []
        rows: list[Unresolved] = []
        for (caller, host), calls in sorted(self.groups.items()):
            fits = self._fits(caller, calls) if len(calls) >= MIN_CALLS else {}
            if len(fits) != 1:
                rows += [Unresolved(b.project, caller, c.file, c.line, "http_call", c.expr, why)
                         for c, why in calls if host.startswith("{")]  # fmt: skip
                continue
            comp, got = next(iter(fits.items()))
            what = (
                f"the base {host} is a run-time value"
                if host.startswith("{")
                else f"host {host} is in no KB url"
            )
            how = f"{what}; {len(got)} of its {len(calls)} calls from {caller} fit {comp}'s routes by method and path"
            for call, m in got:
                t = Target(comp, [], f"host {host}", "route-shape", how, b.bases.envs(comp),
                           [f"route shape: {len(got)}/{len(calls)} calls to {host} fit {comp}"],
                           "low")  # fmt: skip
                attrs = edge_attrs(call, t, m, call.segs or [], "low", call.id in dead)
                edges.append(Edge(call.id, m.route.id, "CALLS", b.project, caller, call.file,
                                  call.line, attrs))  # fmt: skip
            fitted = {c.id for c, _ in got}
            for call, _ in calls:
                if call.id not in fitted:
                    rows.append(Unresolved(b.project, caller, call.file, call.line, "http_call",
                                           call.expr, f"no route {call.method} of {comp} fits "
                                           f"this call ({how})"))  # fmt: skip
        return edges, rows
