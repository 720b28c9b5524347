"""Quality and speed benchmark of the doc context broker (`kb_context`).

Corpus: the example portfolio (examples/kb + examples/repos) plus real Markdown of a few
well-documented packages fetched by name into bench/work/ (gitignored) with npm and pip.
For each task in bench/context_tasks.py: recall of the expected sections at 2k/4k/8k
tokens, against a baseline that packs whole files in path order. Also: time to
discover+chunk, time to build the FTS5 index, p50/p95 query latency.

    uv run python bench/context.py            # prints a table, writes bench/results/context.json
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from context_tasks import TASKS  # noqa: E402

from doc_context import component_chunks, kb_chunks, repo_scopes  # noqa: E402
from doc_context.chunking import headings, parse_doc  # noqa: E402
from doc_context.discovery import RepoScope, discover_repo  # noqa: E402
from doc_context.index import DocIndex, chunk_frames  # noqa: E402
from doc_context.search import search_context  # noqa: E402
from kb.loader import load_kb  # noqa: E402
from kb.tokens import estimate_tokens  # noqa: E402

WORK = ROOT / "bench" / "work"
RESULTS = ROOT / "bench" / "results" / "context.json"
BUDGETS = (2000, 4000, 8000)
NPM = ("express@4", "axios@1", "vue@3", "fastify@4", "pino@9")
PYPI = ("flask", "fastapi")


def fetch() -> dict[str, Path]:
    """Package roots by name, fetched once with the registries' own clients."""
    roots: dict[str, Path] = {}
    npm, pypi = WORK / "npm", WORK / "pypi"
    for folder in (npm, pypi):
        folder.mkdir(parents=True, exist_ok=True)
    for spec in NPM:
        name = spec.split("@")[0]
        target = npm / name
        if not target.is_dir():
            out = subprocess.run(
                ["npm", "pack", spec, "--silent"],
                cwd=npm,
                capture_output=True,
                text=True,
                check=True,
            )
            with tarfile.open(npm / out.stdout.strip().splitlines()[-1]) as tar:
                tar.extractall(target, filter="data")
        roots[name] = target / "package"
    for name in PYPI:
        found = sorted(pypi.glob(f"{name}-*.tar.gz"))
        if not found:
            subprocess.run(
                ["pip", "download", "--no-deps", "--no-binary", ":all:", name, "-d", str(pypi)],
                capture_output=True,
                check=True,
            )
            found = sorted(pypi.glob(f"{name}-*.tar.gz"))
        target = pypi / found[-1].name.removesuffix(".tar.gz")
        if not target.is_dir():
            with tarfile.open(found[-1]) as tar:
                tar.extractall(pypi, filter="data")
        roots[name] = target
    return roots


def corpus(packages: dict[str, Path]):
    """ChunkSets and the (source, root) of every discovered repo."""
    kb = load_kb(ROOT / "examples" / "kb")
    scopes = repo_scopes(kb.components())
    sources: dict[str, Path] = {"kb": kb.config.root}
    sets = [kb_chunks(kb.config.root)]
    for key, scope in sorted(scopes.items()):
        sets.append(component_chunks(scope))
        sources[key] = scope.root
    for name, root in sorted(packages.items()):
        scope = RepoScope("pkgs", name, root, [], [])
        sets.append(component_chunks(scope))
        sources[f"pkgs/{name}"] = root
    return sets, sources


def heading_line(root: Path, path: str, heading: str) -> int:
    doc = parse_doc((root / path).read_text(encoding="utf-8", errors="replace"))
    for index, _level, text in headings(doc.lines):
        if text == heading:
            return doc.first_line + index
    raise SystemExit(f"bench task error: no heading {heading!r} in {root / path}")


def source_of(entry) -> str:
    return "kb" if entry.bucket in ("kb", "imports") else f"{entry.project}/{entry.component}"


def _covers(pack, src: str, path: str, line: int) -> bool:
    return any(
        source_of(e) == src and e.path == path and e.start_line <= line <= e.end_line
        for e in pack.entries
    )


def baseline_files(sources: dict[str, Path]) -> list[tuple[str, str, int]]:
    """(source, path, tokens) of every discovered file in path order: the naive pack."""
    files = []
    for source, root in sources.items():
        if source == "kb":
            from doc_context import discover_kb

            disc = discover_kb(root)
        else:
            disc = discover_repo(root)
        for f in disc.files:
            text = f.path.read_text(encoding="utf-8", errors="replace")
            files.append((source, f.rel, estimate_tokens(f"--- {source} {f.rel}\n{text}\n")))
    return sorted(files, key=lambda t: (t[0], t[1]))


def baseline_pack(files, budget: int) -> set[tuple[str, str]]:
    chosen, used = set(), 0
    for source, path, tokens in files:
        if used + tokens <= budget:
            chosen.add((source, path))
            used += tokens
    return chosen


