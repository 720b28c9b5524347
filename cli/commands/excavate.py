"""`kb excavate`: draft component.md and an architecture doc from the published code graph.

The drafts are what the code says today, marked verified against the component's current
version. A file a person already wrote is never overwritten: the draft goes next to it
as `<name>.proposed.md` and a unified diff is printed.
"""

from __future__ import annotations

import argparse
import difflib
from pathlib import Path
from typing import Any

from cli.common import UserError, add_kb_option
from vocab import STACK_HINTS
from warehouse.reader import parse_attrs

CLUE_FILES = {
    "Dockerfile": ("runtime", "container image (Cloud Run or similar)"),
    "app.yaml": ("runtime", "App Engine (app.yaml)"),
    "firebase.json": ("runtime", "Firebase Hosting / Functions (firebase.json)"),
    "cloudbuild.yaml": ("deploy", "Cloud Build (cloudbuild.yaml)"),
    "vercel.json": ("runtime", "Vercel (vercel.json)"),
    ".circleci/config.yml": ("deploy", "CircleCI (.circleci/config.yml)"),
}
SECRETISH = ("TOKEN", "SECRET", "PASSWORD", "PASS", "KEY", "CREDENTIALS")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "excavate",
        help="draft component.md + architecture doc from the code graph (never overwrites)",
        description="Read the published graph of a project and draft, per component, "
        "component.md (role, stack, runtime/deploy clues, env vars, secrets as pointers, "
        "calls) and architecture.md (routes → handlers → middleware, outbound calls). "
        "Existing files get a .proposed.md next to them and a printed diff.",
    )
    add_kb_option(parser, writes=True)
    parser.add_argument("--project", required=True, metavar="P")
    parser.add_argument("--component", default=None, metavar="C")
    parser.set_defaults(handler=run)


def _files(repo: Path | None) -> list[str]:
    from verification.code import repo_files

    return sorted(repo_files(repo)[0])


def _clues(files: list[str]) -> list[str]:
    out = [why for name, (_, why) in CLUE_FILES.items() if name in files]
    if any(f.startswith(".github/workflows/") for f in files):
        out.append("GitHub Actions (.github/workflows/)")
    if any(f.endswith(".tf") for f in files):
        out.append("Terraform (*.tf)")
    return out


def _role(stack: set[str], routes: int, files: list[str]) -> str:
    if any(f.endswith(".tf") for f in files) and not routes:
        return "infra"
    if "contentful" in stack:
        return "cms"
    if "firebase" in stack and any(f.startswith("functions/") or "functions" in f for f in files):
        return "functions" if routes else "frontend"
    if stack & {"nextjs", "vue", "nuxt", "react"}:
        return "frontend"
    return "api" if routes else "library"


