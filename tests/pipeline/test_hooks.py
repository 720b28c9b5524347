"""`kb hook install|uninstall` on real git repos: a commit triggers a background refresh."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.support.portfolio import git, kb_cli

USER_HOOK = "#!/bin/sh\necho 'my own hook'\n"


def _hook(repo: Path) -> Path:
    return repo / ".git" / "hooks" / "post-commit"


def test_install_keeps_user_hook_and_uninstall_removes_only_ours(example_kb: Path) -> None:
    repo = example_kb.parent
    _hook(repo).write_text(USER_HOOK)
    result = kb_cli("hook", "install", "--kb", str(example_kb))
    assert result.returncode == 0, result.stderr
    assert "installed" in result.stdout
    text = _hook(repo).read_text()
    assert text.startswith(USER_HOOK) and "kb-graph post-commit" in text and "refresh --kb" in text
    again = kb_cli("hook", "install", "--kb", str(example_kb))
    assert "already installed" in again.stdout
    assert _hook(repo).read_text().count("kb-graph post-commit >>>") == 1
    removed = kb_cli("hook", "uninstall", "--kb", str(example_kb))
    assert removed.returncode == 0 and "removed" in removed.stdout
    assert _hook(repo).read_text() == USER_HOOK


def test_hook_we_created_is_deleted_on_uninstall(example_kb: Path) -> None:
    repo = example_kb.parent
    assert kb_cli("hook", "install", "--kb", str(example_kb)).returncode == 0
    assert _hook(repo).exists()
    assert kb_cli("hook", "uninstall", "--kb", str(example_kb)).returncode == 0
    assert not _hook(repo).exists()


@pytest.mark.slow
def test_commit_runs_refresh_in_background(example_kb: Path, tmp_path: Path) -> None:
    data_dir = tmp_path / "data"
    repo = example_kb.parent
    assert (
        kb_cli("hook", "install", "--kb", str(example_kb), "--data-dir", str(data_dir)).returncode
        == 0
    )
    (repo / "repos" / "acme-shop" / "web" / "NOTES.md").write_text("# notes\n")
    git(repo, "add", "-A")
    started = time.monotonic()
    git(repo, "commit", "-q", "-m", "touch web")
    assert time.monotonic() - started < 5, "the hook must not block the commit"
    log = data_dir / "hook.log"
    deadline = time.monotonic() + 300  # a full example build, on a loaded CI machine
    # The manifest appears when the publish step lands; the log line when the run is over.
    while time.monotonic() < deadline and not (
        (data_dir / "manifest.json").exists() and log.exists() and "warehouse:" in log.read_text()
    ):
        time.sleep(0.5)
    assert (data_dir / "manifest.json").exists(), log.read_text() if log.exists() else "no hook.log"
    assert "warehouse:" in log.read_text()
    # the hook started the refresh service (`kb refresh --service`): stop it
    pid = (data_dir / "refresh-service.lock").read_text().strip()
    assert pid.isdigit(), "the refresh service names its pid in refresh-service.lock"
    os.kill(int(pid), signal.SIGTERM)


def test_repo_outside_git_is_one_line(example_kb: Path, tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    result = kb_cli("hook", "install", "--kb", str(example_kb), "--repo", str(plain))
    assert result.returncode == 1
    assert "not inside a git repository" in result.stderr
    assert "Traceback" not in result.stderr
