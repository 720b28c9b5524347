"""Is the rewritten program still a program? A rewritten file must parse without ERROR nodes
(our grammar), compile (Python) and pass `node --check` (plain .js/.cjs/.mjs, when the
original passes it: JSX in .js or ESM syntax a CommonJS package cannot load are the
original's business, not ours). A failure is a rewriter bug, reported with file and reason."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench.metamorphic.syntax import load, module_kind

NODE_CHECKED = (".js", ".cjs", ".mjs")


@dataclass(frozen=True)
class Invalid:
    file: str
    why: str


CHECKER = Path(__file__).with_name("node_check.js")


def node_check(paths: list[tuple[Path, str]]) -> dict[Path, str | None]:
    """Syntax errors by file (None: fine), all files in one node process."""
    if not paths:
        return {}
    done = subprocess.run(
        ["node", "--experimental-vm-modules", "--no-warnings", str(CHECKER)],
        input=json.dumps([[str(p), kind] for p, kind in paths]),
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"node_check.js failed: {done.stderr.strip()[-300:]}")
    return {Path(p): err for p, err in json.loads(done.stdout)}


def _module_kind(rel: str, data: bytes, package: bytes | None) -> str:
    """The parse goal: .mjs/.cjs, else package.json "type", else what the file's top level
    says (import/export statements: a module, as every bundler reads it)."""
    if rel.endswith(".mjs"):
        return "esm"
    if rel.endswith(".cjs"):
        return "cjs"
    try:
        kind = json.loads(package).get("type") if package else None
    except ValueError:
        kind = None
    if kind == "module":
        return "esm"
    src = load(rel, data)
    return module_kind(src) if src is not None else "cjs"


def check_files(
    originals: dict[str, bytes],
    rewritten: dict[str, bytes],
    origins: dict[str, str] | None = None,
    node: bool = True,
) -> list[Invalid]:
    """Problems of the rewritten files (changed and new). A new file carved out of an
    original (`origins`) is held to the standard the original meets (a .js file with JSX
    fails `node --check` before and after)."""
    origins = origins or {}
    bad: list[Invalid] = []
    use_node = node and shutil.which("node") is not None
    node_files: list[str] = []
    for rel, data in sorted(rewritten.items()):
        src = load(rel, data)
        if src is None:
            continue
        before = load(rel, originals[rel]) if rel in originals else None
        if src.has_errors() and not (before is not None and before.has_errors()):
            bad.append(Invalid(rel, f"tree-sitter ERROR near line {_first_error_line(src)}"))
            continue
        if rel.endswith(".py"):
            try:
                compile(data, rel, "exec", dont_inherit=True)
            except SyntaxError as exc:
                if rel not in originals or _compiles(originals[rel], rel):
                    bad.append(Invalid(rel, f"compile: {exc.msg} (line {exc.lineno})"))
        elif rel.endswith(NODE_CHECKED):
            node_files.append(rel)
    if use_node and node_files:
        bad.extend(_node_check(originals, rewritten, node_files, origins))
    return bad


def _node_check(
    originals: dict[str, bytes],
    rewritten: dict[str, bytes],
    rels: list[str],
    origins: dict[str, str],
) -> list[Invalid]:
    package = originals.get("package.json")
    with tempfile.TemporaryDirectory(prefix="kb-meta-node-") as tmp:
        jobs: list[tuple[Path, str]] = []
        for rel in rels:
            before_data = originals.get(rel, originals.get(origins.get(rel, "")))
            for tag, data in (("before", before_data), ("after", rewritten[rel])):
                if data is not None:
                    kind = _module_kind(rel, data, package)
                    path = Path(tmp) / tag / rel
                    path.parent.mkdir(parents=True, exist_ok=True)
                    path.write_bytes(data)
                    jobs.append((path, kind))
        errors = node_check(jobs)
    bad = []
    for rel in rels:
        known = rel in originals or origins.get(rel) in originals
        before = errors.get(Path(tmp) / "before" / rel) if known else None
        after = errors.get(Path(tmp) / "after" / rel)
        if after is not None and before is None:
            bad.append(Invalid(rel, f"node --check: {after}"))
    return bad


def _compiles(data: bytes, rel: str) -> bool:
    try:
        compile(data, rel, "exec", dont_inherit=True)
        return True
    except SyntaxError:
        return False


def _first_error_line(src) -> int:
    stack = [src.root]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            return n.start_point[0] + 1
        stack.extend(reversed(n.children))
    return 0
