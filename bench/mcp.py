"""Latency and budget benchmark of the kb-graph MCP server, over real stdio.

Warehouse: the scale portfolio of bench/portfolio.py (real npm/PyPI packages, ~50
components, built by `kb refresh --all`), or with `--generated` (or when the packages
can't be fetched) bench/mcp_portfolio.py's 13 projects × 4 components, ~50k nodes. Measures, through the SDK's `stdio_client` launching
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

from bench.mcp_portfolio import generate  # noqa: E402
from kb.tokens import estimate_tokens  # noqa: E402
from tests.support.mcp_stdio import StdioClient  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "mcp.json"


def _scale_portfolio(tmp: Path) -> dict[str, Any] | None:
    """bench/portfolio.py's scale portfolio (real npm/PyPI packages), built by `kb refresh`."""
    try:
        from bench.portfolio import fetch, write_portfolio
    except ImportError:
        return None
    try:
        packages = fetch()
    except Exception as exc:  # noqa: BLE001 — offline or npm missing: generated portfolio
        print(f"scale portfolio unavailable ({exc.__class__.__name__}): generating one")
        return None
    kb = write_portfolio(tmp / "portfolio", packages)
    data = tmp / "data"
    kb_exe = str(Path(sys.executable).with_name("kb"))
    subprocess.run(
        [kb_exe, "refresh", "--all", "--kb", str(kb), "--data-dir", str(data)], check=True
    )
    return {
        "kb": kb,
        "data": data,
        "source": "bench/portfolio.py scale portfolio, built by kb refresh",
    }


def _samples(data: Path) -> dict[str, dict[str, list[str]]]:
    """Per project: node ids to ask about (symbols with calls, routes, env vars, files)."""
    import duckdb

    from warehouse.reader import Warehouse

    wh = Warehouse(data)
    out: dict[str, dict[str, list[str]]] = {}
    con = duckdb.connect()
    for p in wh.partitions():
        nodes, edges = wh.table_path(p, "nodes"), wh.table_path(p, "edges")
        if p == "_global" or nodes is None or edges is None:
            continue
        q = f"read_parquet('{nodes.as_posix()}')"
        e = f"read_parquet('{edges.as_posix()}')"
        pick: dict[str, list[str]] = {}
        pick["start"] = [
            r[0]
            for r in con.execute(
                f"select distinct src from {e} where type in ('CALLS_FN','CALLS_HTTP','ROUTES_TO') order by hash(src) limit 30"
            ).fetchall()
        ]
        for kind in ("route", "env_var", "code_file", "symbol"):
            pick[kind] = [
                r[0]
                for r in con.execute(
                    f"select id from {q} where kind = '{kind}' order by hash(id) limit 30"
                ).fetchall()
            ]
        pick["component"] = [
            r[0]
            for r in con.execute(
                f"select distinct component from {q} where component is not null order by 1"
            ).fetchall()
        ]
        if pick["start"] and pick["symbol"]:
            out[p] = pick
    pkgs = wh.table_path("_global", "catalog_packages")
    names = []
    if pkgs is not None:
        names = [
            r[0]
            for r in con.execute(
                f"select name from read_parquet('{pkgs.as_posix()}') group by 1 order by count(*) desc, 1 limit 20"
            ).fetchall()
        ]
    out["_packages"] = {"names": names or ["express"]}
    return out


