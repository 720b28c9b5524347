"""Scale ×10 bench: the scale portfolio at 46, 138 and 460 components, in one run.

bench/portfolio.py's 46 components (real npm/PyPI packages fetched at bench time) are
widened by replicating every package into more projects (`<package>-r2`, `-r3`, …):
×3 gives 138 components, ×10 gives 460. For each size: a full `kb refresh --all`
(wall time, bytes the extractors parse, peak RSS of the largest process), then at the
largest size a no-op refresh (median of 3) and the MCP server over stdio — its first
call on the largest project partition, then p95 of warm calls (bench/mcp.py's pieces).

Goals: build time linear in bytes (the ×10 build within 15% of 10× the ×1 time, after
scaling by the measured byte ratio); peak ≤ 2 GB; no-op ≤ 1 s at 460; first MCP call on
the largest partition ≤ 2 s; warm p95 ≤ 50 ms. The three times are judged at reference
speed, as bench/build.py judges its own: divided by the load factor (the ×1 portfolio's
parse floor over the quiet machine's, sampled before and after them); raw is shown too.

    uv run python bench/scale.py [--factors 1,3,10] [--calls 20]
    uv run python bench/scale.py --factors 1 --mcp-only   # MCP goals only, existing build

Writes bench/results/scale.json (--mcp-only: scale-mcp.json, with warm p95 per tool and
the server's CPU for the first call); prints PASS/MISS per goal. The largest partition
is the same at every factor (packages are replicated into more projects), so the MCP
goals can be checked on the ×1 build in about a minute.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "mcp")]

from bench.portfolio import WORK, components_of, fetch, write_portfolio  # noqa: E402

RESULTS = ROOT / "bench" / "results" / "scale.json"
KB_EXE = str(Path(sys.executable).with_name("kb"))
PARSED = {"typescript", "tsx", "javascript", "python", "hcl"}
# Runs a command and prints the peak RSS (KiB) of the largest process it waited for, and
# the CPU seconds (user + system) of every process it and its children waited for.
PEAK = (
    "import resource, subprocess, sys\n"
    "rc = subprocess.run(sys.argv[1:]).returncode\n"
    "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(u.ru_maxrss, u.ru_utime + u.ru_stime, file=sys.stderr)\n"
    "sys.exit(rc)\n"
)


def replicate(packages: Path, factor: int, dest: Path) -> Path:
    """`packages` plus factor-1 copies of each package under new names (hard links)."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    for package in sorted(p for p in packages.iterdir() if p.is_dir()):
        for i in range(1, factor + 1):
            name = package.name if i == 1 else f"{package.name}-r{i}"
            shutil.copytree(package, dest / name, symlinks=True, copy_function=os.link)
    return dest


def parsed_bytes(kb_root: Path) -> tuple[int, int]:
    """(files, bytes) the extractors parse: the same walk as the build, no parsing."""
    from extractors.base import ComponentContext, collect_files
    from kb.loader import load_kb

    files = size = 0
    for comp in load_kb(kb_root).components():
        ctx = ComponentContext(comp.project, comp.id, comp.repo_path)
        collect_files(ctx)
        for source in ctx.files.values():
            if source.language in PARSED:
                files += 1
                size += len(source.data)
    return files, size


def kb(*args: str) -> tuple[float, int, str, float]:
    """(seconds, peak RSS MB of the largest process, stdout, CPU seconds) of one `kb` command."""
    env = {**os.environ}
    env.pop("DAGSTER_HOME", None)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", PEAK, KB_EXE, *args], capture_output=True, text=True, env=env
    )
    seconds = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"kb {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr[-3000:]}")
    peak_kib, cpu = proc.stderr.strip().splitlines()[-1].split()
    return seconds, round(int(peak_kib) / 1024), proc.stdout, float(cpu)


def build_size(packages: Path, factor: int) -> dict:
    work = WORK / f"scale-x{factor}"
    kb_root = write_portfolio(work / "portfolio", replicate(packages, factor, work / "packages"))
    data = work / "data"
    shutil.rmtree(data, ignore_errors=True)
    files, size = parsed_bytes(kb_root)
    seconds, peak, _, cpu = kb("refresh", "--all", "--kb", str(kb_root), "--data-dir", str(data))
    comps = sum(len(components_of(p)) for p in (work / "packages").iterdir())
    row = {
        "factor": factor,
        "components": comps,
        "files": files,
        "megabytes": round(size / 1e6, 1),
        "build_s": round(seconds, 1),
        "build_cpu_s": round(cpu, 1),
        "peak_rss_mb": peak,
        "loadavg_1m": round(os.getloadavg()[0], 1),
        "kb": str(kb_root),
        "data": str(data),
    }
    print(
        f"×{factor}: {comps} components, {files} files, {size / 1e6:.1f} MB → "
        f"{seconds:.1f}s wall, {cpu:.1f}s CPU, peak {peak} MB (load {row['loadavg_1m']})",
        flush=True,
    )
    return row


