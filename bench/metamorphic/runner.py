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

import yaml

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
COPY_IGNORE = shutil.ignore_patterns(
    ".git", "node_modules", ".kb", "__pycache__", "*.duckdb", "*.duckdb.wal"
)


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
    rewrites: dict[tuple[str, str, str], ComponentRewrite] = field(
        default_factory=dict
    )  # (portfolio, p, c)
    sites: dict[str, int] = field(default_factory=dict)  # "portfolio:p/c" -> sites
    skips: dict[str, int] = field(default_factory=dict)
    invalid: list[dict[str, str]] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)
    rewrite_s: float = 0.0
    builds: dict[str, float] = field(default_factory=dict)


def git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(cwd), *args],
        check=True,
        capture_output=True,
        env={**os.environ, **FIXED_GIT},
    )


def plan_component(
    family: Family, portfolio: Portfolio, project: str, component: str, result: FamilyResult
) -> Rendered | None:
    """The family's rewrite of one component, rendered and validated (None: nothing to do,
    or output that is not a valid program — a rewriter bug, listed and not applied)."""
    comp = Component.read(project, component, portfolio.repos / project / component)
    plan = family.plan(comp)
    if not plan.edits and not plan.new_files:
        if family.number == 0:
            result.rewrites[(portfolio.name, project, component)] = ComponentRewrite(
                Rendered(comp.originals)
            )
        return None
    label = f"{portfolio.name}:{project}/{component}"
    try:
        rendered = render(plan, comp.originals)
        bad = check_files(
            comp.originals,
            rendered.files,
            {nf.rel: nf.origin for nf in plan.new_files if nf.origin},
        )
    except ValueError as exc:  # overlapping edits
        rendered, bad = None, [Invalid("-", str(exc))]
    if bad or rendered is None:
        result.invalid += [{"component": label, "file": b.file, "why": b.why} for b in bad]
        return None
    result.rewrites[(portfolio.name, project, component)] = ComponentRewrite(
        rendered, plan.alternatives, plan.equivalent_bases
    )
    result.sites[label] = len(plan.sites)
    for reason, n in plan.skips.items():
        result.skips[reason] = result.skips.get(reason, 0) + n
    result.samples += [f"{label} {s.file}:{s.line} {s.note}" for s in plan.sites[:3]]
    return rendered


def compose(
    family: Family, portfolios: list[Portfolio], dest: Path, result: FamilyResult
) -> set[str]:
    """One KB at `dest/kb` over `dest/repos`: every project with a rewritten component (all
    projects for the identity control), from every portfolio; committed once. Returns the
    projects built."""
    if dest.exists():
        shutil.rmtree(dest)
    chosen: list[tuple[Portfolio, str, str, Rendered | None]] = []
    for p in portfolios:
        for project, component in p.components():
            chosen.append(
                (p, project, component, plan_component(family, p, project, component, result))
            )
    touched = {
        (p.name, project) for p, project, _, r in chosen if r is not None or family.number == 0
    }
    merge_kbs(
        [p for p in portfolios if any(t[0] == p.name for t in touched)],
        {t[1] for t in touched},
        dest / "kb",
    )
    for p, project, component, rendered in chosen:
        if (p.name, project) not in touched:
            continue
        out_root = dest / "repos" / project / component
        shutil.copytree(p.repos / project / component, out_root, ignore=COPY_IGNORE, symlinks=True)
        for rel, data in rendered.files.items() if rendered is not None else ():
            path = out_root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", f"metamorphic: {family.key}")
    return {t[1] for t in touched}


def merge_kbs(portfolios: list[Portfolio], projects: set[str], dest: Path) -> None:
    """The first portfolio's KB settings and portfolio-level ADRs, every chosen project's
    docs, the union of the vocabularies."""
    first = portfolios[0] if portfolios else None
    dest.mkdir(parents=True)
    if first is None:
        return
    for item in first.kb.iterdir():
        if item.name not in ("projects", "index", ".kb") and item.is_file():
            shutil.copy2(item, dest / item.name)
    vocab: dict = {}
    for p in portfolios:
        doc = (
            yaml.safe_load((p.kb / "vocabulary.yaml").read_text(encoding="utf-8"))
            if (p.kb / "vocabulary.yaml").is_file()
            else {}
        )
        for key, values in (doc or {}).items():
            merged = vocab.setdefault(key, [])
            merged += [v for v in values or [] if v not in merged]
        for project in sorted(projects):
            if (p.kb / "projects" / project).is_dir():
                shutil.copytree(
                    p.kb / "projects" / project, dest / "projects" / project, ignore=COPY_IGNORE
                )
    if (first.kb / "adr").is_dir():  # portfolio-level ADRs are about the KB, not the code
        shutil.copytree(first.kb / "adr", dest / "adr")
    (dest / "vocabulary.yaml").write_text(
        yaml.safe_dump(vocab, sort_keys=False, default_flow_style=None, width=1000),
        encoding="utf-8",
    )


