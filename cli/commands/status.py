"""`kb status`: what is stale and why — code graphs, indexes, ADRs, verifications."""

from __future__ import annotations

import argparse

from cli.common import add_kb_option, load_kb_or_exit


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        "status", help="what is stale and why (code graph, indexes, ADRs, docs)"
    )
    add_kb_option(parser)
    parser.set_defaults(handler=handle)


def handle(args: argparse.Namespace) -> int:
    from cli.commands.validate import run_validation
    from kb.indexes import stale_indexes
    from pipeline.fastpath import staleness
    from warehouse.reader import GLOBAL, Warehouse, WarehouseMissing

    kb = load_kb_or_exit(args)
    data_dir = kb.config.data_dir
    warnings: list[str] = []
    try:
        warehouse = Warehouse(data_dir)
        manifest = warehouse.manifest()
        print(f"warehouse: build {manifest['build_id']} at {manifest['built_at']} ({data_dir})")
        built = manifest.get("components") or {}
        coverage = warehouse.read(GLOBAL, "coverage")
        if "warning" in coverage.columns:
            warnings = [w for w in coverage["warning"].to_list() if w]
    except WarehouseMissing:
        print(f"warehouse: never built ({data_dir}) — `kb refresh` builds it")
        built = {}
    state = staleness(kb, data_dir, verify=True)  # every checksum: a flipped byte shows
    stale = set(state.stale_components)
    for comp in kb.components():
        if comp.repo_path is not None and not comp.repo_path.is_dir():
            entry = built.get(comp.key) or {}
            kept = entry.get("kept_from") or (
                entry.get("version") if entry.get("version") not in (None, "missing") else None
            )
            held = f"its facts from {kept} are kept" if kept else "no facts (never extracted)"
            print(
                f"  {comp.key}: missing: no checkout at {comp.repo_path} — {held}; clone it or fix `repo:`"
            )
            continue
        if comp.key not in built:
            print(f"  {comp.key}: never built")
            continue
        was = built[comp.key].get("version") or "no code version"
        if comp.key in stale:
            now = next(
                (r.split(", now ")[-1] for r in state.reasons if r.startswith(comp.key + ":")), "?"
            )
            print(f"  {comp.key}: code_graph_stale: built {was} now {now}")
        else:
            print(f"  {comp.key}: current ({was})")
    for warning in warnings:  # a declared framework or client the graph has nothing from
        print(f"warning: {warning}")
    others = [r for r in state.reasons if not any(r.startswith(k + ":") for k in stale)]
    for reason in others:
        print(f"stale: {reason}")
    indexes = stale_indexes(kb)
    print("kb_index_stale: " + (", ".join(indexes) if indexes else "no (index/ is current)"))
    problems = run_validation(kb)
    for problem in problems:
        if problem.rule in {"adr-stale", "verification-old"}:
            print(f"{problem.path}:{problem.line}: {problem.message}")
    errors = sum(p.severity == "error" for p in problems)
    print(
        f"validation: {errors} error(s), {len(problems) - errors} warning(s) — `kb validate` lists them"
    )
    print(
        "up to date"
        if state.up_to_date and not indexes
        else "run `kb refresh` to rebuild what is stale"
    )
    return 0