def mcp_latency(kb_root: Path, data: Path, calls: int) -> dict:
    """First call on the largest project partition (fresh server), then warm p95 there."""
    from bench.mcp import _calls, _pct, _samples
    from tests.support.mcp_stdio import StdioClient

    manifest = json.loads((data / "manifest.json").read_text())
    sizes = {p: v["tables"].get("nodes", 0) for p, v in manifest["partitions"].items()}
    samples = _samples(data)
    largest = max((p for p in samples if not p.startswith("_")), key=sizes.get)
    client = StdioClient(kb_root, data)
    per_tool: dict[str, list[float]] = {}
    try:
        client.call("kb_status")  # spawn + initialize, no partition loaded yet
        start, cpu = time.perf_counter(), _server_cpu(client)
        text, err = client.call("kb_neighbors", node=samples[largest]["symbol"][0], project=largest)
        first = time.perf_counter() - start
        first_cpu = _server_cpu(client) - cpu
        assert not err, text
        only = {k: v for k, v in samples.items() if k == largest or k.startswith("_")}
        for tool, args, _budget in _calls(random.Random(7), calls, only):
            t = time.perf_counter()
            client.call(tool, **args)
            per_tool.setdefault(tool, []).append((time.perf_counter() - t) * 1000)
    finally:
        client.close()
    timings = [t for ts in per_tool.values() for t in ts]
    return {
        "largest_partition": largest,
        "largest_partition_nodes": sizes[largest],
        "first_call_s": round(first, 2),
        "first_call_server_cpu_s": None if first_cpu is None else round(first_cpu, 2),
        "warm_calls": len(timings),
        "warm_p95_ms": round(_pct(timings, 0.95), 1),
        "warm_p95_ms_per_tool": {t: round(_pct(v, 0.95), 1) for t, v in sorted(per_tool.items())},
        "loadavg_1m": round(os.getloadavg()[0], 1),
    }


