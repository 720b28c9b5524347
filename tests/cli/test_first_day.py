"""Issue 30: the dead ends of a newcomer's first day on their own portfolio — the help
text after `kb init`, excavate's follow-up command, a broken `.mcp.json`, the pointer
files `kb register` writes and the paths its configs hold."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

from mcp import StdioServerParameters

from tests.support.checks import output
from tests.support.mcp_stdio import StdioClient
from tests.support.portfolio import REPO, kb_cli


def _copy(built_example: Path, tmp_path: Path) -> Path:
    """A copy of the built example (warehouse included) to change; its KB root."""
    shutil.copytree(built_example.parent, tmp_path / "portfolio", symlinks=True)
    return tmp_path / "portfolio" / "kb"


def test_help_does_not_send_a_new_kb_to_the_bundled_example() -> None:
    text = " ".join(kb_cli("--help").stdout.split())
    assert "builds the bundled example)" not in text
    assert "`kb init DIR` makes a KB" in text and "Inside your KB" in text
    assert "`kb refresh --example`" in text


def test_excavate_prints_a_verify_command_that_runs_as_printed(
    built_example: Path, tmp_path: Path
) -> None:
    kb = _copy(built_example, tmp_path)
    (kb / "projects/acme-shop/contact-api/architecture.md").unlink(missing_ok=True)
    done = kb_cli(
        "excavate", "--kb", str(kb), "--project", "acme-shop", "--component", "contact-api"
    )
    assert done.returncode == 0, output(done)
    line = next(x for x in done.stdout.splitlines() if "architecture.md" in x and "wrote" in x)
    command = re.search(r"`(kb verify [^`]+)`", line).group(1)
    argv = shlex.split(command)
    assert "--against" in argv and "<COMMIT>" not in argv, line
    verified = kb_cli(*argv[1:], "--kb", str(kb), cwd=kb)
    assert verified.returncode == 0, output(verified)
    assert "verified against" in verified.stdout


def test_a_broken_mcp_json_is_refused_with_its_line_and_column(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "kb.yaml").write_text("name: team\n", encoding="utf-8")
    broken = '{\n  "mcpServers": {\n    "docs": {"command": "docs-mcp",}\n  }\n}\n'
    (kb / ".mcp.json").write_text(broken, encoding="utf-8")
    done = kb_cli("register", "claude-code", "--kb", str(kb))
    assert done.returncode == 1
    assert f"{kb / '.mcp.json'}:3:36: not valid JSON" in done.stderr, done.stderr
    assert "Traceback" not in output(done)
    assert (kb / ".mcp.json").read_text(encoding="utf-8") == broken


def _kb(folder: Path) -> Path:
    folder.mkdir(parents=True)
    (folder / "kb.yaml").write_text("name: team\n", encoding="utf-8")
    return folder


def test_pointer_files_import_agents_md_the_way_each_client_reads_imports(tmp_path: Path) -> None:
    kb = _kb(tmp_path / "kb")
    (kb / "CLAUDE.md").write_text(
        "# Our notes\nRead AGENTS.md first: it says which kb-graph layer answers which question.\n",
        encoding="utf-8",
    )  # what an earlier kb-graph wrote: replaced, not kept twice
    for client in ("claude-code", "gemini", "copilot"):
        done = kb_cli("register", client, "--kb", str(kb), env={"HOME": str(tmp_path)})
        assert done.returncode == 0, output(done)
    claude = (kb / "CLAUDE.md").read_text(encoding="utf-8").splitlines()
    assert claude[0] == "# Our notes" and "@AGENTS.md" in claude
    assert sum("AGENTS.md first" in line for line in claude) == 1
    assert "@./AGENTS.md" in (kb / "GEMINI.md").read_text(encoding="utf-8").splitlines()
    copilot = (kb / ".github/copilot-instructions.md").read_text(encoding="utf-8")
    assert "../AGENTS.md" in copilot  # no import syntax there: the sentence names the file
    # the imported path is a real file, relative to the pointer file (as the clients resolve it)
    assert (kb / "AGENTS.md").is_file()


def test_a_config_with_absolute_paths_says_so_and_the_portable_one_runs_from_the_repo(
    tmp_path: Path,
) -> None:
    kb = _kb(tmp_path / "team-kb")
    code = tmp_path / "code" / "shop-api"
    code.mkdir(parents=True)
    plain = kb_cli("register", "claude-code", "--kb", str(kb), "--target", str(code))
    assert plain.returncode == 0, output(plain)
    assert "absolute paths" in plain.stdout and "--portable" in plain.stdout
    assert f"@{kb / 'AGENTS.md'}" in (code / "CLAUDE.md").read_text(encoding="utf-8")

    portable = kb_cli(
        "register", "claude-code", "--kb", str(kb), "--target", str(code), "--portable"
    )
    assert portable.returncode == 0, output(portable)
    entry = json.loads((code / ".mcp.json").read_text())["mcpServers"]["kb-team"]
    assert entry == {"command": "kb", "args": ["mcp", "--kb", "../../team-kb"]}
    assert (code / ".kb-graph").read_text(encoding="utf-8").strip() == "../../team-kb"
    pointer = (code / "CLAUDE.md").read_text(encoding="utf-8")
    assert "@../../team-kb/AGENTS.md" in pointer.splitlines() and str(kb) not in pointer
    assert (code / "../../team-kb/AGENTS.md").resolve().is_file()

    # the committed config, on another machine: `kb` on PATH, started in the repo folder
    moved = tmp_path / "elsewhere"
    shutil.copytree(tmp_path / "code", moved / "code")
    shutil.copytree(kb, moved / "team-kb")
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"
    params = StdioServerParameters(
        command=entry["command"],
        args=entry["args"],
        cwd=str(moved / "code" / "shop-api"),
        env={**os.environ, "PATH": path},
    )
    client = StdioClient(params=params)
    try:
        text, err = client.call("kb_status")
    finally:
        client.close()
    assert err and "kb refresh" in text and str(moved / "team-kb") in text, text


def test_a_kb_with_errors_stops_before_dagster_loads(example_kb: Path, tmp_path: Path) -> None:
    comp = example_kb / "projects/acme-shop/contact-api/component.md"
    comp.write_text(comp.read_text("utf-8").replace("role: api", "role: apii"), "utf-8")
    data = tmp_path / "data"
    done = kb_cli("refresh", "--kb", str(example_kb), "--data-dir", str(data))
    assert done.returncode == 1
    text = output(done)
    assert "projects/acme-shop/contact-api/component.md:6: error: role 'apii'" in text, text
    assert "build stopped (kb_validation); nothing is published" in text
    assert "loading the Dagster pipeline" not in text and "Traceback" not in text
    assert not (data / "dagster").exists()  # no Dagster instance was opened
    assert not (data / "staging").exists()  # no component was extracted


def test_a_repo_outside_repos_root_stops_the_refresh_and_status_says_missing(
    built_example: Path, tmp_path: Path
) -> None:
    kb = _copy(built_example, tmp_path)
    comp = kb / "projects/acme-shop/contact-api/component.md"
    text = comp.read_text("utf-8").replace("repo: acme-shop/contact-api", "repo: ../contact-api")
    comp.write_text(text, "utf-8")
    done = kb_cli("refresh", "--kb", str(kb))
    assert done.returncode == 1 and "[repo-outside]" in done.stdout, output(done)
    assert "loading the Dagster pipeline" not in output(done)
    assert "the last good warehouse" in done.stderr
    status = kb_cli("status", "--kb", str(kb))
    line = next(x for x in status.stdout.splitlines() if "acme-shop/contact-api" in x)
    assert "missing: `repo: ../contact-api` names no folder under repos_root" in line, line
    assert "current (missing)" not in status.stdout


def test_the_readme_is_for_users_and_fits_on_a_few_screens() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 200  # session logs live in docs/benchmarks.md
    for must in ("bash scripts/demo.sh", "bash scripts/test.sh", "## Using it", "kb ui"):
        assert must in readme, must
    measured = readme.split("## Measured", 1)[1].split("\n## ", 1)[0]
    assert "(docs/benchmarks.md)" in measured and measured.count("\n|") <= 12
    assert "(docs/monorepos.md)" in readme


def test_the_documented_tables_have_the_columns_sql_shows(built_example: Path) -> None:
    """docs/mcp-tools.md "Tables" lists each table's columns, `partition` included."""
    text = (REPO / "docs" / "mcp-tools.md").read_text(encoding="utf-8")
    assert "Every table also has a `partition` column" in text
    for table in ("nodes", "edges", "unresolved", "adrs", "builds"):
        row = re.search(rf"^\| `{table}` \| (.+) \|$", text, re.M).group(1)
        documented = re.findall(r"`([a-z_]+)`", re.sub(r"\([^)]*\)", "", row))
        described = kb_cli("sql", "--kb", str(built_example), "--json", f"describe {table}")
        assert described.returncode == 0, output(described)
        columns = [r["column_name"] for r in json.loads(described.stdout)]
        expected = documented + ([] if "partition" in documented else ["partition"])
        assert columns == expected, (table, columns, documented)


def test_a_wrong_automation_setting_stops_kb_ui_in_one_line(tmp_path: Path) -> None:
    kb = _kb(tmp_path / "kb")
    done = kb_cli("ui", "--kb", str(kb), env={"KB_UI_AUTOMATION": "sometimes"})
    assert done.returncode == 1 and "Traceback" not in output(done)
    assert "KB_UI_AUTOMATION=sometimes: use on or off" in done.stderr
