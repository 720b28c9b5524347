"""Which KB `kb` acts on is found like git finds its repo: --kb, KB_ROOT, the nearest
kb.yaml upwards, a code repo's .kb-graph pointer; the bundled example only when asked."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.checks import output
from tests.support.portfolio import REPO, git, kb_cli

NO_KB_ENV = {"KB_ROOT": ""}


def _kb(folder: Path, name: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "kb.yaml").write_text(f"name: {name}\n", encoding="utf-8")
    return folder


def _registered_kb(result) -> str:
    """The --kb of the server entry `kb register claude-code --print` would write."""
    assert result.returncode == 0, output(result)
    text = result.stdout.split("# ", 2)[1]
    config = json.loads(text.split("\n", 1)[1])
    (entry,) = config["mcpServers"].values()
    return entry["args"][entry["args"].index("--kb") + 1]


def test_nearest_kb_yaml_upwards_from_a_subfolder(tmp_path: Path) -> None:
    kb = _kb(tmp_path / "team-kb", "team")
    deep = kb / "projects" / "shop"
    deep.mkdir(parents=True)
    result = kb_cli("register", "claude-code", "--print", cwd=deep, env=NO_KB_ENV)
    assert _registered_kb(result) == str(kb.resolve())


def test_kb_root_wins_over_the_folder_and_kb_wins_over_kb_root(tmp_path: Path) -> None:
    here = _kb(tmp_path / "here", "here")
    there = _kb(tmp_path / "there", "there")
    other = _kb(tmp_path / "other", "other")
    env = {"KB_ROOT": str(there)}
    assert _registered_kb(kb_cli("register", "claude-code", "--print", cwd=here, env=env)) == str(
        there.resolve()
    )
    explicit = kb_cli("register", "claude-code", "--print", "--kb", str(other), cwd=here, env=env)
    assert _registered_kb(explicit) == str(other.resolve())


def test_kb_graph_pointer_file_in_a_code_repo(tmp_path: Path) -> None:
    kb = _kb(tmp_path / "kb", "team")
    code = tmp_path / "code" / "shop-api"
    (code / "src").mkdir(parents=True)
    (code / ".kb-graph").write_text("# our KB\n../../kb\n", encoding="utf-8")
    result = kb_cli("register", "claude-code", "--print", cwd=code / "src", env=NO_KB_ENV)
    assert _registered_kb(result) == str(kb.resolve())


def test_pointer_to_a_folder_without_kb_yaml_is_one_line(tmp_path: Path) -> None:
    code = tmp_path / "code"
    code.mkdir()
    (code / ".kb-graph").write_text("../nowhere\n", encoding="utf-8")
    result = kb_cli("validate", cwd=code, env=NO_KB_ENV)
    assert result.returncode == 1 and "Traceback" not in output(result)
    assert ".kb-graph:1:" in result.stderr and "no kb.yaml" in result.stderr


def test_nothing_found_reads_the_example_with_a_one_line_notice(tmp_path: Path) -> None:
    result = kb_cli("validate", cwd=tmp_path, env=NO_KB_ENV)
    notices = [line for line in result.stderr.splitlines() if "bundled example" in line]
    assert len(notices) == 1 and "--kb" in notices[0] and "KB_ROOT" in notices[0]
    assert "error(s)" in result.stdout
    quiet = kb_cli("validate", "--example", cwd=tmp_path, env=NO_KB_ENV)
    assert "bundled example" not in quiet.stderr and "error(s)" in quiet.stdout


def test_nothing_found_never_writes_into_the_example(tmp_path: Path) -> None:
    hooks = Path(git(REPO, "rev-parse", "--path-format=absolute", "--git-path", "hooks"))
    hooks_before = sorted(p.name for p in hooks.iterdir()) if hooks.is_dir() else []
    for args in (("hook", "install"), ("register", "claude-code")):
        result = kb_cli(*args, cwd=tmp_path, env=NO_KB_ENV)
        assert result.returncode == 1, output(result)
        assert "no KB found" in result.stderr and "--kb" in result.stderr
    assert not (REPO / "examples" / "kb" / "AGENTS.md").exists()
    assert (sorted(p.name for p in hooks.iterdir()) if hooks.is_dir() else []) == hooks_before


def test_hook_install_from_inside_the_kb_hooks_that_kb(tmp_path: Path) -> None:
    kb = _kb(tmp_path / "kb", "team")
    git(kb, "init", "-q", "-b", "main")
    result = kb_cli("hook", "install", cwd=kb, env=NO_KB_ENV)
    assert result.returncode == 0, output(result)
    hook = kb / ".git" / "hooks" / "post-commit"
    assert hook.is_file() and str(kb.resolve()) in hook.read_text(encoding="utf-8")


def test_two_kbs_registered_with_one_client_coexist(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    env = {**NO_KB_ENV, "HOME": str(home)}
    for name in ("payments", "platform"):
        kb = _kb(tmp_path / name, f"{name} team")
        result = kb_cli("register", "copilot", cwd=kb, env=env)
        assert result.returncode == 0, output(result)
    servers = json.loads((home / ".copilot" / "mcp-config.json").read_text())["mcpServers"]
    assert set(servers) == {"kb-payments-team", "kb-platform-team"}
    assert str((tmp_path / "payments").resolve()) in servers["kb-payments-team"]["args"]
    assert str((tmp_path / "platform").resolve()) in servers["kb-platform-team"]["args"]
