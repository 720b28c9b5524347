"""Code facts of one component for drift checks: graph frames + its repo folder.

The graph can miss a dynamic read, so `mentions()` also looks for a name as a whole
word in the component's non-Markdown files.
"""

from __future__ import annotations

import json
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from kb.model import Component, KnowledgeBase
from vocab import CODE_SKIP_DIRS
from vocab.paths import inside, utf8_name
from warehouse.reader import dict_rows
from warehouse.routematch import RouteRef, route_of

TEXT_SUFFIXES = {".md", ".markdown", ".png", ".jpg", ".svg", ".ico", ".lock"}


@dataclass
class ComponentCode:
    """What the code of one component has: the facts drift is checked against."""

    component: Component
    env_names: set[str]
    routes: list[RouteRef]
    packages: set[str]
    files: set[str]  # POSIX paths relative to the repo folder
    dirs: set[str]
    calls_to: set[str]  # component ids this one has CALLS edges to
    text_cache: dict[str, bool]

    @property
    def where(self) -> str:
        return f"repos/{self.component.field('repo')}" if self.component.field("repo") else "?"

    def mentions(self, word: str) -> bool:
        """A non-Markdown file of the repo contains `word` as a whole word."""
        if word in self.text_cache:
            return self.text_cache[word]
        pattern = re.compile(
            rb"(?<![A-Za-z0-9_])" + re.escape(word.encode()) + rb"(?![A-Za-z0-9_])"
        )
        root = self.component.repo_path
        found = False
        for rel in sorted(self.files) if root else []:
            if Path(rel).suffix in TEXT_SUFFIXES:
                continue
            try:
                if pattern.search((root / rel).read_bytes()):
                    found = True
                    break
            except OSError:
                continue
        self.text_cache[word] = found
        return found

    def has_env(self, name: str) -> bool:
        return name in self.env_names or self.mentions(name)

    def has_file(self, rel: str) -> bool:
        rel = rel.strip("/").removeprefix("./")
        return rel in self.files or rel in self.dirs


def repo_files(root: Path | None) -> tuple[set[str], set[str]]:
    """(files, folders) of a repo folder as POSIX paths, without built or vendored folders."""
    files: set[str] = set()
    dirs: set[str] = set()
    if root is None or not root.is_dir():
        return files, dirs
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in CODE_SKIP_DIRS)
        rel_dir = Path(dirpath).relative_to(root).as_posix()
        if rel_dir != ".":
            dirs.add(rel_dir)
        for name in filenames:
            if utf8_name(name):  # extraction names the others in a warning
                files.add(name if rel_dir == "." else f"{rel_dir}/{name}")
    return files, dirs


def _manifest_packages(root: Path | None, files: set[str]) -> set[str]:
    """Package names declared in package.json / requirements*.txt / pyproject.toml."""
    out: set[str] = set()
    for rel in files if root else []:
        name = Path(rel).name
        if not _plain_file(root, root / rel):
            continue
        try:
            if name == "package.json" and "/" not in rel.strip("/"):
                data = json.loads((root / rel).read_text(encoding="utf-8"))
                data = data if isinstance(data, dict) else {}  # extraction warns about it
                for key in ("dependencies", "devDependencies", "peerDependencies"):
                    deps = data.get(key)
                    out.update(deps if isinstance(deps, dict) else {})
            elif name.startswith("requirements") and name.endswith(".txt"):
                for line in (root / rel).read_text(encoding="utf-8").splitlines():
                    m = re.match(r"\s*([A-Za-z0-9_.\-]+)", line)
                    if m and not line.strip().startswith(("#", "-")):
                        out.add(m.group(1).lower())
            elif name == "pyproject.toml":
                text = (root / rel).read_text(encoding="utf-8")
                out.update(
                    m.lower() for m in re.findall(r'"([A-Za-z0-9_.\-]+)\s*[<>=~!\[;"]', text)
                )
        except (OSError, ValueError, RecursionError):
            continue
    return out


def _plain_file(root: Path, path: Path) -> bool:
    """A regular file of the repo, small enough to read whole: never a FIFO (the read
    would block), a device, a link out of the repo or a file of gigabytes."""
    try:
        info = os.stat(path)
    except OSError:
        return False
    return stat.S_ISREG(info.st_mode) and info.st_size <= 5_000_000 and inside(root, path)


def component_code(
    kb: KnowledgeBase, project: str, tables: dict[str, pl.DataFrame]
) -> dict[str, ComponentCode]:
    """Facts per component of `project` from its graph frames and its repo folder."""
    nodes = tables.get("nodes")
    edges = tables.get("edges")
    # Only env vars and routes are read in full (their attrs parsed); of every other node,
    # its component and kind, for the edges' ends. A big project has ~100k rows.
    node_rows = (
        dict_rows(nodes.filter(pl.col("kind").is_in(["env_var", "route"])))
        if (nodes is not None and not nodes.is_empty())
        else []
    )
    env_rows = {n["id"]: n for n in node_rows if n["kind"] == "env_var"}
    by_id: dict[str, tuple[str | None, str]] = (
        dict(zip(nodes["id"], zip(nodes["component"], nodes["kind"], strict=True), strict=True))
        if nodes is not None
        else {}
    )
    out: dict[str, ComponentCode] = {}
    proj = kb.projects.get(project)
    for cid, comp in sorted(proj.components.items()) if proj else []:
        files, dirs = repo_files(comp.repo_path)
        out[cid] = ComponentCode(
            comp, set(), [], _manifest_packages(comp.repo_path, files), files, dirs, set(), {}
        )
    for n in node_rows:
        code = out.get(n.get("component") or "")
        if code is None:
            continue
        attrs = n.get("attrs") or {}
        if n["kind"] == "env_var":
            code.env_names.add(str(attrs.get("name") or n["name"]))
        elif n["kind"] == "route":
            method, path = route_of(n["name"], attrs)
            code.routes.append(RouteRef(n["id"], code.component.id, method, path, n.get("file")))
    read = ["READS_ENV", "CALLS", "USES_PACKAGE"]
    kept = edges.filter(pl.col("type").is_in(read)) if edges is not None else None
    for e in kept.select("src", "dst", "type").to_dicts() if kept is not None else []:
        src, dst = by_id.get(e["src"]), by_id.get(e["dst"])
        if e["type"] == "READS_ENV" and dst is not None and src is not None:
            if dst[1] != "env_var":
                continue  # a config constant read (infra/constants.py), not an env var
            code = out.get(src[0] or "")
            if code is not None:
                var = env_rows[e["dst"]]
                code.env_names.add(str((var.get("attrs") or {}).get("name") or var["name"]))
        elif e["type"] == "CALLS" and src is not None and dst is not None:
            code = out.get(src[0] or "")
            if code is not None and dst[0]:
                code.calls_to.add(str(dst[0]))
        elif e["type"] == "USES_PACKAGE" and e["src"].startswith(f"{project}:component:"):
            code = out.get(e["src"].rsplit(":", 1)[1])
            if code is not None:
                code.packages.add(e["dst"].rsplit(":", 1)[-1])
    packages = tables.get("catalog_packages")
    for row in packages.to_dicts() if packages is not None else []:
        code = out.get(row.get("component") or "")
        if code is not None and row.get("project") == project and row.get("package"):
            code.packages.add(str(row["package"]))
    return out
