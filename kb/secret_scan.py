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

import base64
import binascii
import bisect
import hashlib
import re
from dataclasses import dataclass

from detect_secrets.filters.heuristic import is_prefixed_with_dollar_sign, is_templated_secret
from detect_secrets.plugins.aws import AWSKeyDetector
from detect_secrets.plugins.azure_storage_key import AzureStorageKeyDetector
from detect_secrets.plugins.discord import DiscordBotTokenDetector
from detect_secrets.plugins.github_token import GitHubTokenDetector
from detect_secrets.plugins.gitlab_token import GitLabTokenDetector
from detect_secrets.plugins.jwt import JwtTokenDetector
from detect_secrets.plugins.keyword import (
    CONFIG_DENYLIST_REGEX_TO_GROUP,
    DENYLIST,
    QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP,
)
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

from kb.secret_values import judge_assignment, strongly_credential_shaped


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
_KEYWORD_REGEXES = {**QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP, **CONFIG_DENYLIST_REGEX_TO_GROUP}
# vendor formats detect-secrets 1.5 has no plugin for
_OWN_VENDOR = {
    "google-api-key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}"),
    "github-token": re.compile(r"\bgithub_pat_[A-Za-z0-9_]{60,}"),
}
_JWT = re.compile(r"eyJ[A-Za-z0-9_=-]+\.eyJ[A-Za-z0-9_=-]+\.[A-Za-z0-9_=+/-]*")

_KEYWORD_HINT = re.compile(r"|".join(DENYLIST), re.IGNORECASE)
_ASSIGN_AFTER = re.compile(r"\w*[\]'\"]{0,2}\s*(?:[:=!]|=>)")
# labels detect-secrets' keyword list does not cover, each ending where the value starts:
# `**Password:** v`, `API key = v`, `access_token: v`, `ZENDESK_API_TOKEN=v`
_LABELS = re.compile(
    r"(?i:\b(?:password|passwd|api[ _-]?key|secret[ _-]?key|client[ _-]?secret|"
    r"(?:(?:access|auth|api|bearer|refresh|session|id)[ _-]?)?token))\**\s*[:=]\s*\**\s*"
    r"|\b[A-Z][A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|API_?KEY|PRIVATE_KEY|"
    r"SIGNING_KEY|CREDENTIALS?)[A-Z0-9_]*\s*[:=]\s*"
)
_URL_PASSWORD = re.compile(
    r"(?<![a-zA-Z0-9+.-])[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\s:/@]*:(?P<v>[^\s@/]+)@[^\s/]"
)
_URL_QUERY_TOKEN = re.compile(
    r"(?i)[?&](?:access_?token|token|api_?key|apikey|key|auth|secret|password|sig)="
    r"(?P<v>[^&\s#'\"]+)"
)
_AUTH_HEADER = re.compile(r"(?i)\b(?P<s>bearer|basic)\s+(?P<v>[A-Za-z0-9._~+/-]+=*)")
_KEY_BLOCK = re.compile(
    r"-----BEGIN (?P<k>[A-Z0-9 ]*)PRIVATE KEY(?P<b> BLOCK)?-----.*?"
    r"-----END (?P=k)PRIVATE KEY(?P=b)-----",
    re.DOTALL,
)
_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d")
_KEY_BODY_LINE = re.compile(r"^[A-Za-z0-9+/=:\- ]+$")


_GENERIC = {"keyword", "token-in-url", "bearer-auth"}

# Every rule above needs one of these in the text it matches: a vendor prefix (as cased
# as the rule) or, case-folded, a word of the keyword, URL, header and key-block rules.
# Most strings of a code graph (ids, paths, names) have none and skip the ~45 regexes of
# a scan. tests/hardening/test_secret_anchor.py holds every rule to it.
_ANCHOR_CASED = re.compile(
    r"A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA|[MNO][a-zA-Z\d_-]{23,25}\.|gh[pousr]_|GR1348941"
    r"|gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-|-us\d|T3BlbkFJ|pypi-|SG\.|sq0csp-"
    r"|k_live_|\d{8,10}:|AC[a-z0-9]{32}|SK[a-z0-9]{32}|AIza|github_pat_|eyJ|://"
)
_ANCHOR_FOLDED = re.compile(
    r"key|pass|pwd|secret|token|auth|bearer|basic|credential|contrase|aws|xox|slack|sig="
    r"|-----begin|putty"
)


def _sha8(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:8]


