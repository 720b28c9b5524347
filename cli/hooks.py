"""Git post-commit hooks that run `kb refresh --service` in the background.

`--service` hands the refresh to the warm refresh service, starting it when none runs
(`pipeline.handoff`), so a commit after the first pays seconds less Dagster start-up.

The hook body sits between marker lines, so `uninstall` removes exactly what
`install` added and leaves any hook a person wrote intact.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

BEGIN = "# >>> kb-graph post-commit >>>"
END = "# <<< kb-graph post-commit <<<"
CREATED = "# (file created by kb-graph; removed by `kb hook uninstall` when empty)"


@dataclass
class HookChange:
    repo: Path
    hook: Path
    action: str  # installed | already installed | removed | not installed
    data_dir: Path | None = None  # the warehouse the removed hook refreshed


def git_toplevel(path: Path) -> Path | None:
    try:
        out = subprocess.run(
            ["git", "-C", str(path), "rev-parse", "--show-toplevel"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(out.stdout.strip())


def hook_path(repo: Path) -> Path:
    out = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--git-path", "hooks"],
        capture_output=True,
        text=True,
        check=True,
        timeout=10,
    )
    hooks = Path(out.stdout.strip())
    return (hooks if hooks.is_absolute() else repo / hooks) / "post-commit"


def hook_block(kb_root: Path, data_dir: Path) -> str:
    kb_exe = Path(sys.executable).with_name("kb")
    command = (
        f"{shlex.quote(str(kb_exe))} refresh --kb {shlex.quote(str(kb_root))} "
        f"--data-dir {shlex.quote(str(data_dir))} --service"
    )
    log = shlex.quote(str(data_dir / "hook.log"))
    return (
        f"{BEGIN}\n"
        f"mkdir -p {shlex.quote(str(data_dir))}\n"
        f"( {command} >> {log} 2>&1 & ) >/dev/null 2>&1\n"
        f"{END}\n"
    )


def install(repo: Path, kb_root: Path, data_dir: Path) -> HookChange:
    hook = hook_path(repo)
    text = hook.read_text(encoding="utf-8") if hook.exists() else ""
    if BEGIN in text:
        return HookChange(repo, hook, "already installed")
    if not text:
        text = f"#!/bin/sh\n{CREATED}\n"
    elif not text.endswith("\n"):
        text += "\n"
    hook.parent.mkdir(parents=True, exist_ok=True)
    hook.write_text(text + hook_block(kb_root, data_dir), encoding="utf-8")
    hook.chmod(hook.stat().st_mode | 0o111)
    return HookChange(repo, hook, "installed")


def uninstall(repo: Path) -> HookChange:
    hook = hook_path(repo)
    if not hook.exists():
        return HookChange(repo, hook, "not installed")
    text = hook.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        return HookChange(repo, hook, "not installed")
    before, rest = text.split(BEGIN, 1)
    block, after = rest.split(END, 1)
    after = after.lstrip("\n")
    remaining = before + after
    if remaining.strip() in ("", f"#!/bin/sh\n{CREATED}".strip()):
        hook.unlink()
    else:
        hook.write_text(remaining, encoding="utf-8")
    return HookChange(repo, hook, "removed", _data_dir_of(block))


def _data_dir_of(block: str) -> Path | None:
    """The `--data-dir` a hook block passes to `kb refresh` (None when it names none)."""
    for line in block.splitlines():
        try:
            words = shlex.split(line)
        except ValueError:
            continue
        if "--data-dir" in words[:-1]:
            return Path(words[words.index("--data-dir") + 1])
    return None
