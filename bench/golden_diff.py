"""Golden-fact diff for the extraction switch-over: every component of the development
portfolio and the bundled example, extracted by the registry as it runs today and by the
engine alone; routes (method, path, line), handlers, middleware chains and HTTP calls
(method, URL template, line; hops, how the URL was resolved, base and path) compared, each
difference listed.

    uv run python bench/golden_diff.py [--component PROJECT/COMPONENT] [--kind route|http_call] [-q]
                                       [--save FILE | --against FILE]

`--save FILE` writes the registry's facts as compared (run it on the code before a step,
e.g. an exported older commit); `--against FILE` compares the registry's facts of now with
that file instead of with the engine alone: the step that deletes an old mechanism is
checked against the facts it published.

A difference is either an improvement to name or a bug to fix (issue 26, "Migration
without losing accuracy"). Writes bench/results/golden_diff.json.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from extractors.registry import extract_component, extract_only  # noqa: E402

CORPUS = ROOT / "bench" / "corpus"
RESULTS = ROOT / "bench" / "results" / "golden_diff.json"


def components() -> list[tuple[str, str, Path]]:
    out = []
    manifest = yaml.safe_load((CORPUS / "manifest.yaml").read_text(encoding="utf-8"))
    for c in manifest["components"]:
        out.append((c["project"], c["component"], CORPUS / "repos" / c["project"] / c["component"]))
    for md in sorted((ROOT / "examples" / "kb" / "projects").glob("*/*/component.md")):
        front = yaml.safe_load(md.read_text(encoding="utf-8").split("---")[1])
        out.append((front["project"], front["id"], ROOT / "examples" / "repos" / front["repo"]))
    return [c for c in out if c[2].is_dir()]


def summarize(facts) -> dict[str, dict[str, dict]]:
    """kind -> key -> what is compared, for routes and calls."""
    by_id = {n.id: n for n in facts.nodes}
    edges = defaultdict(list)
    for e in facts.edges:
        edges[e.src].append(e)
    out: dict[str, dict[str, dict]] = {"route": {}, "http_call": {}}
    for n in facts.nodes:
        if n.kind == "route":
            chain = sorted(
                (e for e in edges[n.id] if e.type == "USES_MIDDLEWARE"),
                key=lambda e: e.attrs.get("order", 0),
            )
            handler = [
                by_id[e.dst].name for e in edges[n.id] if e.type == "ROUTES_TO" and e.dst in by_id
            ]
            key = f"{n.name} @{n.file}:{n.line}"
            out["route"][key] = {
                "handler": handler[0] if handler else None,
                "middleware": [f"{by_id[e.dst].name}@{e.line}" for e in chain if e.dst in by_id],
            }
        elif n.kind == "http_call":
            key = f"{n.attrs.get('method')} {n.attrs.get('url_template')} @{n.file}:{n.line}"
            out["http_call"][key] = {
                "hops": len(n.attrs.get("hops") or []),
                **{k: n.attrs.get(k) for k in ("resolved_via", "base", "path")},
            }
    return out


def diff(old: dict, new: dict) -> dict:
    result = {}
    for kind in old:
        a, b = old[kind], new[kind]
        changed = {k: {"old": a[k], "new": b[k]} for k in a.keys() & b.keys() if a[k] != b[k]}
        result[kind] = {
            "old": len(a), "new": len(b), "same": len(a.keys() & b.keys()) - len(changed),
            "only_old": sorted(a.keys() - b.keys()), "only_new": sorted(b.keys() - a.keys()),
            "changed": changed,
        }  # fmt: skip
    return result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--component", help="PROJECT/COMPONENT")
    ap.add_argument("--kind", choices=["route", "http_call"])
    ap.add_argument("-q", "--quiet", action="store_true", help="counts only")
    ap.add_argument("--save", type=Path, help="write the registry's facts to FILE, compare nothing")
    ap.add_argument("--against", type=Path, help="compare the registry's facts with a --save FILE")
    args = ap.parse_args()
    saved = json.loads(args.against.read_text(encoding="utf-8")) if args.against else None
    snapshot: dict[str, dict] = {}
    report = {}
    t0 = time.perf_counter()
    totals = defaultdict(lambda: [0, 0, 0])
    for project, component, root in components():
        name = f"{project}/{component}"
        if args.component and args.component != name:
            continue
        now = summarize(extract_component(project, component, root))
        if args.save:
            snapshot[name] = now
            continue
        if saved is not None:
            old, new = saved.get(name, {"route": {}, "http_call": {}}), now
        else:
            old = now
            new = summarize(
                extract_only(project, component, root, {"engine.routes", "engine.requests"})
            )
        d = diff(old, new)
        report[name] = d
        for kind, v in d.items():
            if args.kind and kind != args.kind:
                continue
            totals[kind][0] += v["old"]
            totals[kind][1] += v["same"]
            totals[kind][2] += v["new"]
            if not (v["only_old"] or v["only_new"] or v["changed"]):
                continue
            print(f"{name} {kind}: old {v['old']}, new {v['new']}, same {v['same']}")
            if args.quiet:
                continue
            for k in v["only_old"]:
                print(f"   - {k}")
            for k in v["only_new"]:
                print(f"   + {k}")
            for k, c in v["changed"].items():
                print(f"   ~ {k}: {c['old']} -> {c['new']}")
    if args.save:
        args.save.write_text(
            json.dumps(snapshot, indent=1, sort_keys=True) + "\n", encoding="utf-8"
        )
        print(f"wrote {args.save} ({time.perf_counter() - t0:.1f}s)")
        return 0
    for kind, (old, same, new) in totals.items():
        print(f"{kind}: old {old}, identical in new {same}, new {new}")
    print(f"({time.perf_counter() - t0:.1f}s)")
    RESULTS.write_text(json.dumps(report, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
