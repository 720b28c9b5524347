"""Principle 4 end to end: a planted credential fails `kb refresh` and is stored nowhere."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

from tests.support.checks import output
from tests.support.portfolio import copy_example, kb_cli

AWS_KEY = "AKIAQ7XK3MZP4TNW2Y6R"
URL_PASSWORD = "Sup3rS3cretPassw0rd"


@pytest.mark.slow
def test_refresh_refuses_a_credential_and_stores_it_nowhere(tmp_path: Path) -> None:
    kb = copy_example(tmp_path / "portfolio")
    comp = kb / "projects/acme-shop/contact-api/component.md"
    text = comp.read_text(encoding="utf-8")
    # in the frontmatter (lands in the docs table) and in the body (lands in doc chunks)
    text = text.replace(
        "hint: SMTP relay login", f"hint: smtp://mailer:{URL_PASSWORD}@smtp.example:587 login"
    )
    comp.write_text(text + f"\nThe deploy user's key is {AWS_KEY}.\n", encoding="utf-8")
    result = kb_cli("refresh", "--kb", str(kb))
    text = output(result)
    assert result.returncode == 1, text
    assert "[secret]" in text and "Traceback" not in text
    assert not (kb / ".kb" / "manifest.json").exists()
    leaks = []
    for path in (tmp_path / "portfolio").rglob("*"):
        if path.is_file() and path != comp and ".git" not in path.parts:
            data = path.read_bytes()
            if path.suffix == ".parquet":  # compressed: look at the values
                data = pl.read_parquet(path).write_csv().encode()
            leaks += [f"{path}: {v[:4]}…" for v in (AWS_KEY, URL_PASSWORD) if v.encode() in data]
    assert not leaks, "credential copied into " + ", ".join(leaks)
    for value in (AWS_KEY, URL_PASSWORD):
        assert value not in text