def draft(kb, project: str, comp, nodes, edges, packages: set[str]) -> tuple[str, str]:
    """(component.md text, architecture.md text) for one component."""
    import yaml

    from kb.versions import component_version

    mine = nodes.filter(nodes["component"] == comp.id)
    by_id = {n["id"]: n for n in nodes.to_dicts()}
    rows = lambda kind: sorted(mine.filter(mine["kind"] == kind).to_dicts(), key=lambda n: n["id"])  # noqa: E731
    files = _files(comp.repo_path)
    stack = {STACK_HINTS[p] for p in packages if p in STACK_HINTS}
    if any(f.endswith(".tf") for f in files):
        stack.add("terraform")
    if any(f.endswith(".py") for f in files):
        stack.add("python")
    if any(f.endswith((".ts", ".tsx")) for f in files):
        stack.add("typescript")
    routes, envs = rows("route"), rows("env_var")
    calls: list[dict[str, str]] = []
    targets: dict[str, list[str]] = {}
    for e in edges.filter(edges["type"] == "CALLS").to_dicts():
        src, dst = by_id.get(e["src"]), by_id.get(e["dst"])
        if src and dst and src.get("component") == comp.id:
            targets.setdefault(src["id"], []).append(f"{dst['component']} `{dst['name']}`")
            via = parse_attrs(e.get("attrs")).get("via")
            if via and dst.get("component") != comp.id:
                calls.append({"env_var": via, "component": dst["component"]})
    outbound = [
        f"`{n['name']}` (`{n.get('file')}:{n.get('line')}`) → "
        + (", ".join(sorted(set(targets.get(n["id"], [])))) or "outside the project / unresolved")
        for n in rows("http_call")
    ]
    version = component_version(comp.repo_path)
    front: dict[str, Any] = {
        "kind": "component", "project": project, "id": comp.id,
        "title": comp.field("title") or comp.id,
        "role": _role(stack, len(routes), files),
        "repo": comp.field("repo") or f"{project}/{comp.id}",
        "stack": sorted(stack),
    }  # fmt: skip
    if comp.envs:
        front["envs"] = comp.envs
    uniq_calls = [dict(t) for t in sorted({tuple(sorted(c.items())) for c in calls})]
    if uniq_calls:
        front["calls"] = uniq_calls
    front["source"] = ["code"]
    from kb.validate import kb_today

    today = kb_today().isoformat()
    front["verification"] = {
        "status": "verified",
        "verified_against": version,
        "verified_at": today,
    }
    secrets = [n["name"] for n in envs if any(s in n["name"] for s in SECRETISH)]
    body = [f"# {front['title']}", "", "Drafted by `kb excavate` from the code graph.", ""]
    body += ["## Runtime and deploy clues", ""] + [f"- {c}" for c in _clues(files)] or [
        "- none found"
    ]
    body += ["", "## Environment variables read", ""]
    body += [f"- `{n['name']}` (`{n.get('file')}:{n.get('line')}`)" for n in envs] or ["- none"]
    body += ["", "## Secrets (pointers only — add store/ref to `secrets:`)", ""]
    body += [f"- `{s}`" for s in secrets] or ["- none"]
    component_md = "---\n" + yaml.safe_dump(front, sort_keys=False, width=100) + "---\n"
    component_md += "\n".join(body) + "\n"
    arch = [
        "---", "kind: doc", f"project: {project}", f"component: {comp.id}", "type: architecture",
        f"title: {front['title']} architecture", "source: [code]", "verification:",
        "  status: verified", f"  verified_against: {version}", f"  verified_at: {today}", "---",
        f"# {front['title']} architecture", "", "Drafted by `kb excavate` from the code graph.",
        "", "## Routes", "", "| route | middleware (in order) | handler |", "| --- | --- | --- |",
    ]  # fmt: skip
    for r in routes:
        mids = sorted(
            (
                int(parse_attrs(e.get("attrs")).get("order") or 0),
                by_id.get(e["dst"], {}).get("name", "?"),
            )
            for e in edges.filter(
                (edges["src"] == r["id"]) & (edges["type"] == "USES_MIDDLEWARE")
            ).to_dicts()
        )
        handlers = [
            by_id.get(e["dst"], {}).get("name", e["dst"])
            for e in edges.filter(
                (edges["src"] == r["id"]) & (edges["type"] == "ROUTES_TO")
            ).to_dicts()
        ]
        arch.append(
            f"| `{r['name']}` (`{r.get('file')}:{r.get('line')}`) | "
            f"{', '.join(f'`{m}`' for _, m in mids) or '—'} | "
            f"{', '.join(f'`{h}`' for h in handlers) or '—'} |"
        )
    if not routes:
        arch.append("| — | — | — |")
    arch += ["", "## Outbound calls", ""] + (
        [f"- {o}" for o in sorted(set(outbound))] or ["- none"]
    )
    return component_md, "\n".join(arch) + "\n"


def _write(target: Path, text: str, root: Path) -> str:
    rel = target.relative_to(root).as_posix()
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return f"wrote {rel}"
    old = target.read_text(encoding="utf-8")
    if old == text:
        return f"{rel}: unchanged"
    proposed = target.with_name(target.stem + ".proposed.md")
    proposed.write_text(text, encoding="utf-8")
    diff = difflib.unified_diff(
        old.splitlines(keepends=True), text.splitlines(keepends=True), rel, f"{rel} (proposed)"
    )
    print("".join(diff), end="")
    return f"{rel} exists (a person's file is never overwritten): proposal in {proposed.name}"


def run(args: argparse.Namespace) -> int:
    from cli.common import load_kb_or_exit
    from warehouse.reader import Warehouse, WarehouseMissing

    kb = load_kb_or_exit(args)
    proj = kb.projects.get(args.project)
    if proj is None:
        raise UserError(f"--project {args.project}: no such project in the KB")
    comps = [proj.components[args.component]] if args.component in proj.components else []
    if args.component and not comps:
        raise UserError(f"--component {args.component}: not a component of {args.project}")
    comps = comps or [proj.components[c] for c in sorted(proj.components)]
    try:
        wh = Warehouse(Path(kb.config.data_dir))
        nodes, edges = wh.read(args.project, "nodes"), wh.read(args.project, "edges")
        catalog = wh.read("_global", "catalog_packages")
    except (WarehouseMissing, FileNotFoundError, KeyError):
        raise UserError(f"no published graph for {args.project} — run `kb refresh` first") from None
    for comp in comps:
        pk = catalog.filter(
            (catalog["project"] == args.project) & (catalog["component"] == comp.id)
        )
        component_md, arch_md = draft(
            kb, args.project, comp, nodes, edges, set(pk["package"].to_list())
        )
        folder = kb.config.root / "projects" / args.project / comp.id
        print(_write(folder / "component.md", component_md, kb.config.root))
        print(_write(folder / "architecture.md", arch_md, kb.config.root))
    return 0
