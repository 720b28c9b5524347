"""`kb excavate`: draft component.md and an architecture doc from the published code graph.

The drafts are what the code says today, marked `unverified` (a person checks them, then
`kb verify`). A file a person already wrote is never overwritten: their file with the
draft merged in (everything they wrote kept, only additions proposed) goes next to it as
`<name>.proposed.md`, and the diff is printed. What only tests read or call is listed
apart, never as the component's own env vars or calls.
"""

from __future__ import annotations

import argparse
import difflib
import re
from pathlib import Path
from typing import Any

from cli.common import UserError, add_kb_option
from vocab import STACK_HINTS

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


def _render(front: dict[str, Any], title: str, sections) -> str:
    import yaml

    body = [f"# {title}", "", "Drafted by `kb excavate` from the code graph (unverified).", ""]
    for heading, items in sections:
        body += [f"## {heading}", "", *([line for _, line in items] or ["- none"]), ""]
    text = "---\n" + yaml.safe_dump(front, sort_keys=False, width=100) + "---\n"
    return text + "\n".join(body).rstrip("\n") + "\n"


def _routes(routes, edges, by_id) -> list[tuple[str, str]]:
    from warehouse.reader import dict_rows

    rows = []
    for r in routes:
        mids = sorted(
            (
                int((e.get("attrs") or {}).get("order") or 0),
                by_id.get(e["dst"], {}).get("name", "?"),
            )
            for e in dict_rows(
                edges.filter((edges["src"] == r["id"]) & (edges["type"] == "USES_MIDDLEWARE"))
            )
        )
        handlers = [
            by_id.get(e["dst"], {}).get("name", e["dst"])
            for e in edges.filter(
                (edges["src"] == r["id"]) & (edges["type"] == "ROUTES_TO")
            ).to_dicts()
        ]
        rows.append(
            (
                r["name"],
                f"- `{r['name']}` (`{r.get('file')}:{r.get('line')}`) — middleware "
                f"{', '.join(f'`{m}`' for _, m in mids) or '—'}; handler "
                f"{', '.join(f'`{h}`' for h in handlers) or '—'}",
            )
        )
    return rows


def draft(kb, project: str, comp, nodes, edges, packages: set[str]) -> tuple[dict, list, list]:
    """(component frontmatter, component.md sections, architecture.md sections) for one
    component. A section is (heading, [(subject, markdown line)]); what only tests read or
    call (e2e/, tests/, *.spec.*) is listed apart, never as the component's own."""
    from vocab import is_test_path
    from warehouse.reader import dict_rows

    mine = nodes.filter(nodes["component"] == comp.id)
    by_id = {n["id"]: n for n in nodes.to_dicts()}
    rows = lambda kind: sorted(mine.filter(mine["kind"] == kind).to_dicts(), key=lambda n: n["id"])  # noqa: E731
    files = _files(comp.repo_path)
    own_files = [f for f in files if not is_test_path(f)]
    stack = {STACK_HINTS[p] for p in packages if p in STACK_HINTS}
    if any(f.endswith(".tf") for f in own_files):
        stack.add("terraform")
    if any(f.endswith(".py") for f in own_files):
        stack.add("python")
    if any(f.endswith((".ts", ".tsx")) for f in own_files):
        stack.add("typescript")
    routes = rows("route")
    envs = [n for n in rows("env_var") if not is_test_path(n.get("file"))]
    test_only = [n for n in rows("env_var") + rows("http_call") if is_test_path(n.get("file"))]
    calls: list[dict[str, str]] = []
    targets: dict[str, list[str]] = {}
    for e in dict_rows(edges.filter(edges["type"] == "CALLS")):
        src, dst = by_id.get(e["src"]), by_id.get(e["dst"])
        if src and dst and src.get("component") == comp.id and not is_test_path(src.get("file")):
            targets.setdefault(src["id"], []).append(f"{dst['component']} `{dst['name']}`")
            entry = _calls_entry(str((e.get("attrs") or {}).get("via") or ""))
            if entry and dst.get("component") != comp.id:
                calls.append({**entry, "component": dst["component"]})
    outbound = [
        (
            n["name"],
            f"- `{n['name']}` (`{n.get('file')}:{n.get('line')}`) → "
            + (
                ", ".join(sorted(set(targets.get(n["id"], []))))
                or "outside the project / unresolved"
            ),
        )
        for n in rows("http_call")
        if not is_test_path(n.get("file"))
    ]
    front: dict[str, Any] = {
        "kind": "component", "project": project, "id": comp.id,
        "title": comp.field("title") or comp.id,
        "role": _role(stack, len(routes), own_files),
        "repo": comp.field("repo") or f"{project}/{comp.id}",
        "stack": sorted(stack),
    }  # fmt: skip
    if comp.envs:
        front["envs"] = comp.envs
    uniq_calls = [dict(t) for t in sorted({tuple(sorted(c.items())) for c in calls})]
    if uniq_calls:
        front["calls"] = uniq_calls
    front["source"] = ["code"]
    # Machine output is never verified: a person checks it, then runs `kb verify`.
    front["verification"] = {"status": "unverified"}
    secrets = [n["name"] for n in envs if any(s in n["name"] for s in SECRETISH)]
    tests = [
        (n["name"], f"- `{n['name']}` ({n['kind']}, `{n.get('file')}:{n.get('line')}`)")
        for n in test_only
    ]
    comp_sections = [
        ("Runtime and deploy clues", [(c, f"- {c}") for c in _clues(own_files)]),
        (
            "Environment variables read",
            [(n["name"], f"- `{n['name']}` (`{n.get('file')}:{n.get('line')}`)") for n in envs],
        ),
        (
            "Secrets (pointers only — add store/ref to `secrets:`)",
            [(s, f"- `{s}`") for s in secrets],
        ),
        ("Read or called only by tests (not the component's own)", tests),
    ]
    arch_sections = [
        ("Routes", _routes(routes, edges, by_id)),
        ("Outbound calls", sorted(set(outbound))),
    ]
    return front, comp_sections, arch_sections


