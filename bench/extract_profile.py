"""Extraction CPU per extractor on a real KB, and a byte-exact dump of its facts.

Runs what `extractors.registry.extract_component` runs, component by component, but
parses every file first (the parse is timed on its own) and times each extractor with
`time.process_time`, so the table is extraction alone. Default KB: the build benchmark's
46-component portfolio (bench/portfolio.py, written under bench/work/portfolio if absent).

    uv run python bench/extract_profile.py                        # per-extractor CPU table
    uv run python bench/extract_profile.py --kb bench/corpus/kb   # the accuracy portfolio
    uv run python bench/extract_profile.py --dump /tmp/facts.txt  # every fact, sorted
    uv run python bench/extract_profile.py --cprofile /tmp/x.prof # cProfile of the extractors

`--dump` writes one line per node, edge, unresolved entry, catalog row and problem, sorted,
so two runs (before/after an optimisation) can be compared with `cmp`/`diff`; the digest
it prints covers the facts in emission order too.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import json
import sys
import time
from collections import defaultdict
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench.portfolio import WORK, fetch, write_portfolio  # noqa: E402
from extractors.base import ComponentContext, collect_files  # noqa: E402
from extractors.facts import ComponentFacts  # noqa: E402
from extractors.registry import extract_component, plan  # noqa: E402
from extractors.shared import Shared  # noqa: E402
from kb.loader import load_kb  # noqa: E402

PARSED = {"typescript", "tsx", "javascript", "python", "hcl"}


def timed_extract(
    project: str,
    component: str,
    root: Path,
    cpu: dict[str, float],
    profiler: cProfile.Profile | None = None,
) -> int:
    """Extract one component like the registry does, adding CPU seconds per phase to `cpu`;
    returns the bytes parsed. `profiler` (optional) runs around the extractors only."""
    ctx = ComponentContext(project, component, Path(root))
    start = time.process_time()
    collect_files(ctx)
    cpu["(read files)"] += time.process_time() - start
    start, size = time.process_time(), 0
    for source in list(ctx.files.values()):
        if source.language in PARSED:
            source.tree  # noqa: B018 - parse
            size += len(source.data)
    cpu["(parse)"] += time.process_time() - start
    for name, module in plan():
        start = time.process_time()
        if profiler:
            profiler.enable()
        module.extract(ctx)
        if profiler:
            profiler.disable()
        cpu[name] += time.process_time() - start
    ctx.shared = Shared()
    ctx.files.clear()
    return size


def dump_lines(facts: ComponentFacts) -> list[str]:
    rows = []
    for group in ("nodes", "edges", "unresolved", "catalog", "problems"):
        for item in getattr(facts, group, None) or []:
            rows.append(group + " " + json.dumps(asdict(item), default=str))
    return rows


def kb_root(arg: Path | None) -> Path:
    if arg is not None:
        return arg
    kb = WORK / "portfolio" / "kb"
    return kb if kb.is_dir() else write_portfolio(WORK / "portfolio", fetch())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kb", type=Path, help="KB root (default: the 46-component portfolio)")
    ap.add_argument("--dump", type=Path, help="write every fact, sorted, to this file")
    ap.add_argument("--cprofile", type=Path, help="write a cProfile of the extractors")
    args = ap.parse_args()
    comps = load_kb(kb_root(args.kb)).components()
    gc.disable()  # as extract_component does
    if args.dump:
        lines: list[str] = []
        in_order = hashlib.sha256()
        start = time.process_time()
        for comp in comps:
            facts = extract_component(comp.project, comp.id, comp.repo_path)
            rows = dump_lines(facts)
            in_order.update("\n".join(rows).encode())
            lines += rows
        print(f"extract_component × {len(comps)}: {time.process_time() - start:.2f}s CPU")
        args.dump.write_text("\n".join(sorted(lines)) + "\n")
        print(
            f"wrote {len(lines)} facts to {args.dump}; emission order {in_order.hexdigest()[:16]}"
        )
        return 0
    cpu: dict[str, float] = defaultdict(float)
    profiler = cProfile.Profile() if args.cprofile else None
    size = sum(timed_extract(c.project, c.id, c.repo_path, cpu, profiler) for c in comps)
    if profiler:
        profiler.dump_stats(str(args.cprofile))
        print(f"wrote {args.cprofile} (extractors only; times under the profiler)")
    extraction = sum(v for k, v in cpu.items() if not k.startswith("("))
    print(f"{len(comps)} components, {size / 1e6:.1f} MB parsed")
    for name, secs in sorted(cpu.items(), key=lambda kv: -kv[1]):
        print(f"  {name:<22} {secs:7.2f}s CPU")
    print(
        f"extraction {extraction:.2f}s CPU, parse {cpu['(parse)']:.2f}s CPU "
        f"(extraction/parse {extraction / max(cpu['(parse)'], 1e-9):.2f}x)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