def _server_cpu(client) -> float | None:
    """CPU seconds our MCP server child has used so far (Linux /proc), None elsewhere."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            cmd = (stat.parent / "cmdline").read_bytes()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == os.getpid() and b"mcp_server" in cmd:
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return None


def machine_load(kb_root: Path | None) -> float:
    """This machine's slowness now: the parse floor's wall time on the ×1 portfolio over the
    quiet machine's (bench/build.py's unit), at least 1; 1 when there is no ×1 portfolio."""
    if kb_root is None or not kb_root.is_dir():
        return 1.0
    from bench.build import REFERENCE_FLOOR_S, parse_floor

    return max(1.0, parse_floor(kb_root)["wall"] / REFERENCE_FLOOR_S)


def _timed_goal(what: str, seconds: float, target: float, load: float, unit: str = "s") -> tuple:
    """(line, passed): a time judged at reference speed (raw / load), both shown."""
    scale = 1000 if unit == "ms" else 1
    raw, normal = seconds * scale, seconds * scale / load
    line = f"{what}: {raw:.2f}{unit} ({normal:.2f}{unit} at ref, load {load:.2f}); target ≤ {target:g} {unit}"
    return line, normal <= target


def goals(
    rows: list[dict], noop: float | None, mcp: dict | None, load: float = 1.0
) -> list[tuple[str, bool, str]]:
    """Build linearity on CPU seconds; the times (no-op, MCP) judged at reference speed."""
    out = []
    base, top = rows[0], rows[-1]
    if top["factor"] > base["factor"]:
        # Judged on CPU seconds: on a shared machine the wall time of a 10-minute build tracks
        # the neighbours' load more than our code. The wall ratio is printed beside it.
        byte_ratio = top["megabytes"] / base["megabytes"]
        wall_off = top["build_s"] / (base["build_s"] * byte_ratio) - 1
        key = "build_cpu_s" if "build_cpu_s" in base and "build_cpu_s" in top else "build_s"
        expected = base[key] * byte_ratio
        off = top[key] / expected - 1
        out.append(
            (
                f"linear: ×{top['factor']} build {top[key]}s {'CPU' if key != 'build_s' else 'wall'}"
                f" vs {expected:.1f}s (×1 × byte ratio {byte_ratio:.2f}), {off:+.0%} "
                f"(wall {wall_off:+.0%}); target within 15%",
                abs(off) <= 0.15,
                "linearity",
            )
        )
    peak = max(r["peak_rss_mb"] for r in rows)
    out.append((f"peak RSS {peak} MB; target ≤ 2048 MB", peak <= 2048, "peak"))
    if noop is not None:
        what = f"no-op refresh at {top['components']}"
        out.append((*_timed_goal(what, noop, 1, load), "noop"))
    if mcp:
        first = f"MCP first call on {mcp['largest_partition']}"
        out.append((*_timed_goal(first, mcp["first_call_s"], 2, load), "mcp_first"))
        p95 = mcp["warm_p95_ms"] / 1000
        out.append((*_timed_goal("MCP warm p95", p95, 50, load, "ms"), "mcp_p95"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--factors", default="1,3,10", help="replication factors (default 1,3,10)")
    ap.add_argument("--calls", type=int, default=20, help="warm MCP calls per tool")
    ap.add_argument(
        "--reuse",
        action="store_true",
        help="keep sizes already built and recorded in scale.json (no rebuild)",
    )
    ap.add_argument(
        "--mcp-only",
        action="store_true",
        help="only the MCP goals, on the last factor's existing build; writes scale-mcp.json",
    )
    args = ap.parse_args()
    os.environ.setdefault("KB_TODAY", "2026-11-29")
    if args.mcp_only:
        return mcp_only(int(args.factors.split(",")[-1]), args.calls)
    packages = fetch()
    rows, before = [], _previous() if args.reuse else {}
    for factor in map(int, args.factors.split(",")):
        rows.append(before.get(factor) or build_size(packages, factor))
        _write({"curve": _public(rows), "partial": True})  # a long run keeps what it measured
    top = rows[-1]
    unit_kb = WORK / "scale-x1" / "portfolio" / "kb"  # the machine's speed, before and after
    load_before = machine_load(unit_kb)
    noops = [kb("refresh", "--kb", top["kb"], "--data-dir", top["data"])[0] for _ in range(3)]
    noop = statistics.median(noops)
    mcp = mcp_latency(Path(top["kb"]), Path(top["data"]), args.calls)
    load = (load_before + machine_load(unit_kb)) / 2
    checks = goals(rows, noop, mcp, load)
    for line, ok, _ in checks:
        print(f"{'PASS' if ok else 'MISS'}  {line}")
    result = {
        "curve": _public(rows),
        "noop_refresh_s": round(noop, 2),
        "mcp": mcp,
        "goals": {key: {"pass": ok, "line": line} for line, ok, key in checks},
        "machine": {
            "cpus": os.cpu_count(),
            "loadavg_1m_at_end": round(os.getloadavg()[0], 1),
            "load_factor": round(load, 2),
        },
    }
    _write(result)
    print(f"wrote {RESULTS.relative_to(ROOT)}")
    return 0


def mcp_only(factor: int, calls: int) -> int:
    """The two MCP goals on an already built size (a few minutes, no rebuild)."""
    work = WORK / f"scale-x{factor}"
    if not (work / "data" / "manifest.json").exists():
        print(f"no build at {work}: run `bench/scale.py --factors {factor}` first")
        return 2
    unit_kb = WORK / "scale-x1" / "portfolio" / "kb"
    load_before = machine_load(unit_kb)
    mcp = mcp_latency(work / "portfolio" / "kb", work / "data", calls)
    load = (load_before + machine_load(unit_kb)) / 2
    rows = [{"factor": factor, "peak_rss_mb": 0}]
    checks = [c for c in goals(rows, None, mcp, load) if c[2] != "peak"]
    for line, ok, _ in checks:
        print(f"{'PASS' if ok else 'MISS'}  {line}")
    print(
        "warm p95 per tool (ms): "
        + ", ".join(f"{t} {v}" for t, v in mcp["warm_p95_ms_per_tool"].items())
    )
    out = RESULTS.with_name("scale-mcp.json")
    result = {
        "factor": factor,
        "load_factor": round(load, 2),
        "mcp": mcp,
        "goals": {k: {"pass": ok, "line": line} for line, ok, k in checks},
    }
    out.write_text(json.dumps(result, indent=2) + "\n")
    print(f"wrote {out.relative_to(ROOT)}")
    return 0


def _previous() -> dict[int, dict]:
    """Rows of the last scale.json whose warehouse is still in bench/work."""
    try:
        curve = json.loads(RESULTS.read_text())["curve"]
    except (OSError, ValueError, KeyError):
        return {}
    out = {}
    for row in curve:
        work = WORK / f"scale-x{row['factor']}"
        if (work / "data" / "manifest.json").exists():
            out[row["factor"]] = {
                **row,
                "kb": str(work / "portfolio" / "kb"),
                "data": str(work / "data"),
            }
    return out


def _public(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k not in ("kb", "data")} for r in rows]


def _write(result: dict) -> None:
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    sys.exit(main())
