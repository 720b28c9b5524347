"""The secret guard: planted fake credentials are found by location and redacted;
pointers, env var names, placeholders and hashes are left alone."""

from __future__ import annotations

import base64
import hashlib
import json

from kb.secret_scan import redact_text, scan_text


def _b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


# Built from pieces so no scanner flags this test file as a leak.
FAKES = {
    "aws-access-key": "AKIA" + "Q7XK2M4N8P3R5T6V",
    "github-token": "ghp_" + "x9Y8w7V6u5T4s3R2q1P0o9N8m7L6k5J4i3H2",
    "gitlab-token": "glpat-" + "Ab3dEf6hIj9kLm2nOp5q",
    "slack-token": "xoxb-" + "2049583712-4820174629103-" + "Qx7Lm2Pz9Rk4Vn8Ws3Yt6Uj1",
    "stripe-key": "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc",
    "sendgrid-key": "SG."
    + "aB3dE6gH9jK2mN5pQ8sT1v"
    + "."
    + "wX4yZ7bC0eF3hI6kL9nO2qR5tU8wX1zA4cD7fG0iJ3l",
    "twilio-key": "SK" + "0123456789abcdef0123456789abcdef",
    "jwt": _b64({"alg": "HS256", "typ": "JWT"}) + "." + _b64({"sub": "42"}) + ".s1gNaTuReXyZ",
    "password-in-url": "N0tReal-Passw0rd",
    "keyword": "Tr0ub4dor&3x",
}
PEM = (
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEA7bq9fakefakefakefakefake\n"
    "q1w2e3r4t5y6u7i8o9p0==\n"
    "-----END RSA PRIVATE KEY-----"
)

PLANTED = f"""# Runbook
AWS key id {FAKES["aws-access-key"]} (rotate!)
CI token: {FAKES["github-token"]}
gitlab {FAKES["gitlab-token"]}
slack bot {FAKES["slack-token"]}
Stripe {FAKES["stripe-key"]}
SendGrid {FAKES["sendgrid-key"]}
twilio {FAKES["twilio-key"]}
session {FAKES["jwt"]}
db: postgres://app:{FAKES["password-in-url"]}@db.internal:5432/shop
password = "{FAKES["keyword"]}"
{PEM}
"""

INNOCENT = """---
kind: component
secrets:
  - name: zendesk-api-token
    store: secret-manager
    ref: acme-shop-prod/zendesk-api-token
    env_var: ZENDESK_API_TOKEN
    hint: Zendesk agent token, rotated yearly
    sha256_prefix: 3f9a1c0d
verification:
  status: verified
  verified_against: 4be1c2d
  verified_at: 2026-09-20
---
The API reads `ZENDESK_API_TOKEN` and `RECAPTCHA_SECRET_KEY` from the environment.
password: ${DB_PASSWORD}
DATABASE_URL=postgres://app:${DB_PASSWORD}@db:5432/shop
api_key = process.env.API_KEY
secret_store: secret-manager
See https://contact-api.acme.example/api/contact and https://user@git.example.com/repo.
The secret is stored in Secret Manager; the password is rotated yearly.
commit 4be1c2d9f0e1a2b3c4d5e6f708192a3b4c5d6e7f, image sha256:9f86d081884c7d659a2feaa0c55ad015
"""


def test_every_planted_kind_is_found_with_its_line_and_hash():
    findings = scan_text(PLANTED)
    by_rule = {f.rule: f for f in findings}
    for rule, value in FAKES.items():
        assert rule in by_rule, rule
        finding = by_rule[rule]
        assert PLANTED[finding.start : finding.end] == value
        assert finding.sha256_prefix == hashlib.sha256(value.encode()).hexdigest()[:8]
        assert PLANTED.splitlines()[finding.line - 1].find(value) >= 0
    key = by_rule["private-key"]
    assert PLANTED[key.start : key.end] == PEM
    assert key.line == 12


def test_redaction_removes_every_value_and_leaves_markers():
    redacted, findings = redact_text(PLANTED)
    assert len(findings) == len(FAKES) + 1
    for value in [*FAKES.values(), "MIIEowIBAAKCAQEA7bq9fake", "q1w2e3r4t5y6u7i8o9p0"]:
        assert value not in redacted
    sha = hashlib.sha256(FAKES["stripe-key"].encode()).hexdigest()[:8]
    assert f"Stripe [REDACTED stripe-key sha256:{sha}]" in redacted
    assert "postgres://app:[REDACTED password-in-url sha256:" in redacted
    assert redacted.count("\n") < PLANTED.count("\n")  # the PEM block collapsed to one marker
    assert scan_text(redacted) == []  # redacting twice changes nothing


def test_pointers_names_placeholders_and_hashes_are_not_secrets():
    assert scan_text(INNOCENT) == []
    assert redact_text(INNOCENT) == (INNOCENT, [])


def test_long_single_line_html_is_scanned_quickly():
    import time

    body = "<p>" + "password and secret words " * 40000 + FAKES["stripe-key"] + "</p>"
    started = time.perf_counter()
    findings = scan_text(body)
    assert time.perf_counter() - started < 10
    assert [f.rule for f in findings] == ["stripe-key"]
