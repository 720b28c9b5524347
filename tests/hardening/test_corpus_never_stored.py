"""Every credential of the committed corpus, planted in a repo's README, `.env` and code,
leaves 0 bytes under the data dir, in the KB's generated files and in MCP answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from corpus import true_credentials
from leaks import files_containing
from mcp_fixtures import StdioClient

from tests.support.portfolio import copy_example, git, kb_cli


def _plant(repo: Path) -> None:
    creds = true_credentials()
    readme = repo / "README.md"
    readme.write_text(
        readme.read_text("utf-8") + "\n## Deploy notes\n\n" + "\n\n".join(c["text"] for c in creds),
        "utf-8",
    )
    (repo / ".env").write_text(
        "\n".join(c["text"] for c in creds if c["where"] == "env") + "\n", "utf-8"
    )
    code = [f"const leak{i} = {c['text']!r};" for i, c in enumerate(creds) if "\n" not in c["text"]]
    (repo / "src" / "leaks.ts").write_text("\n".join(code) + "\n", "utf-8")


@pytest.mark.slow
def test_corpus_planted_in_a_repo_is_stored_nowhere(tmp_path: Path) -> None:
    kb = copy_example(tmp_path / "portfolio")
    _plant(kb.parent / "repos/acme-shop/contact-api")
    git(kb.parent, "add", "-A")
    git(kb.parent, "commit", "-q", "-m", "credentials everywhere")
    built = kb_cli("refresh", "--kb", str(kb), timeout=900)
    out = built.stdout + built.stderr
    assert built.returncode == 0, out[-3000:]
    values = sorted({c["value"] for c in true_credentials()})
    assert [v for v in values if v in out] == []
    assert files_containing(kb / ".kb", values) == {}
    assert files_containing(kb / "index", values) == {}
    client = StdioClient(kb, kb / ".kb")
    try:
        answers = [
            client.call("kb_context", task="deploy notes credentials for contact-api")[0],
            client.call(
                "kb_sql", sql="select id, name, attrs from nodes", project="acme-shop", budget=50000
            )[0],
            client.call("kb_impact", target="AWS_ACCESS_KEY_ID", project="acme-shop")[0],
        ]
    finally:
        client.close()
    assert [v for v in values if any(v in a for a in answers)] == []