def _calls(
    rnd: random.Random, n: int, samples: dict[str, dict[str, list[str]]]
) -> list[tuple[str, dict[str, Any], int]]:
    """(tool, args, budget the answer must fit) — varied arguments per tool."""
    projects = sorted(p for p in samples if not p.startswith("_"))
    packages = samples["_packages"]["names"]
    out = []
    for _ in range(n):
        p = rnd.choice(projects)
        pick = samples[p]
        any_node = rnd.choice(pick["route"] + pick["symbol"] + pick["env_var"] or pick["symbol"])
        target = rnd.choice(
            (pick["env_var"] or pick["symbol"])
            + [
                f"{f.split(':')[0].split('/')[1]}/{f.split(':', 2)[2]}"
                for f in pick["code_file"][:5]
            ]
        )
        out += [
            ("kb_trace", {"start": rnd.choice(pick["start"]), "project": p}, 2000),
            ("kb_impact", {"target": target, "project": p}, 2000),
            ("kb_neighbors", {"node": any_node, "project": p}, 2000),
            ("kb_find", {"kind": "package", "query": rnd.choice([*packages[:5], "*"])}, 2000),
            ("kb_compare", {"kind": "package", "name": rnd.choice(packages[:5])}, 2000),
            ("kb_entity", {"name": rnd.choice(pick["symbol"]), "project": p}, 2000),
            (
                "kb_sql",
                {
                    "sql": f"select kind, count(*) from nodes where line > {rnd.randrange(50)} group by 1",
                    "project": p,
                },
                2000,
            ),
            ("kb_status", {"project": p}, 2000),
            (
                "kb_context",
                {"task": "routing middleware request handler", "project": p, "max_tokens": 2000},
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
    ap.add_argument(
        "--generated", action="store_true", help="use the generated portfolio, not the scale one"
    )
    args = ap.parse_args()
    tmp = args.keep or Path(tempfile.mkdtemp(prefix="kb-bench-mcp-"))
    t0 = time.perf_counter()
    reuse = args.keep is not None and (tmp / "data" / "manifest.json").exists()
    if reuse:  # a warehouse this script built before with --keep
        kb = tmp / "portfolio" / "kb" if (tmp / "portfolio" / "kb").is_dir() else tmp / "kb"
        label = tmp / "bench-source.txt"
        what = label.read_text(encoding="utf-8").strip() if label.exists() else "a warehouse"
        info = {"kb": kb, "data": tmp / "data", "source": f"{what} (reused from {tmp})"}
    else:
        info = (None if args.generated else _scale_portfolio(tmp)) or generate(tmp)
        (tmp / "bench-source.txt").write_text(str(info["source"]) + "\n", encoding="utf-8")
    manifest = json.loads((Path(info["data"]) / "manifest.json").read_text(encoding="utf-8"))
    info["nodes"] = sum(p["tables"].get("nodes", 0) for p in manifest["partitions"].values())
    info["edges"] = sum(p["tables"].get("edges", 0) for p in manifest["partitions"].values())
    info["components"] = len(manifest.get("components") or {})
    build_s = time.perf_counter() - t0
    print(
        f"warehouse: {info['source']}, {info['nodes']} nodes, {info['components']} components, built in {build_s:.1f}s"
    )

    # the same machine's speed right now: the bare import of the MCP SDK, and the load
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import mcp.server.mcpserver"], check=True)
    sdk_import_s = time.perf_counter() - t
    load = os.getloadavg()
    samples = _samples(info["data"])
    projects = sorted(p for p in samples if not p.startswith("_"))
    first = projects[0]
    cold = []
    for _ in range(3):
        t = time.perf_counter()
        client = StdioClient(info["kb"], info["data"])
        text, err = client.call("kb_trace", start=samples[first]["start"][0], project=first)
        cold.append(time.perf_counter() - t)
        assert not err, text
        client.close()

    client = StdioClient(info["kb"], info["data"])
    first_loads = []
    for p in projects:  # warm-up: the first call per project loads its graph / SQL views
        t = time.perf_counter()
        client.call("kb_neighbors", node=samples[p]["symbol"][0], project=p)
        first_loads.append(time.perf_counter() - t)
        client.call("kb_sql", sql="select 1", project=p)
        client.call("kb_status", project=p)
    client.call("kb_context", task="warm up", max_tokens=500)
    client.call("kb_find", kind="package", query="*")
    calls = _calls(random.Random(11), args.calls, samples)
    per_tool: dict[str, list[float]] = {}
    within = errors = 0
    error_samples: list[str] = []
    for tool, targs, budget in calls:
        t = time.perf_counter()
        text, err = client.call(tool, **targs)
        per_tool.setdefault(tool, []).append((time.perf_counter() - t) * 1000)
        if err:
            errors += 1
            error_samples.append(f"{tool}: {text[:160]}")
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
        "error_samples": error_samples[:5],
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
