"""Latency and budget benchmark of the kb-graph MCP server, over real stdio.

Warehouse: the scale portfolio of bench/build.py when it offers one (`--scale`),
otherwise a generated portfolio of 13 projects × 4 components (~52 components,
~50k nodes) published with `warehouse.publish`, with the spec's web → api chain in
every project. Measures, through the SDK's `stdio_client` launching
`python -m mcp_server`:
  - cold start: spawn → initialize → first kb_trace answer (median of 3 spawns);
  - per tool p50/p95 over a few hundred warm calls in one session (graphs loaded);
  - first call per project (graph load) separately;
  - share of responses within their token budget.

    uv run python bench/mcp.py [--calls 40] [--keep DIR]
Targets: warm p95 ≤ 50 ms per tool, cold start ≤ 2 s, 100% within budget.
Writes bench/results/mcp.json.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# this file is named mcp.py: keep bench/ off the path so `import mcp` finds the SDK
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "mcp"))

from mcp_stdio import StdioClient  # noqa: E402

from kb.tokens import estimate_tokens  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "mcp.json"
PROJECTS, COMPONENTS = 13, ("web", "api", "infra", "cms")
FILES, SYMBOLS, ROUTES = 160, 720, 60


def _generate(tmp: Path) -> dict[str, Any]:
    """Publish the synthetic scale portfolio; returns kb/data paths and sample names."""
    from warehouse.publish import publish
    from warehouse.tables import frame

    rnd = random.Random(7)
    kb, repos, data = tmp / "kb", tmp / "repos", tmp / "data"
    kb.mkdir(parents=True)
    (kb / "kb.yaml").write_text("name: bench\ntoken_budget: 2000\n", encoding="utf-8")
    partitions: dict[str, dict[str, Any]] = {}
    gnodes: list[dict] = []
    gedges: list[dict] = []
    packages: list[dict] = []
    chunks: list[dict] = []
    components: dict[str, dict[str, str]] = {}
    for pi in range(PROJECTS):
        p = f"proj-{pi:02d}"
        nodes: list[dict] = []
        edges: list[dict] = []
        unresolved: list[dict] = []
        gnodes.append(
            {
                "id": f"{p}:project:{p}",
                "kind": "project",
                "name": p,
                "project": p,
                "file": f"projects/{p}/project.md",
                "line": 1,
            }
        )
        for c in COMPONENTS:
            folder = repos / p / c
            folder.mkdir(parents=True)
            (folder / "README.md").write_text(f"# {p} {c}\n", encoding="utf-8")
            components[f"{p}/{c}"] = {"version": "", "repo": str(folder)}
            cid = f"{p}:component:{c}"
            gnodes.append(
                {
                    "id": cid,
                    "kind": "component",
                    "name": c,
                    "project": p,
                    "file": f"projects/{p}/{c}.md",
                    "line": 2,
                    "attrs": {"stack": ["express" if c == "api" else "nextjs"]},
                }
            )
            gedges.append(
                {"src": f"{p}:project:{p}", "dst": cid, "type": "HAS_COMPONENT", "project": p}
            )
            for env in ("dev", "prod"):
                eid = f"{p}:env_instance:{c}/{env}"
                gnodes.append(
                    {
                        "id": eid,
                        "kind": "env_instance",
                        "name": f"{c} {env}",
                        "project": p,
                        "file": f"projects/{p}/{c}.md",
                        "line": 9,
                        "attrs": {
                            "env": env,
                            "component": c,
                            "runtime": rnd.choice(["cloud-run", "gke", "vercel"]),
                            "url": f"https://{c}.{env}.{p}.example",
                        },
                    }
                )
                gedges.append({"src": cid, "dst": eid, "type": "HAS_ENV", "project": p})
            for pkg in ("express", "next", "zod", "axios")[: 2 + pi % 3]:
                packages.append(
                    {
                        "project": p,
                        "component": c,
                        "ecosystem": "npm",
                        "package": pkg,
                        "name": pkg,
                        "version": f"4.{pi}.{rnd.randint(0, 9)}",
                        "declared": "^4.0.0",
                        "file": "package.json",
                        "line": 10 + len(pkg),
                    }
                )
            pre = f"{p}/{c}"
            for f in range(FILES):
                path = f"src/mod{f // 20}/file{f}.ts"
                nodes.append(
                    {
                        "id": f"{pre}:code_file:{path}",
                        "kind": "code_file",
                        "name": path,
                        "project": p,
                        "component": c,
                        "file": path,
                        "line": 1,
                    }
                )
                edges.append(
                    {"src": cid, "dst": f"{pre}:code_file:{path}", "type": "HAS_CODE", "project": p}
                )
            for s in range(SYMBOLS):
                path = f"src/mod{(s % FILES) // 20}/file{s % FILES}.ts"
                sid = f"{pre}:symbol:fn{s}"
                nodes.append(
                    {
                        "id": sid,
                        "kind": "symbol",
                        "name": f"{c}Fn{s}",
                        "project": p,
                        "component": c,
                        "file": path,
                        "line": 3 + s // FILES * 10,
                        "end_line": 9 + s // FILES * 10,
                    }
                )
                edges.append(
                    {
                        "src": f"{pre}:code_file:{path}",
                        "dst": sid,
                        "type": "DEFINES",
                        "project": p,
                        "component": c,
                    }
                )
                for t in rnd.sample(range(SYMBOLS), 2):
                    if t > s:
                        edges.append(
                            {
                                "src": sid,
                                "dst": f"{pre}:symbol:fn{t}",
                                "type": "CALLS_FN",
                                "project": p,
                                "component": c,
                                "file": path,
                                "line": 5,
                            }
                        )
            for e in range(30):
                nodes.append(
                    {
                        "id": f"{pre}:env_var:VAR_{e}",
                        "kind": "env_var",
                        "name": f"{c.upper()}_VAR_{e}",
                        "project": p,
                        "component": c,
                        "file": "src/config.ts",
                        "line": e + 1,
                    }
                )
                edges.append(
                    {
                        "src": f"{pre}:symbol:fn{e * 7}",
                        "dst": f"{pre}:env_var:VAR_{e}",
                        "type": "READS_ENV",
                        "project": p,
                        "component": c,
                    }
                )
            if c == "api":
                for r in range(ROUTES):
                    rid = f"{pre}:route:POST /api/r{r}"
                    nodes.append(
                        {
                            "id": rid,
                            "kind": "route",
                            "name": f"POST /api/r{r}",
                            "project": p,
                            "component": c,
                            "file": "src/routes.ts",
                            "line": r + 10,
                        }
                    )
                    edges.append(
                        {
                            "src": rid,
                            "dst": f"{pre}:symbol:fn{r * 3}",
                            "type": "ROUTES_TO",
                            "project": p,
                            "component": c,
                        }
                    )
                    for o in (1, 2):
                        edges.append(
                            {
                                "src": rid,
                                "dst": f"{pre}:middleware:mw{o}",
                                "type": "USES_MIDDLEWARE",
                                "project": p,
                                "component": c,
                                "attrs": {"order": o},
                            }
                        )
                for o in (1, 2):
                    nodes.append(
                        {
                            "id": f"{pre}:middleware:mw{o}",
                            "kind": "middleware",
                            "name": f"middleware{o}",
                            "project": p,
                            "component": c,
                            "file": "src/mw.ts",
                            "line": o,
                        }
                    )
            if c == "web":
                for h in range(40):
                    hid = f"{pre}:http_call:call{h}"
                    nodes.append(
                        {
                            "id": hid,
                            "kind": "http_call",
                            "name": f"POST {{API_URL}}/api/r{h}",
                            "project": p,
                            "component": c,
                            "file": "src/api.ts",
                            "line": h + 5,
                        }
                    )
                    edges.append(
                        {
                            "src": f"{pre}:symbol:fn{h * 5}",
                            "dst": hid,
                            "type": "CALLS_HTTP",
                            "project": p,
                            "component": c,
                        }
                    )
                    edges.append(
                        {
                            "src": hid,
                            "dst": f"{p}/api:route:POST /api/r{h}",
                            "type": "CALLS",
                            "project": p,
                            "attrs": {"via": "API_URL", "envs": ["dev", "prod"]},
                        }
                    )
            for u in range(10):
                unresolved.append(
                    {
                        "project": p,
                        "component": c,
                        "file": f"src/mod0/file{u}.ts",
                        "line": 7,
                        "kind": "http_call",
                        "expr": f"fetch(url{u})",
                        "reason": "dynamic URL",
                    }
                )
            for d in range(4):
                chunks.append(
                    {
                        "project": p,
                        "component": c,
                        "bucket": "repo",
                        "path": f"{c}/docs/guide{d}.md",
                        "heading_path": f"Guide {d} > Setup",
                        "start_line": 1,
                        "end_line": 20,
                        "tokens": 120,
                        "content_hash": f"{p}{c}{d}",
                        "text": f"# Guide {d}\nHow {c} of {p} handles contact forms, payments and deploys. "
                        * 6,
                        "title": f"{c} guide {d}",
                        "doc_type": "guide",
                        "verification_status": "verified",
                        "seq": d,
                        "mirrors": None,
                    }
                )
        partitions[p] = {
            "nodes": frame("nodes", nodes),
            "edges": frame("edges", edges),
            "unresolved": frame("unresolved", unresolved),
        }
    for pkg in ("express", "next", "zod", "axios"):
        gnodes.append({"id": f"_global:package:{pkg}", "kind": "package", "name": pkg})
    partitions["_global"] = {
        "nodes": frame("nodes", gnodes),
        "edges": frame("edges", gedges),
        "catalog_packages": frame("catalog_packages", packages),
        "doc_chunks": frame("doc_chunks", chunks),
    }
    from kb.versions import component_version

    for info in components.values():
        info["version"] = component_version(Path(info["repo"]))
    publish(data, partitions, {"components": components})
    total = sum(t["nodes"].height for t in partitions.values())
    return {
        "kb": kb,
        "data": data,
        "nodes": total,
        "components": len(components),
        "source": "generated (bench/mcp.py)",
    }


def _scale_portfolio(tmp: Path) -> dict[str, Any] | None:
    """bench/build.py's scale portfolio when that module offers a builder."""
    path = ROOT / "bench" / "build.py"
    if not path.exists():
        return None
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_build", path)
    if spec is None or spec.loader is None:
        return None
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 — fall back to the generated portfolio
        print(f"bench/build.py not usable ({exc.__class__.__name__}): generating a portfolio")
        return None
    builder = getattr(module, "build_scale_warehouse", None)
    if builder is None:
        return None
    kb, data = builder(tmp)
    return {
        "kb": Path(kb),
        "data": Path(data),
        "nodes": None,
        "components": None,
        "source": "bench/build.py",
    }


