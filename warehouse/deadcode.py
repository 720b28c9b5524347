"""Is a call site in dead code? A deliberately simple rule, judged from the graph alone.

A call site is dead when its file
- is imported by no other file (no IMPORTS edge into it), and
- has no symbol called from another file (no CALLS_FN edge into it from elsewhere), and
- is not an entry point: a file that declares a route or is the handler of one, a
  framework entry (`index`, `main`, `App`, `server`, Next.js `pages/` and `app/`, layouts,
  `*.config.*`, Django `urls`/`settings`/`wsgi`), a test, or a `.vue`/`.svelte` SFC
  (used from templates, which IMPORTS does not always see).

Only components whose code has IMPORTS edges at all are judged: without import facts
"imported by nobody" says nothing. A call the extractor marked `uncalled` (in a module-private
function whose name its file never uses again, extractors/js/uncalled.py) is dead too.
"""

from __future__ import annotations

import re
from typing import Any

_ENTRY = re.compile(
    r"(^|/)(index|main|app|server|_app|_document|layout|page|route|middleware|manage|wsgi"
    r"|asgi|urls|settings|conftest|setup|worker|instrumentation)\.[a-z]+$"
    r"|\.config\.[cm]?[jt]s$|(^|/)(pages|app|tests?|__tests__|e2e|cypress|scripts?|bin)/"
    r"|\.(test|spec|stories)\.[a-z]+$|(^|/)test_[^/]*\.py$|\.(vue|svelte|astro)$",
    re.I,
)


def dead_call_sites(nodes: list[dict[str, Any]], edges: list[dict[str, Any]]) -> set[str]:
    """Ids of http_call nodes whose file nothing reaches (see the module rule)."""
    by_id = {n["id"]: n for n in nodes}
    judged: set[str] = set()
    reached: set[tuple[str, str]] = set()  # (component, file) something else reaches
    for e in edges:
        src, dst = by_id.get(e["src"]), by_id.get(e["dst"])
        if e["type"] == "IMPORTS" and src is not None:
            judged.add(src.get("component") or "")
        if src is None or dst is None or src.get("file") == dst.get("file"):
            continue
        if e["type"] in ("IMPORTS", "CALLS_FN", "ROUTES_TO"):
            reached.add((dst.get("component") or "", dst.get("file") or ""))
    for n in nodes:
        if n["kind"] == "route":
            reached.add((n.get("component") or "", n.get("file") or ""))
    out = {n["id"] for n in nodes if n["kind"] == "http_call" and n["attrs"].get("uncalled")}
    for n in nodes:
        comp, file = n.get("component") or "", n.get("file") or ""
        if n["kind"] != "http_call" or comp not in judged or not file:
            continue
        if (comp, file) not in reached and not _ENTRY.search(file):
            out.add(n["id"])
    return out
