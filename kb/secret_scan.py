"""Find and redact plaintext credentials in text (KB docs, imported pages).

Principle 4: a secret is reported by location, rule and a SHA-256 prefix only —
never by value. detect-secrets' high-signal regex plugins run line by line;
the high-entropy plugins are left out on purpose (they flag commit hashes and
`sha256_prefix` values). Our own rules add password-in-URL, whole private-key
blocks and `key: value` assignments written in Markdown. Keyword values are
filtered so env var NAMES, `${VAR}` placeholders and secret-store pointers
are never flagged.

`SecretFinding.start`/`end` are character offsets into the whole text
(a private-key block spans lines); `line` is the 1-based line of `start`.
"""

from __future__ import annotations

import bisect
import hashlib
import re
from dataclasses import dataclass

from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.keyword import CONFIG_DENYLIST_REGEX_TO_GROUP, KeywordDetector
from detect_secrets.plugins.mailchimp import MailchimpDetector
from detect_secrets.plugins.npm import NpmDetector
from detect_secrets.plugins.openai import OpenAIDetector
from detect_secrets.plugins.pypi_token import PypiTokenDetector
from detect_secrets.plugins.sendgrid import SendGridDetector
from detect_secrets.plugins.slack import SlackDetector
from detect_secrets.plugins.square_oauth import SquareOAuthDetector
from detect_secrets.plugins.stripe import StripeDetector
from detect_secrets.plugins.telegram_token import TelegramBotTokenDetector
from detect_secrets.plugins.twilio import TwilioKeyDetector


@dataclass(frozen=True, order=True)
class SecretFinding:
    line: int  # 1-based
    rule: str
    sha256_prefix: str  # first 8 hex of sha256(secret value)
    start: int  # offset into the scanned text
    end: int


# rule name -> detect-secrets plugin (regex based, value-yielding)
_PLUGINS = {
    "aws-access-key": AWSKeyDetector(),
    "azure-storage-key": AzureStorageKeyDetector(),
    "discord-token": DiscordBotTokenDetector(),
    "github-token": GitHubTokenDetector(),
    "gitlab-token": GitLabTokenDetector(),
    "mailchimp-key": MailchimpDetector(),
    "npm-token": NpmDetector(),
    "openai-key": OpenAIDetector(),
    "pypi-token": PypiTokenDetector(),
    "sendgrid-key": SendGridDetector(),
    "slack-token": SlackDetector(),
    "square-oauth": SquareOAuthDetector(),
    "stripe-key": StripeDetector(),
    "telegram-token": TelegramBotTokenDetector(),
    "twilio-key": TwilioKeyDetector(),
}
_KEYWORD = KeywordDetector()
_JWT = re.compile(r"eyJ[A-Za-z0-9_=-]+\.eyJ[A-Za-z0-9_=-]+\.[A-Za-z0-9_=+/-]*")

_KEYWORD_HINT = re.compile(
    r"api_?key|auth_?key|service_?key|account_?key|db_?key|database_?key|priv_?key|"
    r"private_?key|client_?key|db_?pass|database_?pass|key_?pass|password|passwd|pwd|"
    r"secret|contrase",
    re.IGNORECASE,
)
_ASSIGN_AFTER = re.compile(r"\w*[\]'\"]{0,2}\s*(?:[:=!]|=>)")
# `**Password:** value`, `API key = value`, `access_token: value` (Markdown/prose forms)
_MD_ASSIGN = re.compile(
    r"(?i)\b(?:password|passwd|api[ _-]?key|secret[ _-]?key|client[ _-]?secret|"
    r"(?:access|auth|api|bearer|refresh)[ _-]?token)\**\s*[:=]\s*\**\s*[`'\"]?"
    r"(?P<v>[^\s`'\"*|<>]+)"
)
_URL_PASSWORD = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:(?P<v>[^\s@/]+)@[^\s/]")
_KEY_BLOCK = re.compile(
    r"-----BEGIN (?P<k>[A-Z0-9 ]*)PRIVATE KEY(?P<b> BLOCK)?-----.*?"
    r"-----END (?P=k)PRIVATE KEY(?P=b)-----",
    re.DOTALL,
)
_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d")
_KEY_BODY_LINE = re.compile(r"^[A-Za-z0-9+/=:\- ]+$")

_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
_PLACEHOLDER = re.compile(
    r"^(?:\$\{?|\{\{|<|%\(|\[|\*+$|x+$|\.\.\.)|^(?:process\.env|os\.environ|import\.meta\.env|env\.|getenv|secrets\.|vars\.)",
    re.IGNORECASE,
)  # noqa: E501
_PLAIN_NAME = re.compile(r"^[a-z]+(?:[-_.][a-z]+)*$")
_LOWER_PATH = re.compile(r"^[a-z0-9._-]+(?:/[a-z0-9._-]+)+/?$")
_NOT_VALUES = {"true", "false", "null", "none", "yes", "no", "required", "optional", "redacted"}