def build(kb: Path, data_dir: Path) -> float:
    """`kb refresh --all` into `data_dir` (fresh); seconds taken."""
    if data_dir.exists():
        shutil.rmtree(data_dir)
    env = {k: v for k, v in os.environ.items() if k != "DAGSTER_HOME"}
    t = time.perf_counter()
    done = subprocess.run(
        [kb_exe(), "refresh", "--all", "--kb", str(kb), "--data-dir", str(data_dir)],
        capture_output=True,
        text=True,
        env=env,
    )
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
    """Baseline builds of the portfolios as they are, one composed copy and build per
    family, scores per family."""
    work.mkdir(parents=True, exist_ok=True)
    results = [FamilyResult(f) for f in families]
    t0 = time.perf_counter()
    built: dict[str, set[str]] = {}
    futures = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        for p in portfolios:  # builds start while the next family is being rewritten
            futures[f"baseline:{p.name}"] = pool.submit(
                build_and_read, p.kb, work / "baseline" / f"{p.name}.data"
            )
        for r in results:
            t = time.perf_counter()
            dest = work / r.family.key / "portfolio"
            built[r.family.key] = compose(r.family, portfolios, dest, r)
            if built[r.family.key]:
                futures[r.family.key] = pool.submit(
                    build_and_read, dest / "kb", work / r.family.key / "portfolio.data"
                )
            r.rewrite_s = time.perf_counter() - t
            log(f"rewrote {r.family.number:>2} {r.family.key:16} {sum(r.sites.values()):>5} sites in {len(r.sites)} components"
                f" ({len(built[r.family.key])} projects built), {len(r.invalid)} invalid, {r.rewrite_s:.1f}s")  # fmt: skip
        rewrite_wall = time.perf_counter() - t0
        facts: dict[str, list[Fact]] = {}
        for tag, fut in futures.items():
            seconds, fs = fut.result()
            facts[tag] = fs
            for r in results:
                if r.family.key == tag:
                    r.builds["portfolio"] = round(seconds, 1)
            log(f"built {tag:20} {seconds:5.1f}s, {len(fs)} facts")
    build_wall = time.perf_counter() - t0
    owner = {project: p.name for p in portfolios for project, _ in p.components()}
    before = [
        _tag(f, owner.get(f.project, "?")) for p in portfolios for f in facts[f"baseline:{p.name}"]
    ]
    scored = []
    for r in results:
        projects = built[r.family.key]
        after = [_tag(f, owner.get(f.project, "?")) for f in facts.get(r.family.key, [])]
        rewrites = {
            (f"{pname}:{project}", component): rw
            for (pname, project, component), rw in r.rewrites.items()
        }
        mine = [f for f in before if f.project.split(":", 1)[1] in projects]
        scored.append((r, score_family(mine, after, rewrites)))
    summary = {
        "baseline_facts": {p.name: len(facts[f"baseline:{p.name}"]) for p in portfolios},
        "time_s": {
            "rewrite": round(rewrite_wall, 1),
            "rewrite_and_builds_wall": round(build_wall, 1),
            "builds": len(futures),
            "jobs": jobs,
            "total": round(time.perf_counter() - t0, 1),
        },
        "scores": scored,
    }
    return summary, results


def _tag(f: Fact, portfolio: str) -> Fact:
    """The same fact with its project qualified by its portfolio."""
    return Fact(
        f.kind,
        f"{portfolio}:{f.project}",
        f.component,
        f.a,
        f.b,
        f.file,
        f.line,
        f.file2,
        f.line2,
        f.attrs,
    )