def _calls(rnd: random.Random, n: int) -> list[tuple[str, dict[str, Any], int]]:
    """(tool, args, budget the answer must fit) — varied arguments per tool."""
    out = []
    for _ in range(n):
        p = f"proj-{rnd.randrange(PROJECTS):02d}"
        s = rnd.randrange(SYMBOLS)
        r = rnd.randrange(ROUTES)
        out += [
            ("kb_trace", {"start": f"webFn{(r % 40) * 5}", "project": p, "component": "web"}, 2000),
            ("kb_impact", {"target": f"API_VAR_{rnd.randrange(30)}", "project": p}, 2000),
            ("kb_neighbors", {"node": f"POST /api/r{r}", "project": p}, 2000),
            ("kb_find", {"kind": "package", "query": rnd.choice(["express", "zod", "*"])}, 2000),
            ("kb_compare", {"kind": "package", "name": rnd.choice(["express", "next"])}, 2000),
            ("kb_entity", {"name": f"apiFn{s}", "project": p}, 2000),
            (
                "kb_sql",
                {
                    "sql": f"select kind, count(*) from nodes where component = 'api' and line > {s % 50} group by 1",
                    "project": p,
                },
                2000,
            ),
            ("kb_status", {"project": p}, 2000),
            (
                "kb_context",
                {"task": "contact forms payments deploys", "project": p, "max_tokens": 2000},
                2000,
            ),
        ]
    return out


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=40, help="calls per tool (default 40)")
    ap.add_argument("--keep", type=Path, default=None, help="build the warehouse here and keep it")
    args = ap.parse_args()
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="kb-bench-mcp-"))
    t0 = time.perf_counter()
    info = _scale_portfolio(tmp) or _generate(tmp)
    build_s = time.perf_counter() - t0
    print(
        f"warehouse: {info['source']}, {info['nodes']} nodes, {info['components']} components, built in {build_s:.1f}s"
    )

    # the same machine's speed right now: the bare import of the MCP SDK, and the load
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import mcp.server.mcpserver"], check=True)
    sdk_import_s = time.perf_counter() - t
    load = os.getloadavg()
    cold = []
    for _ in range(3):
        t = time.perf_counter()
        client = StdioClient(info["kb"], info["data"])
        text, err = client.call("kb_trace", start="webFn5", project="proj-00", component="web")
        cold.append(time.perf_counter() - t)
        assert not err, text
        client.close()

    client = StdioClient(info["kb"], info["data"])
    first_loads = []
    for pi in range(PROJECTS):  # warm-up: first call per project loads its graph / SQL views
        t = time.perf_counter()
        client.call("kb_neighbors", node="POST /api/r1", project=f"proj-{pi:02d}")
        first_loads.append(time.perf_counter() - t)
        client.call("kb_sql", sql="select 1", project=f"proj-{pi:02d}")
        client.call("kb_status", project=f"proj-{pi:02d}")
    client.call("kb_context", task="warm up", max_tokens=500)
    client.call("kb_find", kind="package", query="*")
    calls = _calls(random.Random(11), args.calls)
    per_tool: dict[str, list[float]] = {}
    within = errors = 0
    for tool, targs, budget in calls:
        t = time.perf_counter()
        text, err = client.call(tool, **targs)
        per_tool.setdefault(tool, []).append((time.perf_counter() - t) * 1000)
        errors += err
        within += estimate_tokens(text) <= budget
    client.close()

    tools = {
        t: {
            "calls": len(v),
            "p50_ms": round(_pct(v, 0.5), 1),
            "p95_ms": round(_pct(v, 0.95), 1),
            "max_ms": round(max(v), 1),
        }
        for t, v in sorted(per_tool.items())
    }
    result = {
        "warehouse": {k: v for k, v in info.items() if k not in ("kb", "data")}
        | {"build_s": round(build_s, 1)},
        "machine": {
            "cpus": os.cpu_count(),
            "loadavg_1m_at_start": round(load[0], 2),
            "bare_mcp_sdk_import_s": round(sdk_import_s, 2),
        },
        "cold_start_s": {
            "median": round(statistics.median(cold), 2),
            "max": round(max(cold), 2),
            "runs": [round(c, 2) for c in cold],
        },
        "first_call_per_project_ms": {
            "p50": round(_pct(first_loads, 0.5) * 1000, 1),
            "max": round(max(first_loads) * 1000, 1),
        },
        "tools": tools,
        "calls": len(calls),
        "errors": errors,
        "within_budget_pct": round(100.0 * within / len(calls), 2),
        "targets": {"warm_p95_ms": 50, "cold_start_s": 2.0, "within_budget_pct": 100},
    }
    print(
        f"cold start (spawn → first kb_trace answer): median {result['cold_start_s']['median']} s, max {result['cold_start_s']['max']} s"
    )
    print(
        f"first call per project (graph load): p50 {result['first_call_per_project_ms']['p50']} ms, max {result['first_call_per_project_ms']['max']} ms"
    )
    print(f"{'tool':14} {'calls':>5} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for t, v in tools.items():
        print(f"{t:14} {v['calls']:>5} {v['p50_ms']:>8} {v['p95_ms']:>8} {v['max_ms']:>8}")
    print(f"{len(calls)} calls, {errors} errors, {result['within_budget_pct']}% within budget")
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