def _sha8(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _assigned_value_is_secret(value: str) -> bool:
    """Keyword rules see `name: value`; only values that look like credentials count."""
    value = value.strip().rstrip(",;)")
    if len(value) < 6 or value.lower() in _NOT_VALUES:
        return False
    if _ENV_NAME.match(value) or _PLACEHOLDER.match(value) or "${" in value:
        return False
    if value.startswith("[REDACTED"):
        return False
    if _PLAIN_NAME.match(value) and len(value) < 24:  # secret names, store names, prose
        return False
    # secret-manager refs such as acme-prod/zendesk-token are pointers
    return not _LOWER_PATH.match(value)


def _value_span(match: re.Match) -> tuple[int, int]:
    """The secret inside a plugin match: its long capture group, else the whole match."""
    groups = [i for i in range(1, (match.re.groups or 0) + 1) if match.group(i)]
    best = max(groups, key=lambda i: len(match.group(i)), default=None)
    if best is not None and len(match.group(best)) >= 16:
        return match.span(best)
    return match.span(0)


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for match in re.finditer("\n", text):
        starts.append(match.end())
    return starts


def _spans_in_line(line: str) -> list[tuple[int, int, str, str]]:
    """(start, end, rule, value) within one line."""
    out: list[tuple[int, int, str, str]] = []

    def add(value: str, rule: str, lo: int = 0, hi: int | None = None) -> None:
        hi = len(line) if hi is None else hi
        pos = line.find(value, lo, hi)
        while value and pos != -1:
            out.append((pos, pos + len(value), rule, value))
            pos = line.find(value, pos + len(value), hi)

    for rule, plugin in _PLUGINS.items():
        for regex in plugin.denylist:
            for match in regex.finditer(line):
                s, e = _value_span(match)
                out.append((s, e, rule, line[s:e]))
    for match in _JWT.finditer(line):
        if JwtTokenDetector.is_formally_valid(match.group(0)):
            out.append((match.start(), match.end(), "jwt", match.group(0)))
    for match in _URL_PASSWORD.finditer(line):
        value = match.group("v")
        if _assigned_value_is_secret(value) or (len(value) >= 3 and not _PLACEHOLDER.match(value)):
            out.append((match.start("v"), match.end("v"), "password-in-url", value))
    for match in _MD_ASSIGN.finditer(line):
        if _assigned_value_is_secret(match.group("v")):
            out.append((match.start("v"), match.end("v"), "keyword", match.group("v")))
    # The keyword plugin's regexes are quadratic on long lines: scan a window per keyword.
    for hint in _KEYWORD_HINT.finditer(line):
        if not _ASSIGN_AFTER.match(line, hint.end()):
            continue
        lo, hi = max(0, hint.start() - 40), min(len(line), hint.end() + 300)
        window = line[lo:hi]
        for value in set(_KEYWORD.analyze_string(window, CONFIG_DENYLIST_REGEX_TO_GROUP)):
            value = value.strip().rstrip(",;)")
            if _assigned_value_is_secret(value):
                add(value, "keyword", hint.end(), hi)
    for match in _KEY_BEGIN.finditer(line):
        out.append((match.start(), match.end(), "private-key", match.group(0)))
    return out


def _key_blocks(text: str) -> list[tuple[int, int, str, str]]:
    out = []
    for match in _KEY_BLOCK.finditer(text):
        out.append((match.start(), match.end(), "private-key", match.group(0)))
    covered = [(s, e) for s, e, _, _ in out]
    for match in _KEY_BEGIN.finditer(text):
        if any(s <= match.start() < e for s, e in covered):
            continue
        end = match.end()  # unterminated block: take the base64 body lines that follow
        rest = text[end:].split("\n")
        consumed = len(rest[0])
        for body in rest[1:]:
            if not body.strip() or not _KEY_BODY_LINE.match(body):
                break
            consumed += 1 + len(body)
        end += consumed
        out.append((match.start(), end, "private-key", text[match.start() : end]))
    return out


def scan_text(text: str) -> list[SecretFinding]:
    """Every credential-looking value in `text`, by location; overlapping hits merged."""
    starts = _line_starts(text)
    raw: list[tuple[int, int, str, str]] = _key_blocks(text)
    for index, offset in enumerate(starts):
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(text)
        line = text[offset:end]
        for s, e, rule, value in _spans_in_line(line):
            raw.append((offset + s, offset + e, rule, value))
    # prefer the earliest, then the longest span; drop spans overlapping a kept one
    raw.sort(key=lambda r: (r[0], -(r[1] - r[0]), r[2]))
    kept: list[tuple[int, int, str, str]] = []
    for span in raw:
        if kept and span[0] < kept[-1][1]:
            continue
        kept.append(span)
    findings = []
    for s, e, rule, value in kept:
        line_no = bisect.bisect_right(starts, s)
        findings.append(SecretFinding(line_no, rule, _sha8(value), s, e))
    return findings


def redaction_marker(finding: SecretFinding) -> str:
    return f"[REDACTED {finding.rule} sha256:{finding.sha256_prefix}]"


def redact_text(text: str) -> tuple[str, list[SecretFinding]]:
    """`text` with every finding replaced by `[REDACTED <rule> sha256:<8 hex>]`."""
    findings = scan_text(text)
    pieces, pos = [], 0
    for finding in findings:
        pieces.append(text[pos : finding.start])
        pieces.append(redaction_marker(finding))
        pos = finding.end
    pieces.append(text[pos:])
    return "".join(pieces), findings
