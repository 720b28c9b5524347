"""Quick loop for model work: the extraction engine alone on the RealWorld repositories
(`.realworld/repos`, made by bench/realworld.py), scored for routes and call sites by the
RealWorld scorer — seconds, no build. The full benchmark is bench/realworld.py.

    uv run python bench/realworld_engine.py [PROJECT ...] [-v]
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.realworld import bench_folder  # noqa: E402
from bench.realworld_score.graph import Rows, score_graph  # noqa: E402
from bench.realworld_score.truth import load_benchmark  # noqa: E402
from extractors.registry import extract_only  # noqa: E402

REPOS = ROOT / ".realworld" / "repos"


def main() -> int:
    only = [a for a in sys.argv[1:] if not a.startswith("-")]
    bench = load_benchmark(bench_folder(None))
    nodes = []
    t0 = time.perf_counter()
    for p in bench.projects:
        if only and p.id not in only:
            continue
        for comp, slug in (("web", p.web["slug"]), ("api", p.api["slug"])):
            facts = extract_only(p.id, comp, REPOS / slug, {"engine.routes", "engine.requests"})
            for n in facts.nodes:
                if n.kind in ("route", "http_call"):
                    nodes.append({"id": n.id, "project": p.id, "component": comp, "kind": n.kind,
                                  "name": n.name, "file": n.file, "line": n.line, "attrs": n.attrs})  # fmt: skip
    graph = score_graph(bench, Rows(nodes, []))
    t = graph["totals"]
    print(f"routes {t['routes']} calls {t['calls']} ({time.perf_counter() - t0:.1f}s)")
    for key, v in graph["frameworks"].items():
        if not key.startswith("bridges"):
            print(f"  {key:24} {v[0]}/{v[1]}")
    if "-v" in sys.argv:
        projects = set(only)
        for kind in ("routes", "calls"):
            for miss in graph["misses"].get(kind, []):
                if not projects or miss.split("/")[0] in projects:
                    print("  miss", miss)
    return 0


if __name__ == "__main__":
    sys.exit(main())
