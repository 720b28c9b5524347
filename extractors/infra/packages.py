"""Package manifests → catalog rows `packages`, with versions resolved from lock files.

Manifests: `package.json` (dependencies, devDependencies, peer/optional), pip requirement
files (`requirements*.txt|.in`, `*-requirements.txt`, every `.txt|.in` under a `requirements/`
folder, and whatever one of those includes with `-r other.txt`), `pyproject.toml` (PEP 621 `[project]`, optional deps, `[dependency-groups]`, Poetry),
`Pipfile`. Each row: name = package, `line` = the dependency's line in the manifest, attrs
`ecosystem` (npm|pypi), `package`, `declared` (the range as written), `version` (from the
lock file next to the manifest: package-lock.json v1-v3, yarn.lock, pnpm-lock.yaml,
poetry.lock, uv.lock, Pipfile.lock; else an exact `==` pin; else null), `dev`.
Stack hints (`nextjs`, `express`, `fastapi`, ...) go to `ctx.shared.stack` and the
manifest's code_file attr `stack`.
"""

from __future__ import annotations

import json
import posixpath
import re
import tomllib
from typing import Any

import yaml

from extractors.base import ComponentContext
from extractors.facts import CatalogRow, Node
from extractors.shared import CodeSymbols, StackHints
from extractors.source import SourceFile
from vocab import STACK_HINTS, safe_yaml

NAME = "packages"
PROVIDES = (StackHints,)
REQUIRES = (CodeSymbols,)  # a manifest that is already a code_file gets its attrs
_INCLUDE = re.compile(r"^\s*(?:-r|--requirement)[\s=]\s*(\S+)")
_REQ = re.compile(r"^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;#]*)")
_BAD_LOCK = (ValueError, KeyError, TypeError, AttributeError, RecursionError)
LOCK_MAX_NODES = 5_000_000  # pnpm-lock.yaml of a large monorepo; an alias bomb is far more
_YARN_HEAD = re.compile(r'^"?((?:@[^@/"]+/)?[^@/"\s]+)@')


def _pypi(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _line_of(text: str, name: str, after: int = 0) -> int | None:
    """1-based line of the first mention of `name` (as a key or a quoted item) after a line."""
    pattern = re.compile(rf'^\s*["\']?{re.escape(name)}(["\'\s=<>~!\[:;,]|$)', re.I | re.M)
    lines = text.splitlines()
    for i in range(after, len(lines)):
        if pattern.search(lines[i]) or re.search(
            rf'["\']{re.escape(name)}[\s=<>~!\[;"\']', lines[i], re.I
        ):
            return i + 1
    return None


class Locks:
    """Resolved versions from the lock files of one folder."""

    def __init__(self, ctx: ComponentContext, folder: str):
        self.npm: dict[str, str] = {}
        self.npm_ranges: dict[tuple[str, str], str] = {}
        self.pypi: dict[str, str] = {}
        self.sources: list[str] = []

        def read(name: str) -> str | None:
            sf = ctx.files.get(posixpath.join(folder, name) if folder else name)
            if sf is not None:
                self.sources.append(sf.rel)
            return sf.text if sf is not None else None

        try:
            self._load(read)
        except (*_BAD_LOCK, yaml.YAMLError, tomllib.TOMLDecodeError) as exc:
            mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
            line = mark.line + 1 if mark is not None else getattr(exc, "lineno", None)
            what = getattr(exc, "problem", None) or next(iter(str(exc).splitlines()), "")
            ctx.problem(
                "warning",
                self.sources[-1] if self.sources else folder or ".",
                line,
                "lock-file",
                f"lock file unreadable, versions not resolved: {what or type(exc).__name__}",
            )

    def _load(self, read) -> None:
        if text := read("package-lock.json"):
            data = json.loads(text)
            for key, info in (data.get("packages") or {}).items():
                if key.startswith("node_modules/") and "/node_modules/" not in key[13:]:
                    self.npm.setdefault(key[13:], str(info.get("version", "")))
            for name, info in (data.get("dependencies") or {}).items():  # lockfile v1
                if isinstance(info, dict) and info.get("version"):
                    self.npm.setdefault(name, str(info["version"]))
        if text := read("yarn.lock"):
            heads: list[str] = []
            for line in text.splitlines():
                if line and not line.startswith((" ", "#")):
                    heads = [h.strip().strip('"') for h in line.rstrip(":").split(",")]
                elif heads and (m := re.match(r'^\s+version:?\s+"?([^"\s]+)"?', line)):
                    for head in heads:
                        if hm := _YARN_HEAD.match(head):
                            name = hm.group(1)
                            self.npm_ranges[(name, head[len(name) + 1 :].removeprefix("npm:"))] = (
                                m.group(1)
                            )
                            self.npm.setdefault(name, m.group(1))
                    heads = []
        if text := read("pnpm-lock.yaml"):
            data = safe_yaml.load(text, max_nodes=LOCK_MAX_NODES) or {}
            sections = [data] + list((data.get("importers") or {}).values())[:1]
            for sec in sections:
                for kind in ("dependencies", "devDependencies", "optionalDependencies"):
                    for name, info in (sec.get(kind) or {}).items():
                        version = info.get("version") if isinstance(info, dict) else info
                        if isinstance(version, str | int | float):
                            self.npm.setdefault(name, str(version).split("(")[0])
        for lock in ("poetry.lock", "uv.lock"):
            if text := read(lock):
                for pkg in tomllib.loads(text).get("package", []):
                    if pkg.get("name") and pkg.get("version"):
                        self.pypi.setdefault(_pypi(pkg["name"]), str(pkg["version"]))
        if text := read("Pipfile.lock"):
            data = json.loads(text)
            for section in ("default", "develop"):
                for name, info in (data.get(section) or {}).items():
                    if isinstance(info, dict) and str(info.get("version", "")).startswith("=="):
                        self.pypi.setdefault(_pypi(name), info["version"][2:])

    def version(self, ecosystem: str, name: str, declared: str) -> str | None:
        if ecosystem == "npm":
            return self.npm_ranges.get((name, declared)) or self.npm.get(name) or None
        found = self.pypi.get(_pypi(name))
        if found:
            return found
        m = re.fullmatch(r"\s*===?\s*([\w.!+-]+)\s*", declared or "")
        return m.group(1) if m else None


def requirement_files(ctx: ComponentContext) -> set[str]:
    """Pip requirement files: by name, under a `requirements/` folder, and `-r` includes."""
    found = {
        rel
        for rel in ctx.files
        if rel.endswith((".txt", ".in"))
        and (
            re.search(r"(^|[-_.])requirements([-_.][^/]*)?\.(txt|in)$", posixpath.basename(rel))
            or "requirements" in rel.split("/")[:-1]
        )
    }
    todo = sorted(found)
    while todo:
        rel = todo.pop()
        for raw in ctx.files[rel].text.splitlines():
            if m := _INCLUDE.match(raw):
                target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), m.group(1)))
                if target in ctx.files and target not in found:
                    found.add(target)
                    todo.append(target)
    return found


