"""The table, the per-family lines and bench/results/metamorphic.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench.metamorphic.facts import KINDS
from bench.metamorphic.runner import FamilyResult

SHORT = {
    "routes": "routes",
    "http_calls": "calls",
    "calls": "bridges",
    "env_reads": "env",
    "handler_calls": "handler",
}


def _cell(t: dict[str, Any]) -> str:
    return f"{t['invariant']}/{t['before']}" if t["before"] else "-"


def _pct(x: float | None) -> str:
    return "   —" if x is None else f"{x:.2f}"


def family_json(r: FamilyResult, score: dict[str, Any]) -> dict[str, Any]:
    return {
        "number": r.family.number,
        "family": r.family.key,
        "title": r.family.title,
        "sites": sum(r.sites.values()),
        "components_rewritten": len(r.sites),
        "sites_by_component": dict(sorted(r.sites.items())),
        "skips": dict(sorted(r.skips.items(), key=lambda kv: -kv[1])),
        "rewriter_errors": r.invalid,
        "sample_sites": r.samples[:30],
        "rewrite_s": round(r.rewrite_s, 1),
        "build_s": r.builds,
        **score,
    }


def render_table(summary: dict[str, Any]) -> list[str]:
    lines = [
        f"{'family':24} {'sites':>6} {'skips':>6} "
        + " ".join(f"{SHORT[k]:>11}" for k in KINDS)
        + f" {'url tmpl':>11} {'invariance':>10}"
    ]
    for r, s in summary["scores"]:
        cells = " ".join(f"{_cell(s['kinds'][k]):>11}" for k in KINDS)
        name = f"{r.family.number:>2} {r.family.key}"
        lines.append(
            f"{name:24} {sum(r.sites.values()):>6} {sum(r.skips.values()):>6} {cells} {_cell(s['side']['http_url']):>11} {_pct(s['invariance']):>10}"
        )
    return lines


def family_lines(summary: dict[str, Any]) -> list[str]:
    out = []
    for r, s in summary["scores"]:
        kinds = " ".join(f"{SHORT[k]}={_pct(s['kinds'][k]['ratio']).strip()}" for k in KINDS)
        alt = s["alternatives"]
        extra = (
            f" alternatives={alt['found']}/{alt['expected']} with_condition={alt['with_condition']}"
            if alt["expected"]
            else ""
        )
        drift = s["control_drift"]["count"]
        errors = len(r.invalid)
        out.append(
            f"family {r.family.number:>2} {r.family.key}: invariance={_pct(s['invariance']).strip()} ({s['invariant']}/{s['before']}) {kinds}"
            f" sites={sum(r.sites.values())} skips={sum(r.skips.values())}{extra} control_drift={drift} rewriter_errors={errors}"
        )
    return out


def last_line(summary: dict[str, Any]) -> str:
    scored = [
        (r, s) for r, s in summary["scores"] if r.family.number > 0 and s["invariance"] is not None
    ]
    if not scored:
        return "metamorphic: invariance=n/a (no family rewrote anything)"
    worst_r, worst = min(scored, key=lambda rs: rs[1]["invariance"])
    mean = sum(s["invariance"] for _, s in scored) / len(scored)
    control = next((s for r, s in summary["scores"] if r.family.number == 0), None)
    ctl = _pct(control["invariance"]).strip() if control else "n/a"
    t = summary["time_s"]
    return (
        f"metamorphic: invariance={worst['invariance']:.2f} (min, {worst_r.family.key}) mean={mean:.2f} families={len(scored)}"
        f" identity={ctl} sites={sum(sum(r.sites.values()) for r, _ in scored)} time={t['total']:.0f}s"
        + (f" cpu={t['cpu']:.0f}s" if "cpu" in t else "")
    )


def write_json(summary: dict[str, Any], out: Path, extra: dict[str, Any]) -> None:
    doc = {
        **extra,
        "baseline_facts": summary["baseline_facts"],
        "time_s": summary["time_s"],
        "summary": last_line(summary),
        "families": [family_json(r, s) for r, s in summary["scores"]],
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
