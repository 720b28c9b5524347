"""The RealWorld report: per project, per framework (a framework at 0 shows at a glance), and
the summary line every change quotes."""

from __future__ import annotations


def frac(v: list[int] | None) -> str:
    return f"{v[0]}/{v[1]}" if v and v[1] else "-"


def pct(v: list[int]) -> str:
    return f"{v[0]}/{v[1]}" + (f" ({100 * v[0] / v[1]:.0f}%)" if v[1] else "")


def framework_rows(graph: dict, answers: dict | None) -> list[tuple[str, str, dict[str, str]]]:
    """(framework, role, cells): backends score routes and the bridges that reach them;
    frontends score call sites and bridges; both their traces."""
    fw = graph["frameworks"]
    rows = []
    for role, metrics, by in (
        ("backend", ("routes", "bridges_by_api"), "by_api_framework"),
        ("frontend", ("calls", "bridges"), "by_web_framework"),
    ):
        names = sorted({k.split(":", 1)[1] for k in fw if k.split(":", 1)[0] in metrics})
        for name in names:
            cells = {
                "routes": frac(fw.get(f"routes:{name}")) if role == "backend" else "",
                "calls": frac(fw.get(f"calls:{name}")) if role == "frontend" else "",
                "bridges": frac(fw.get(f"{metrics[1]}:{name}")),
            }
            if answers:
                a = answers[by].get(name, {})
                cells |= {k: frac(a.get(k)) for k in ("trace_down", "trace_up", "negatives")}
            rows.append((name, role, cells))
    return rows


def render(graph: dict, answers: dict | None) -> str:
    t = graph["totals"]
    lines = [
        f"{'project':14} {'api':30} {'routes':>7} {'web':30} {'calls':>7} {'bridges':>8}  ok/wrong/unjudged"
    ]
    for p in graph["projects"]:
        lines.append(
            f"{p['project']:14} {p['api']:30} {p['routes']:>7} {p['web']:30} {p['calls']:>7} "
            f"{p['bridges']:>8}  {p['correct']}/{p['wrong']}/{p['unjudged']}"
        )
    cols = ["routes", "calls", "bridges"] + (
        ["trace_down", "trace_up", "negatives"] if answers else []
    )
    lines += ["", f"{'framework':14} {'role':9}" + "".join(f"{c:>11}" for c in cols)]
    for name, role, cells in framework_rows(graph, answers):
        lines.append(f"{name:14} {role:9}" + "".join(f"{cells[c]:>11}" for c in cols))
    lines += [
        "",
        f"routes (method+path, line ±3)   {pct(t['routes'])}   (paths anywhere {pct(t['route_paths'])})",
        f"calls (site ±2, same method)    {pct(t['calls'])}   (any method {pct(t['call_sites_any_method'])})",
        f"bridges                         {pct(t['bridges'])}   (static sites {pct(t['bridges_static'])})",
        f"bridge precision                {graph['precision']} ({t['edges_correct'][0]} correct, "
        f"{t['edges_wrong'][0]} wrong, {t['edges_unjudged'][0]} unjudged)",
        f"cross-project leaks             {graph['leaks']}",
    ]
    if answers:
        a, r = answers["totals"], answers["starts_resolved"]
        lines.append(
            f"answers ({answers['calls']} kb_trace calls, largest {answers['max_tokens']} tokens): "
            f"down {pct(a['trace_down'])}, up {pct(a['trace_up'])}, negatives {pct(a['negatives'])}; "
            f"starts resolved to the site itself: down {frac(r['trace_down'])}, up {frac(r['trace_up'])}"
        )
    return "\n".join(lines)


def summary_line(graph: dict, answers: dict | None) -> str:
    t = graph["totals"]
    precision = "n/a" if graph["precision"] is None else f"{graph['precision']:.2f}"
    line = (
        f"realworld: routes={frac(t['routes'])} calls={frac(t['calls'])} bridges={frac(t['bridges'])} "
        f"precision={precision} leaks={graph['leaks']} "
        f"silent_zeros={t.get('silent_zeros', [0])[0]}"
    )
    if answers:
        a = answers["totals"]
        line += (
            f" trace_down={frac(a['trace_down'])} trace_up={frac(a['trace_up'])}"
            f" negatives={frac(a['negatives'])} over_budget={answers['over_budget']}"
        )
    return line
