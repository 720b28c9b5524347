"""Metamorphic rewrites of the development portfolio and the bundled example (issue 25 §2).

    uv run python bench/metamorphic.py [--families 1,2,…] [--portfolio dev|example|all]
                                       [--jobs 2] [--work DIR] [--out FILE]

Each family rewrites a copy of every component in a way that does not change what the
program does; the copy is rebuilt with `kb refresh --all` and the facts (routes, call sites,
CALLS bridges, env reads, handler -> service calls) are compared with the baseline build,
locations mapped through the rewrite. Prints invariance per family and fact kind
(`invariant facts / facts before`), one line per family and ends with
`metamorphic: invariance=<min over families> …`; writes bench/results/metamorphic.json.
Needs bench/corpus/repos (`bash bench/corpus/materialize.sh`); rewritten copies go to
bench/work/metamorphic/ (ignored).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# bench/ holds a file named mcp.py: keep bench/ off the path so `import mcp` finds the SDK
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.metamorphic.families import FAMILIES, IDENTITY  # noqa: E402
from bench.metamorphic.report import family_lines, last_line, render_table, write_json  # noqa: E402
from bench.metamorphic.runner import Portfolio, run  # noqa: E402

PORTFOLIOS = {
    "dev": Portfolio("dev", ROOT / "bench" / "corpus" / "kb", ROOT / "bench" / "corpus" / "repos"),
    "example": Portfolio("example", ROOT / "examples" / "kb", ROOT / "examples" / "repos"),
}


def _cpu_seconds() -> float:
    """User + system CPU of this process and every child it waited for (the builds): the
    cost of the run on a machine others share, where wall time also measures them."""
    own, kids = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--families", default="", help="comma-separated numbers or names (default: all)"
    )
    ap.add_argument("--portfolio", choices=["dev", "example", "all"], default="all")
    ap.add_argument("--jobs", type=int, default=2, help="builds at a time")
    ap.add_argument("--work", type=Path, default=ROOT / "bench" / "work" / "metamorphic")
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "metamorphic.json")
    args = ap.parse_args(argv)
    wanted = {w.strip() for w in args.families.split(",") if w.strip()}
    families = [f for f in FAMILIES if not wanted or str(f.number) in wanted or f.key in wanted]
    portfolios = (
        list(PORTFOLIOS.values()) if args.portfolio == "all" else [PORTFOLIOS[args.portfolio]]
    )
    missing = [p for p in portfolios if not p.repos.is_dir() or not any(p.repos.iterdir())]
    if missing:
        print(
            f"bench/metamorphic.py: {missing[0].repos} is empty — run `bash bench/corpus/materialize.sh` first"
        )
        return 2
    t = time.perf_counter()
    load_before = os.getloadavg()[0]
    summary, _ = run([IDENTITY, *families], portfolios, args.work, jobs=args.jobs)
    summary["time_s"]["cpu"] = round(_cpu_seconds(), 1)
    summary["time_s"]["load_average_1min"] = [round(load_before, 1), round(os.getloadavg()[0], 1)]
    print()
    print("\n".join(render_table(summary)))
    print()
    extra = {
        "command": "uv run python bench/metamorphic.py "
        + " ".join(argv if argv is not None else sys.argv[1:]),
        "portfolios": [p.name for p in portfolios],
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
    }
    write_json(summary, args.out, extra)
    print("\n".join(family_lines(summary)))
    print(
        f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out} in {time.perf_counter() - t:.0f}s"
    )
    print(last_line(summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