def _url_password(value: str) -> bool:
    """Whatever sits in a URL's password slot is one, unless it is a placeholder."""
    return len(value) >= 3 and not (
        value.lower() in ("password", "passwd", "pass", "pwd", "pw", "secret", "token")
        or is_templated_secret(value)
        or is_prefixed_with_dollar_sign(value)
        or _ENV_PLACEHOLDER.match(value)
    )


_ENV_PLACEHOLDER = re.compile(r"^(?:[A-Z][A-Z0-9_]*|\*+|x+|\.\.\.|<.*|\{\{.*|%\(.*|\[.*)$")


def _basic_auth(value: str) -> bool:
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded and len(decoded) >= 5


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


def _keyword_spans(line: str) -> list[tuple[int, int]]:
    """Values after secret-sounding names, judged by `kb.secret_values`."""
    spans: list[tuple[int, int]] = []
    for match in _LABELS.finditer(line):
        start = match.end()
        if start < len(line) and line[start] in "'\"`":
            start += 1
        lo = max(0, match.start() - 1)  # keep `?`/`&` before a query label
        span = judge_assignment(line[lo:], start - lo, len(line) - lo)
        if span:
            spans.append((lo + span[0], lo + span[1]))
    # The keyword plugin's regexes are quadratic on long lines: scan a window per keyword.
    for hint in _KEYWORD_HINT.finditer(line):
        if not _ASSIGN_AFTER.match(line, hint.end()):
            continue
        lo, hi = max(0, hint.start() - 1), min(len(line), hint.end() + 300)
        window = line[lo:hi]
        for regex, group in _KEYWORD_REGEXES.items():
            match = regex.search(window)
            if match and match.group(group):
                span = judge_assignment(window, *match.span(group))
                if span:
                    spans.append((lo + span[0], lo + span[1]))
    return spans


def _spans_in_line(line: str) -> list[tuple[int, int, str, str]]:
    """(start, end, rule, value) within one line."""
    out: list[tuple[int, int, str, str]] = []
    for rule, plugin in _PLUGINS.items():
        for regex in plugin.denylist:
            for match in regex.finditer(line):
                s, e = _value_span(match)
                out.append((s, e, rule, line[s:e]))
    for rule, regex in _OWN_VENDOR.items():
        out.extend((m.start(), m.end(), rule, m.group(0)) for m in regex.finditer(line))
    for match in _JWT.finditer(line):
        if JwtTokenDetector.is_formally_valid(match.group(0)):
            out.append((match.start(), match.end(), "jwt", match.group(0)))
    for match in _URL_PASSWORD.finditer(line):
        if _url_password(match.group("v")):
            out.append((*match.span("v"), "password-in-url", match.group("v")))
    for match in _URL_QUERY_TOKEN.finditer(line):
        if strongly_credential_shaped(match.group("v")):
            out.append((*match.span("v"), "token-in-url", match.group("v")))
    for match in _AUTH_HEADER.finditer(line):
        value, scheme = match.group("v"), match.group("s").lower()
        if _basic_auth(value) if scheme == "basic" else strongly_credential_shaped(value):
            out.append((*match.span("v"), f"{scheme}-auth", value))
    for s, e in _keyword_spans(line):
        out.append((s, e, "keyword", line[s:e]))
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


def may_hold_secret(text: str) -> bool:
    """False when no rule can match anywhere in `text` (then `scan_text` finds nothing)."""
    return bool(_ANCHOR_CASED.search(text) or _ANCHOR_FOLDED.search(text.casefold()))


def scan_text(text: str) -> list[SecretFinding]:
    """Every credential-looking value in `text`, by location; overlapping hits merged."""
    return _scan(text) if may_hold_secret(text) else []


def _scan(text: str) -> list[SecretFinding]:
    starts = _line_starts(text)
    raw: list[tuple[int, int, str, str]] = _key_blocks(text)
    for index, offset in enumerate(starts):
        end = starts[index + 1] - 1 if index + 1 < len(starts) else len(text)
        line = text[offset:end]
        for s, e, rule, value in _spans_in_line(line):
            raw.append((offset + s, offset + e, rule, value))
    # A vendor format names the exact token; the generic keyword rule only guesses where
    # a value ends (`token=xoxb-…&channel=C1`). Keep specific spans first (earliest, then
    # longest), then generic ones that overlap none of them.
    kept: list[tuple[int, int, str, str]] = []
    for generic in (False, True):
        tier = sorted(
            (r for r in raw if (r[2] in _GENERIC) == generic),
            key=lambda r: (r[0], -(r[1] - r[0]), r[2]),
        )
        for span in tier:
            if not any(span[0] < k[1] and k[0] < span[1] for k in kept):
                kept.append(span)
    kept.sort()
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
