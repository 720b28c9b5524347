"""Imports redact every byte they write: folder names made from titles, `_source.yaml`
(URL, title), the raw HTML next to its Markdown, and what `kb distil` makes of them."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.support.import_fakes import DRIVE_TOKEN, TOKEN, USER, FakeConfluence, imports_config  # noqa: E402
from tests.support.portfolio import copy_example, kb_cli

# Fabricated, built from pieces so no scanner flags this file.
AWS_ID = "AKIA" + "J7Q2W9X4M6P3R8T5"
SLACK = "xoxb-" + "5512098734-8823019457612-" + "kq8Zr2LmX0vT6pK2wYb4Nc7d"
PASSWORD = "Tr0ub4dor&" + "3x-Zq9"
DB_PASSWORD = "Vx9-" + "ledger-Q4p"
# today's Stripe keys run ~100 characters past the prefix (the format's regex reads 24)
STRIPE = "sk_" + "live_51" + "Hq7RkX2mVt9Lw4Nb8Pz3Hs6Jd1Fc5Ya0Ue2TgQx" * 2 + "Zp4Lm8Wv2Rk6"
NPM = "npm_" + "Gq7RkX2mVt9Lw4Nb8Pz3Hs6Jd1Fc5Ya0Ue2T"
ENV = {"KB_TEST_CONF_USER": USER, "KB_TEST_CONF_TOKEN": TOKEN, "KB_DRIVE_TOKEN": DRIVE_TOKEN}
VALUES = [AWS_ID, SLACK, PASSWORD, "Tr0ub4dor&amp;3x-Zq9", DB_PASSWORD, STRIPE, NPM]
# Confluence's storage format keeps a code block's text in a CDATA section of a macro
CODE_MACRO = (
    '<ac:structured-macro ac:name="code"><ac:parameter ac:name="language">python'
    "</ac:parameter><ac:plain-text-body><![CDATA[import stripe\n"
    f'stripe.api_key = "{STRIPE}"\n# publish: {NPM}]]></ac:plain-text-body>'
    "</ac:structured-macro>"
)


class TokenisedConfluence(FakeConfluence):
    """Serves page links that carry a token in the query string."""

    def _content(self, page_id, expand):
        out = super()._content(page_id, expand)
        out["_links"]["webui"] += f"?token={SLACK}"
        return out


def _every_byte_lower(root: Path) -> str:
    parts = []
    for path in sorted(root.rglob("*")):
        parts.append(path.name)
        if path.is_file():
            parts.append(path.read_bytes().decode("utf-8", "replace"))
    return "\n".join(parts).lower()


def test_import_and_distil_write_no_credential_byte(tmp_path: Path) -> None:
    kb = copy_example(tmp_path / "portfolio", with_git=False)
    with TokenisedConfluence(USER, TOKEN) as confluence:
        confluence.add("98000", "Hub", "<p>Hub.</p>")
        confluence.add(
            "99001",
            f"Deploy with {AWS_ID}",
            f"<p><strong>Password:</strong> {PASSWORD.replace('&', '&amp;')}</p>"
            f"<p>Ledger DB: <code>postgres://ledger:{DB_PASSWORD}@db.internal:5432/l</code></p>"
            + CODE_MACRO,
            parent="98000",
        )
        config = yaml.safe_load((kb / "kb.yaml").read_text())
        config["imports"] = imports_config(confluence, hubs=("98000",))
        (kb / "kb.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
        imported = kb_cli("import", "--kb", str(kb), env=ENV)
    out = imported.stdout + imported.stderr
    assert imported.returncode == 0, out
    raw = kb / "_imports/raw"
    [folder] = [p for p in raw.iterdir() if p.name.startswith("confluence-99001")]
    assert "redacted" in folder.name
    distilled = kb_cli(
        "distil", str(folder), "--kb", str(kb), "--project", "acme-shop", "--type", "runbook"
    )
    assert distilled.returncode == 0, distilled.stdout + distilled.stderr
    everything = _every_byte_lower(kb) + (out + distilled.stdout + distilled.stderr).lower()
    leaked = [v for v in VALUES if v.lower() in everything]
    assert leaked == [], f"{len(leaked)} values leaked"
    source = yaml.safe_load((folder / "_source.yaml").read_text())
    assert "[REDACTED" in source["url"] and "[REDACTED" in source["title"]
    rules = {r["file"] for r in source["redactions"]}
    assert {"page.html", "page.md"} <= rules
    validate = kb_cli("validate", "--kb", str(kb))
    assert "[secret]" not in validate.stdout, validate.stdout
