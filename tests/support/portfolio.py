"""Helpers to copy the bundled example portfolio into a temp dir and build it for real.

Imported as `from tests.support.portfolio import ...` (the repo root is on sys.path through
the editable install; tests/ is a package).
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import shutil
import subprocess
import sys
import threading
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
TODAY = "2026-11-29"
IGNORE = shutil.ignore_patterns(".kb", "node_modules", "__pycache__", "*.duckdb")


def git(cwd: Path, *args: str) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.invalid",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.invalid",
    }
    out = subprocess.run(
        ["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True, env=env
    )
    return out.stdout.strip()


def copy_example(dest: Path, with_git: bool = True) -> Path:
    """Copy examples/ to dest (a real git repo with one commit); returns the KB root."""
    shutil.copytree(EXAMPLES, dest, ignore=IGNORE)
    if with_git:
        git(dest, "init", "-q", "-b", "main")
        git(dest, "add", "-A")
        git(dest, "commit", "-q", "-m", "example portfolio")
    return dest / "kb"


TINY_COMPONENTS = {"one": "export const one = () => 1;\n", "two": "export function two() {}\n"}


def tiny_portfolio(root: Path) -> Path:
    """A KB of two components, `one` and `two` (one JS file each), in one git repo; returns
    the KB root."""
    kb = root / "kb"
    (kb / "projects" / "tiny").mkdir(parents=True)
    (kb / "kb.yaml").write_text("name: tiny\nrepos_root: ../repos\n")
    (kb / "projects" / "tiny" / "project.md").write_text(
        "---\nkind: project\nid: tiny\ntitle: Tiny\n---\n# Tiny\n"
    )
    for name, code in TINY_COMPONENTS.items():
        (root / "repos" / name).mkdir(parents=True)
        (root / "repos" / name / "index.js").write_text(code)
        (kb / "projects" / "tiny" / name).mkdir()
        (kb / "projects" / "tiny" / name / "component.md").write_text(
            f"---\nkind: component\nproject: tiny\nid: {name}\ntitle: {name}\n"
            f"role: library\nrepo: {name}\n---\n# {name}\n"
        )
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "tiny portfolio")
    return kb


def commit_to(kb: Path, component: str, line: str) -> None:
    """A line appended to a tiny portfolio component's file, committed."""
    source = kb.parent / "repos" / component / "index.js"
    source.write_text(source.read_text() + line)
    git(kb.parent, "commit", "-qam", f"touch {component}")


# Commands that start Dagster (its log handlers keep the stderr they first saw) or long
# work: always a real process.
_OWN_PROCESS = {"refresh", "import", "serve-refresh", "mcp", "viewer", "dagster"}
# stdout/stderr/environ/cwd are the process's own: in-process calls from threads take turns.
_IN_PROCESS = threading.Lock()


def kb_cli(
    *args: str,
    cwd: Path | None = None,
    env: dict | None = None,
    timeout: int = 300,
    process: bool = False,
) -> subprocess.CompletedProcess:
    """Run the real `kb` CLI and capture what it prints.

    Light commands run in this process through `cli.main.main(argv)` — the console
    script's own entry — with stdout/stderr/stdin, the environment and the working folder
    swapped for the call (the start-up, ~0.5 s of imports, is paid once per test run).
    `process=True` (and every command in `_OWN_PROCESS`) runs the installed `kb` script in
    a subprocess: for what only a process shows (start-up, pipes, signals, Dagster logs)."""
    full_env = {**os.environ, "KB_TODAY": TODAY}
    full_env.pop("DAGSTER_HOME", None)
    full_env.update(env or {})
    if process or (args and args[0] in _OWN_PROCESS):
        kb = Path(sys.executable).with_name("kb")
        return subprocess.run(
            [str(kb), *args], capture_output=True, text=True, cwd=cwd, env=full_env,
            timeout=timeout,
        )  # fmt: skip
    return _in_process(list(args), cwd, full_env)


def refresh(kb: Path, data: Path, *extra: str) -> subprocess.CompletedProcess:
    """`kb refresh` of a KB into a data dir; it must succeed and end with its cost line."""
    result = kb_cli("refresh", "--kb", str(kb), "--data-dir", str(data), *extra)
    assert result.returncode == 0, result.stdout + result.stderr
    last = result.stdout.strip().splitlines()[-1]
    assert last.startswith("kb refresh: ") and " wall, " in last and "peak memory" in last, last
    return result


def _in_process(argv: list[str], cwd: Path | None, env: dict) -> subprocess.CompletedProcess:
    with _IN_PROCESS:
        return _run_main(argv, cwd, env)


def _run_main(argv: list[str], cwd: Path | None, env: dict) -> subprocess.CompletedProcess:
    from cli.main import main

    out, err = (io.TextIOWrapper(io.BytesIO(), encoding="utf-8", write_through=True)
                for _ in range(2))  # fmt: skip
    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    os.environ.clear()
    os.environ.update(env)
    try:
        if cwd is not None:
            os.chdir(cwd)
        with (
            contextlib.redirect_stdout(out),
            contextlib.redirect_stderr(err),
            _stdin(io.StringIO("")),
        ):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse: usage errors (2) and --help (0)
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
                if isinstance(exc.code, str):
                    print(exc.code, file=sys.stderr)
            except Exception:  # what the console script would print before exiting 1
                traceback.print_exc()
                code = 1
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
    text = [s.buffer.getvalue().decode("utf-8", "replace") for s in (out, err)]
    return subprocess.CompletedProcess(["kb", *argv], code, text[0], text[1])


@contextlib.contextmanager
def _stdin(stream):
    saved, sys.stdin = sys.stdin, stream
    try:
        yield
    finally:
        sys.stdin = saved


def build(kb_root: Path, *extra: str) -> subprocess.CompletedProcess:
    result = kb_cli("refresh", "--kb", str(kb_root), *extra)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def built_copy(factory, name: str) -> Path:
    """A copy of the example under `factory.mktemp(name)`, built by the real `kb refresh`."""
    kb_root = copy_example(factory.mktemp(name) / "portfolio")
    build(kb_root)
    return kb_root


def shared_built(factory, name: str) -> Path:
    """`built_copy` made once per test run, also under pytest-xdist: the workers share one
    folder beside their own temp dirs and the first to come builds it (a file lock).
    Read-only for the tests that use it."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        return built_copy(factory, name)
    root = factory.getbasetemp().parent / f"shared-{name}"
    root.mkdir(exist_ok=True)
    with (root / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        kb_root, done = root / "portfolio" / "kb", root / "built"
        if not done.exists():
            shutil.rmtree(root / "portfolio", ignore_errors=True)
            copy_example(root / "portfolio")
            build(kb_root)
            done.touch()
    return kb_root