def run() -> dict:
    started = time.perf_counter()
    packages = fetch()
    fetch_s = time.perf_counter() - started
    t0 = time.perf_counter()
    sets, sources = corpus(packages)
    chunk_s = time.perf_counter() - t0
    frames = [chunk_frames(s) for s in sets]
    chunks = pl.concat([f["doc_chunks"] for f in frames], how="diagonal_relaxed")
    edges = pl.concat([f["doc_edges"] for f in frames], how="diagonal_relaxed")
    t0 = time.perf_counter()
    index = DocIndex.from_frames(chunks, edges)
    index_s = time.perf_counter() - t0
    scale = []
    for times in (10, 30):  # index build time on a corpus 10x / 30x this size
        big = pl.concat(
            [chunks.with_columns(pl.lit(f"copy{k}").alias("project")) for k in range(times)]
        )
        t0 = time.perf_counter()
        big_index = DocIndex.from_frames(big)
        built = time.perf_counter() - t0
        t0 = time.perf_counter()
        search_context(big_index, "fastify route prefixing plugin", 8000)
        scale.append(
            {
                "chunks": big.height,
                "index_build": round(built, 3),
                "query": round(time.perf_counter() - t0, 4),
            }
        )
        del big_index
    files = baseline_files(sources)
    latencies: list[float] = []
    fill_latencies: list[float] = []
    per_task = []
    hits = {b: 0 for b in BUDGETS}
    base_hits = {b: 0 for b in BUDGETS}
    fill_hits = {b: 0 for b in BUDGETS}
    total = 0
    for task, expected in TASKS:
        lines = [(src, path, heading_line(sources[src], path, h), h) for src, path, h in expected]
        total += len(lines)
        row = {"task": task, "expected": [f"{s} {p} § {h}" for s, p, _, h in lines]}
        for budget in BUDGETS:
            t0 = time.perf_counter()
            pack = search_context(index, task, budget)
            latencies.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            filled = search_context(index, task, budget, or_fill=True)
            fill_latencies.append(time.perf_counter() - t0)
            assert estimate_tokens(pack.render()) <= budget
            got = [1 for src, path, line, _ in lines if _covers(pack, src, path, line)]
            fill_got = [1 for src, path, line, _ in lines if _covers(filled, src, path, line)]
            fill_hits[budget] += len(fill_got)
            base = baseline_pack(files, budget)
            base_got = [1 for src, path, *_ in lines if (src, path) in base]
            hits[budget] += len(got)
            base_hits[budget] += len(base_got)
            row[f"found@{budget}"] = len(got)
            row[f"mode@{budget}"] = pack.mode
        per_task.append(row)
    ordered = sorted(latencies)
    return {
        "corpus": {
            "sources": len(sources),
            "files": len(
                {(r["project"], r["component"], r["path"]) for r in chunks.iter_rows(named=True)}
            ),
            "chunks": chunks.height,
            "tokens": int(chunks["tokens"].sum()),
            "bytes_markdown": sum((sources[s] / p).stat().st_size for s, p, _ in files),
            "skipped": [f"{p}: {r}" for s in sets for p, r in s.skipped],
        },
        "tasks": len(TASKS),
        "expected_sections": total,
        "recall": {str(b): round(hits[b] / total, 3) for b in BUDGETS},
        "recall_or_fill": {str(b): round(fill_hits[b] / total, 3) for b in BUDGETS},
        "baseline_recall": {str(b): round(base_hits[b] / total, 3) for b in BUDGETS},
        "seconds": {
            "fetch": round(fetch_s, 2),
            "discover_and_chunk": round(chunk_s, 3),
            "index_build": round(index_s, 4),
            "query_p50": round(statistics.median(ordered), 5),
            "query_p95": round(ordered[int(0.95 * (len(ordered) - 1))], 5),
            "query_max": round(ordered[-1], 5),
            "query_p95_or_fill": round(
                sorted(fill_latencies)[int(0.95 * (len(fill_latencies) - 1))], 5
            ),
        },
        "index_scaling": scale,
        "per_task": per_task,
    }


def main() -> None:
    result = run()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    c, s = result["corpus"], result["seconds"]
    print(
        f"corpus: {c['sources']} sources, {c['files']} files, {c['chunks']} chunks, {c['tokens']:,} tokens"
    )
    print(f"tasks: {result['tasks']}, expected sections: {result['expected_sections']}")
    print(
        "budget   broker (AND, OR if none)   broker + OR fill   baseline (whole files, path order)"
    )
    for b in BUDGETS:
        r, f, base = (result[k][str(b)] for k in ("recall", "recall_or_fill", "baseline_recall"))
        print(f"{b:>6}   {r:>24.1%}   {f:>16.1%}   {base:>8.1%}")
    print(
        f"discover+chunk {s['discover_and_chunk']:.2f}s, index build {s['index_build'] * 1000:.0f} ms, "
        f"query p50 {s['query_p50'] * 1000:.1f} ms, p95 {s['query_p95'] * 1000:.1f} ms "
        f"(with OR fill p95 {s['query_p95_or_fill'] * 1000:.1f} ms)"
    )
    for row in result["index_scaling"]:
        print(
            f"scaling: {row['chunks']:,} chunks → index build {row['index_build']:.2f}s, one query {row['query'] * 1000:.0f} ms"
        )
    misses = [t for t in result["per_task"] if t["found@8000"] < len(t["expected"])]
    for t in misses:
        print(f"miss@8k: {t['task']!r}: expected {t['expected']}")
    print(f"written: {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