def extract(ctx: ComponentContext) -> None:
    locks: dict[str, Locks] = {}
    files: dict[str, Node] | None = None
    requirements = requirement_files(ctx)
    for rel, sf in sorted(ctx.files.items()):
        base = posixpath.basename(rel)
        folder = posixpath.dirname(rel)
        if base == "package.json":
            deps = _package_json(sf)
            for section in _misshapen_sections(sf) if deps is not None else ():
                ctx.problem("warning", rel, _line_of(sf.text, section), "manifest",
                            f"package.json: {section} is not a mapping of name: version — "
                            "its packages are not read")  # fmt: skip
        elif rel in requirements:
            deps = _requirements(sf)
        elif base == "pyproject.toml":
            deps = _pyproject(sf)
        elif base == "Pipfile":
            deps = _pipfile(sf)
        else:
            continue
        if deps is None:
            ctx.problem("warning", rel, None, "manifest", f"{base}: not valid, packages not read")
            continue
        lock = locks.setdefault(folder, Locks(ctx, folder))
        ecosystem = "npm" if base == "package.json" else "pypi"
        stack: set[str] = set()
        seen: set[str] = set()
        for name, declared, dev, line in deps:
            if name in seen:
                continue
            seen.add(name)
            if name in STACK_HINTS and (not dev or name == "typescript"):
                stack.add(STACK_HINTS[name])
            ctx.facts.catalog.append(CatalogRow("packages", ctx.project, ctx.component, name, rel, line, {
                "ecosystem": ecosystem, "package": name, "declared": declared,
                "version": lock.version(ecosystem, name, declared), "dev": dev,
                "lock_file": lock.sources[0] if lock.sources else None,
            }))  # fmt: skip
        if ecosystem == "pypi" and deps:
            stack.add("python")
        ctx.shared.stack.names.update(stack)
        if files is None:  # first node per id, as a scan of ctx.facts.nodes finds
            files = {}
            for node in ctx.facts.nodes:
                files.setdefault(node.id, node)
        _manifest_node(ctx, sf, sorted(stack), len(seen), files)


