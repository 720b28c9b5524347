"""Copy, rewrite, build, score.

The baseline is a build of each portfolio as it stands (the development portfolio's KB over
bench/corpus/repos, the bundled example over examples/repos). Each family then gets its own
copy of both portfolios under bench/work/metamorphic/<family>/ — the KB copied as is (its
`repos_root: ../repos` now points at the rewritten copies), every component rewritten by
that one family, committed once as a git repository — and its own `kb refresh --all`.
Family 0 rewrites nothing: a control that the copies rebuild to the baseline's facts.
Builds run `jobs` at a time.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.metamorphic.component import Component
from bench.metamorphic.edits import Rendered, render
from bench.metamorphic.facts import Fact, kb_exe, read_facts
from bench.metamorphic.families.base import Family
from bench.metamorphic.scorer import ComponentRewrite, score_family
from bench.metamorphic.validate import Invalid, check_files

FIXED_GIT = {
    "GIT_AUTHOR_NAME": "metamorphic", "GIT_AUTHOR_EMAIL": "metamorphic@kb-graph.invalid",
    "GIT_COMMITTER_NAME": "metamorphic", "GIT_COMMITTER_EMAIL": "metamorphic@kb-graph.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z", "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}  # fmt: skip
COPY_IGNORE = shutil.ignore_patterns(".git", "node_modules", ".kb", "__pycache__", "*.duckdb", "*.duckdb.wal")


@dataclass(frozen=True)
class Portfolio:
    """A KB and the folder its `repos_root` names (components at <project>/<component>)."""

    name: str
    kb: Path
    repos: Path

    def components(self) -> list[tuple[str, str]]:
        return sorted(
            (p.name, c.name)
            for p in self.repos.iterdir() if p.is_dir() and not p.name.startswith(".")
            for c in p.iterdir() if c.is_dir() and not c.name.startswith(".")
        )  # fmt: skip


@dataclass
class FamilyResult:
    family: Family
    rewrites: dict[tuple[str, str, str], ComponentRewrite] = field(default_factory=dict)  # (portfolio, p, c)
    sites: dict[str, int] = field(default_factory=dict)  # "portfolio:p/c" -> sites
    skips: dict[str, int] = field(default_factory=dict)
    invalid: list[dict[str, str]] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)
    rewrite_s: float = 0.0
    builds: dict[str, float] = field(default_factory=dict)


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, env={**os.environ, **FIXED_GIT})


def rewrite_portfolio(family: Family, portfolio: Portfolio, dest: Path, result: FamilyResult) -> None:
    """Copy the portfolio to `dest` (kb/ and repos/), rewriting every component."""
    if dest.exists():
        shutil.rmtree(dest)
    shutil.copytree(portfolio.kb, dest / "kb", ignore=COPY_IGNORE, symlinks=True)
    for project, component in portfolio.components():
        src_root = portfolio.repos / project / component
        out_root = dest / "repos" / project / component
        shutil.copytree(src_root, out_root, ignore=COPY_IGNORE, symlinks=True)
        comp = Component.read(project, component, src_root)
        plan = family.plan(comp)
        if not plan.edits and not plan.new_files:
            if family.number == 0:
                result.rewrites[(portfolio.name, project, component)] = ComponentRewrite(Rendered(comp.originals))
            continue
        label = f"{portfolio.name}:{project}/{component}"
        try:
            rendered = render(plan, comp.originals)
            bad = check_files(comp.originals, rendered.files, {nf.rel: nf.origin for nf in plan.new_files if nf.origin})
        except ValueError as exc:  # overlapping edits: a rewriter bug, reported
            bad, rendered = [Invalid("-", str(exc))], None
        if bad:
            result.invalid += [{"component": label, "file": b.file, "why": b.why} for b in bad]
            continue  # the component keeps its original code; its facts are not counted
        for rel, data in rendered.files.items():
            path = out_root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        result.rewrites[(portfolio.name, project, component)] = ComponentRewrite(rendered, plan.alternatives, plan.equivalent_bases)
        result.sites[label] = len(plan.sites)
        for reason, n in plan.skips.items():
            result.skips[reason] = result.skips.get(reason, 0) + n
        result.samples += [f"{label} {s.file}:{s.line} {s.note}" for s in plan.sites[:3]]
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", f"metamorphic: {family.key}")


def build(kb: Path, data_dir: Path) -> float:
    """`kb refresh --all` into `data_dir` (fresh); seconds taken."""
    if data_dir.exists():
        shutil.rmtree(data_dir)
    env = {k: v for k, v in os.environ.items() if k != "DAGSTER_HOME"}
    t = time.perf_counter()
    done = subprocess.run([kb_exe(), "refresh", "--all", "--kb", str(kb), "--data-dir", str(data_dir)], capture_output=True, text=True, env=env)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-12:])
        raise RuntimeError(f"kb refresh failed for {kb} (exit {done.returncode}):\n{tail}")
    return time.perf_counter() - t


def build_and_read(kb: Path, data_dir: Path) -> tuple[float, list[Fact]]:
    seconds = build(kb, data_dir)
    return seconds, read_facts(kb, data_dir)


def run(
    families: list[Family], portfolios: list[Portfolio], work: Path, jobs: int = 2, log=print,
) -> tuple[dict[str, Any], list[FamilyResult]]:  # fmt: skip
    """Baseline builds, one rewritten copy and build per family, scores per family."""
    work.mkdir(parents=True, exist_ok=True)
    results = [FamilyResult(f) for f in families]
    t0 = time.perf_counter()
    jobs_list: list[tuple[str, str, Path, Path]] = []  # (tag, portfolio, kb, data)
    for p in portfolios:
        jobs_list.append(("baseline", p.name, p.kb, work / "baseline" / f"{p.name}.data"))
    for r in results:
        t = time.perf_counter()
        for p in portfolios:
            dest = work / r.family.key / p.name
            rewrite_portfolio(r.family, p, dest, r)
            jobs_list.append((r.family.key, p.name, dest / "kb", work / r.family.key / f"{p.name}.data"))
        r.rewrite_s = time.perf_counter() - t
        log(f"rewrote {r.family.number:>2} {r.family.key:16} {sum(r.sites.values()):>5} sites in {len(r.sites)} components, {len(r.invalid)} invalid, {r.rewrite_s:.1f}s")
    rewrite_wall = time.perf_counter() - t0
    t1 = time.perf_counter()
    facts: dict[tuple[str, str], list[Fact]] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {(tag, pname): pool.submit(build_and_read, kb, data) for tag, pname, kb, data in jobs_list}
        for (tag, pname), fut in futures.items():
            seconds, fs = fut.result()
            facts[(tag, pname)] = fs
            if tag != "baseline":
                next(r for r in results if r.family.key == tag).builds[pname] = round(seconds, 1)
            log(f"built {tag:16} {pname:8} {seconds:5.1f}s, {len(fs)} facts")
    build_wall = time.perf_counter() - t1
    scored = []
    for r in results:
        before, after, rewrites = [], [], {}
        for p in portfolios:
            before += [_tag(f, p.name) for f in facts[("baseline", p.name)]]
            after += [_tag(f, p.name) for f in facts[(r.family.key, p.name)]]
        for (pname, project, component), rw in r.rewrites.items():
            rewrites[(f"{pname}:{project}", component)] = rw
        scored.append((r, score_family(before, after, rewrites)))
    summary = {
        "baseline_facts": {p.name: len(facts[("baseline", p.name)]) for p in portfolios},
        "time_s": {"rewrite": round(rewrite_wall, 1), "builds_wall": round(build_wall, 1), "builds": len(jobs_list), "jobs": jobs, "total": round(time.perf_counter() - t0, 1)},
        "scores": scored,
    }
    return summary, results


def _tag(f: Fact, portfolio: str) -> Fact:
    """The same fact with its project qualified by portfolio (two KBs may share a name)."""
    return Fact(f.kind, f"{portfolio}:{f.project}", f.component, f.a, f.b, f.file, f.line, f.file2, f.line2, f.attrs)