def _arch_front(project: str, comp_id: str, title: str) -> dict[str, Any]:
    return {
        "kind": "doc", "project": project, "component": comp_id, "type": "architecture",
        "title": f"{title} architecture", "source": ["code"],
        "verification": {"status": "unverified"},
    }  # fmt: skip


def _write(
    target: Path, front: dict[str, Any], title: str, sections, root: Path, commit: str
) -> str:
    """A new file gets the whole draft; a person's file is never overwritten: the draft is
    merged into a copy of it (their text kept, additions proposed) next to it."""
    from kb.merge import merge_into

    rel = target.relative_to(root).as_posix()
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(_render(front, title, sections), encoding="utf-8")
        return (
            f"wrote {rel} (unverified: check it against the code, then "
            f"`kb verify {rel} --against {commit}`)"
        )
    old = target.read_text(encoding="utf-8")
    text = merge_into(old, front, sections)
    if old == text:
        return f"{rel}: nothing to add"
    proposed = target.with_name(target.stem + ".proposed.md")
    proposed.write_text(text, encoding="utf-8")
    diff = difflib.unified_diff(
        old.splitlines(keepends=True), text.splitlines(keepends=True), rel, f"{rel} (proposed)"
    )
    print("".join(diff), end="")
    return f"{rel} exists (a person's file is never overwritten): their text plus the additions in {proposed.name}"


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
    built = (wh.manifest().get("components") or {}) if comps else {}
    for comp in comps:
        commit = _drafted_from((built.get(comp.key) or {}).get("version"))
        pk = catalog.filter(
            (catalog["project"] == args.project) & (catalog["component"] == comp.id)
        )
        front, comp_sections, arch_sections = draft(
            kb, args.project, comp, nodes, edges, set(pk["package"].to_list())
        )
        folder = kb.config.root / "projects" / args.project / comp.id
        title = front["title"]
        root = kb.config.root
        print(_write(folder / "component.md", front, title, comp_sections, root, commit))
        arch = _arch_front(args.project, comp.id, title)
        arch_title = f"{title} architecture"
        print(_write(folder / "architecture.md", arch, arch_title, arch_sections, root, commit))
    return 0


def _drafted_from(version: str | None) -> str:
    """The commit the published graph of a component was built from (what its draft says),
    for `kb verify --against`; a placeholder when it was built from uncommitted files."""
    commit = (version or "").split(".", 1)[0]
    if re.fullmatch(r"[0-9a-f]{7,40}", commit) and ".dirty." not in (version or ""):
        return commit
    return "<COMMIT>"


def _calls_entry(via: str) -> dict[str, str] | None:
    """The `calls:` key a CALLS edge's `via` supports: an env var name, or a host."""
    if re.fullmatch(r"[A-Z_][A-Z0-9_]*", via):
        return {"env_var": via}
    if via.startswith("host "):
        return {"host": via.split()[1]}
    return None