def _manifest_node(
    ctx: ComponentContext, sf: SourceFile, stack: list[str], count: int, files: dict[str, Node]
) -> None:
    node_id = ctx.node_id("code_file", sf.rel)
    node = files.get(node_id)
    if node is not None:
        node.attrs.update(stack=stack, manifest=True, dependencies=count)
        return
    end = sf.data.count(b"\n") + 1
    node = Node(node_id, "code_file", sf.rel, ctx.project, ctx.component, sf.rel, 1, end,
                {"language": "manifest", "manifest": True, "stack": stack, "dependencies": count})  # fmt: skip
    ctx.facts.nodes.append(node)
    files[node_id] = node


Dep = tuple[str, str, bool, int | None]


def _package_json(sf: SourceFile) -> list[Dep] | None:
    try:
        data = json.loads(sf.text)
    except (ValueError, RecursionError):  # RecursionError: nested thousands deep
        return None
    if not isinstance(data, dict):
        return None
    text, out = sf.text, []
    for section, dev in (("dependencies", False), ("devDependencies", True),
                         ("peerDependencies", False), ("optionalDependencies", False)):  # fmt: skip
        deps = data.get(section)
        if not isinstance(deps, dict):
            continue
        start = (_line_of(text, section) or 1) - 1
        for name, declared in deps.items():
            out.append((name, str(declared), dev, _line_of(text, name, start)))
    return out


def _misshapen_sections(sf: SourceFile) -> list[str]:
    """Dependency sections of a package.json that are present but not a mapping."""
    try:
        data = json.loads(sf.text)
    except (ValueError, RecursionError):
        return []
    sections = ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
    return [s for s in sections if s in data and not isinstance(data[s], dict)]


def _requirements(sf: SourceFile) -> list[Dep]:
    dev = bool(re.search(r"dev|test|lint|doc", posixpath.basename(sf.rel)))
    out = []
    for i, raw in enumerate(sf.text.splitlines(), start=1):
        line = raw.split(" #", 1)[0].strip()
        if not line or line.startswith(("#", "-", "git+", "http:", "https:", ".", "/")):
            continue
        if m := _REQ.match(line):
            out.append((_pypi(m.group(1)), m.group(3).strip(), dev, i))
    return out


def _pep508(spec: str) -> tuple[str, str] | None:
    m = _REQ.match(spec)
    return (m.group(1), m.group(3).strip()) if m else None  # name as written


def _poetry_spec(value: Any) -> str:
    if isinstance(value, dict):
        return str(value.get("version", ""))
    return str(value)


def _pyproject(sf: SourceFile) -> list[Dep] | None:
    try:
        data = tomllib.loads(sf.text)
    except tomllib.TOMLDecodeError:
        return None
    text, out = sf.text, []

    def add(name: str, declared: str, dev: bool, section: str) -> None:
        out.append(
            (_pypi(name), declared, dev, _line_of(text, name, (_line_of(text, section) or 1) - 1))
        )

    project = data.get("project") or {}
    for spec in project.get("dependencies") or []:
        if dep := _pep508(spec):
            add(dep[0], dep[1], False, "dependencies")
    for group, specs in (project.get("optional-dependencies") or {}).items():
        for spec in specs:
            if dep := _pep508(spec):
                add(
                    dep[0],
                    dep[1],
                    bool(re.search(r"dev|test|lint|doc", group)),
                    "[project.optional-dependencies]",
                )
    for specs in (data.get("dependency-groups") or {}).values():
        for spec in specs:
            if isinstance(spec, str) and (dep := _pep508(spec)):
                add(dep[0], dep[1], True, "[dependency-groups]")
    poetry = (data.get("tool") or {}).get("poetry") or {}
    for name, value in (poetry.get("dependencies") or {}).items():
        if name.lower() != "python":
            add(name, _poetry_spec(value), False, "[tool.poetry.dependencies]")
    for name, value in (poetry.get("dev-dependencies") or {}).items():
        add(name, _poetry_spec(value), True, "[tool.poetry.dev-dependencies]")
    for group, info in (poetry.get("group") or {}).items():
        for name, value in ((info or {}).get("dependencies") or {}).items():
            add(
                name,
                _poetry_spec(value),
                group != "main",
                f"[tool.poetry.group.{group}.dependencies]",
            )
    return out


def _pipfile(sf: SourceFile) -> list[Dep] | None:
    try:
        data = tomllib.loads(sf.text)
    except tomllib.TOMLDecodeError:
        return None
    out = []
    for section, dev in (("packages", False), ("dev-packages", True)):
        start = (_line_of(sf.text, f"[{section}]") or 1) - 1
        for name, value in (data.get(section) or {}).items():
            out.append((_pypi(name), _poetry_spec(value), dev, _line_of(sf.text, name, start)))
    return out
