"""Build benchmark on the scale portfolio (bench/portfolio.py), all numbers in one run.

Reports: the tree-sitter parse floor (read + parse every file the build extracts, once,
one core), Dagster's fixed cost (a full build of a one-file KB), the full build, a
no-op `kb refresh`, a refresh after one component changes, nodes/edges and peak memory.
Targets: full build <= 2x parse floor + fixed cost; peak <= 1 GB; no-op <= 1 s; one
changed component <= 3 s. Writes bench/results/build.json.

    uv run python bench/build.py
"""

from __future__ import annotations

import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.portfolio import WORK, fetch, write_portfolio  # noqa: E402
from extractors.base import ComponentContext, collect_files  # noqa: E402
from kb.loader import load_kb  # noqa: E402

RESULTS = Path(__file__).resolve().parent / "results"
KB_EXE = str(Path(sys.executable).with_name("kb"))


def parse_floor(kb_root: Path) -> dict:
    """Read + parse once every file the extractors would see (same walk, same grammars)."""
    kb = load_kb(kb_root)
    files = size = 0
    start = time.process_time()
    for comp in kb.components():
        ctx = ComponentContext(comp.project, comp.id, comp.repo_path)
        collect_files(ctx)
        for source in ctx.files.values():
            if source.language in {"typescript", "tsx", "javascript", "python", "hcl"}:
                source.tree  # noqa: B018 - parse
                files += 1
                size += len(source.data)
    return {"seconds": time.process_time() - start, "files": files, "bytes": size}


def timed(*args: str, env: dict | None = None) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    proc = subprocess.run(
        [KB_EXE, *args], capture_output=True, text=True, env={**os.environ, **(env or {})}
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"kb {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}")
    return elapsed, proc


def fixed_cost(work: Path) -> float:
    tiny = work / "tiny"
    if not tiny.exists():
        (tiny / "repos" / "one").mkdir(parents=True)
        (tiny / "repos" / "one" / "index.js").write_text("export const one = () => 1;\n")
        kb = tiny / "kb"
        (kb / "projects" / "tiny" / "one").mkdir(parents=True)
        (kb / "kb.yaml").write_text("name: tiny\nrepos_root: ../repos\n")
        (kb / "projects" / "tiny" / "project.md").write_text(
            "---\nkind: project\nid: tiny\ntitle: Tiny\n---\n"
        )
        (kb / "projects" / "tiny" / "one" / "component.md").write_text(
            "---\nkind: component\nproject: tiny\nid: one\ntitle: One\nrole: library\nrepo: one\n---\n"
        )
    seconds, _ = timed(
        "refresh", "--all", "--kb", str(tiny / "kb"), "--data-dir", str(work / "tiny-data")
    )
    return seconds


def main() -> None:
    packages = fetch()
    portfolio = WORK / "portfolio"
    kb_root = write_portfolio(portfolio, packages)
    data = WORK / "data"
    subprocess.run(["rm", "-rf", str(data)], check=True)
    floor = parse_floor(kb_root)
    print(
        f"parse floor: {floor['files']} files, {floor['bytes'] / 1e6:.1f} MB in {floor['seconds']:.2f}s"
    )
    fixed = fixed_cost(WORK)
    print(f"Dagster fixed cost (one-file KB, full build): {fixed:.2f}s")
    full, _ = timed("refresh", "--all", "--kb", str(kb_root), "--data-dir", str(data))
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"full build: {full:.2f}s, peak RSS {peak_mb:.0f} MB")
    noops = [timed("refresh", "--kb", str(kb_root), "--data-dir", str(data))[0] for _ in range(3)]
    noop = statistics.median(noops)
    print(f"no-op refresh: {noop:.2f}s (median of 3)")
    comp = next(c for c in load_kb(kb_root).components() if c.id.startswith("express"))
    target = next(p for p in sorted(comp.repo_path.rglob("*.js")))
    target.write_text(target.read_text() + "\nexport function benchTouched() { return 1; }\n")
    subprocess.run(
        [
            "git",
            "-C",
            str(portfolio),
            "-c",
            "user.name=b",
            "-c",
            "user.email=b@example.invalid",
            "commit",
            "-qam",
            "touch one component",
        ],
        check=True,
    )
    one, proc = timed("refresh", "--kb", str(kb_root), "--data-dir", str(data))
    print(f"refresh after one component changed ({comp.key}): {one:.2f}s")
    _, counts = timed(
        "sql",
        "--kb",
        str(kb_root),
        "--data-dir",
        str(data),
        "--json",
        "select (select count(*) from nodes) as nodes, (select count(*) from edges) as edges",
    )
    graph = json.loads(counts.stdout)[0]
    result = {
        "machine": {"python": platform.python_version(), "cpus": os.cpu_count()},
        "components": len(load_kb(kb_root).components()),
        "parse_floor_s": round(floor["seconds"], 3),
        "files": floor["files"],
        "megabytes": round(floor["bytes"] / 1e6, 2),
        "dagster_fixed_s": round(fixed, 3),
        "full_build_s": round(full, 3),
        "full_over_floor_plus_fixed": round(full / (floor["seconds"] + fixed), 2),
        "target_full_ratio": 2.0,
        "noop_refresh_s": round(noop, 3),
        "target_noop_s": 1.0,
        "one_component_refresh_s": round(one, 3),
        "target_one_component_s": 3.0,
        "peak_rss_mb": round(peak_mb),
        "target_peak_mb": 1024,
        "nodes": graph["nodes"],
        "edges": graph["edges"],
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "build.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
