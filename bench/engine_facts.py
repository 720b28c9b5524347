"""The extraction engine alone on one folder: its routes, calls and middleware, for working
on a model or the engine.

    uv run python bench/engine_facts.py FOLDER            # every route / http_call / middleware
    uv run python bench/engine_facts.py FOLDER REL LINE   # what each call on that line evaluates to
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from extractors.registry import extract_only  # noqa: E402


def facts(folder: Path) -> None:
    found = extract_only("p", "c", folder, {"engine.routes", "engine.requests"})
    for n in found.nodes:
        if n.kind in ("route", "http_call", "middleware"):
            attrs = {k: v for k, v in n.attrs.items() if k != "segments"}
            print(n.kind, n.name, f"{n.file}:{n.line}", json.dumps(attrs)[:300])
    for e in found.edges:
        if e.type in ("ROUTES_TO", "USES_MIDDLEWARE", "CALLS_HTTP"):
            print("  ", e.type, e.src.split(":", 1)[1][:60], "->", e.dst.split(":", 1)[1][:70],
                  e.attrs.get("order", ""), f"{e.file}:{e.line}")  # fmt: skip
    for u in found.unresolved:
        print("unresolved", u.kind, f"{u.file}:{u.line}", u.reason)
    for p in found.problems:
        print("problem", p.rule, p.message[:300])


def values(folder: Path, rel: str, line: int) -> None:
    from extractors.base import ComponentContext, collect_files
    from extractors.engine.evaluate import Evaluator
    from extractors.engine.program import Program
    from extractors.models import all_models
    from extractors.models.runtime import Library
    from extractors.registry import plan

    ctx = ComponentContext("p", "c", folder)
    collect_files(ctx)
    for _, module in plan():
        if module.NAME in {"vue", "typescript", "python"}:
            module.extract(ctx)
    program = Program(ctx)
    ev = Evaluator(program, Library(list(all_models())))
    a = program.adapter(rel)
    for call in a.calls():
        if call.start_point[0] + 1 == line:
            view = a.call_view(call)
            print(a.text(call)[:80].replace("\n", " "))
            print("  callee =>", ev.eval(rel, view.callee, None))
            for arg in view.args:
                print("  arg    =>", ev.eval(rel, arg, None))


if __name__ == "__main__":
    if len(sys.argv) == 4:
        values(Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
    else:
        facts(Path(sys.argv[1]))
