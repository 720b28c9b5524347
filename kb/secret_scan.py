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
    DENYLIST_REGEX,
    QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP,
)
from detect_secrets.plugins.mailchimp import MailchimpDetector
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
    "pypi-token": PypiTokenDetector(),
    "sendgrid-key": SendGridDetector(),
    "slack-token": SlackDetector(),
    "square-oauth": SquareOAuthDetector(),
    "stripe-key": StripeDetector(),
    "telegram-token": TelegramBotTokenDetector(),
    "twilio-key": TwilioKeyDetector(),
}
_KEYWORD_REGEXES = {**QUOTES_REQUIRED_DENYLIST_REGEX_TO_GROUP, **CONFIG_DENYLIST_REGEX_TO_GROUP}
# Vendor formats detect-secrets 1.5 has no plugin for, and its npm and OpenAI rules with
# their unbounded runs bounded (`//.+/:_authToken=` and `sk-[…]*…T3BlbkFJ` re-read the
# rest of a line from every `//` or `sk-`: quadratic on a line of them). The longest
# capture group is the value (`_value_span`).
_OWN_VENDOR = {
    "google-api-key": re.compile(r"\bAIza[0-9A-Za-z_-]{35}"),
    "github-token": re.compile(r"\bgithub_pat_[A-Za-z0-9_]{60,}"),
    "npm-token": re.compile(
        r"(?<=/):_authToken=\s*+(npm_[^\s'\"]++|[A-Fa-f0-9-]{36})"
        r"|(?<![A-Za-z0-9_])(npm_[A-Za-z0-9]{36})"
    ),
    "openai-key": re.compile(r"sk-[A-Za-z0-9_-]{0,200}[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}"),
}
# Tried once per run of token characters, from its first `eyJ` (atomic, possessive): a
# run's later `eyJ`s end where it ends, so retrying from each re-reads the run (`eyJeyJ…`).
_JWT = re.compile(
    r"(?<![A-Za-z0-9_=-])(?>[A-Za-z0-9_=-]*?(?=eyJ))"
    r"(?P<jwt>eyJ[A-Za-z0-9_=-]++\.eyJ[A-Za-z0-9_=-]++\.[A-Za-z0-9_=+/-]*+)"
)

_KEYWORD_HINT = re.compile(r"|".join(DENYLIST), re.IGNORECASE)
_ASSIGN_AFTER = re.compile(r"\w{0,100}[\]'\"]{0,2}\s{0,100}(?:[:=!]|=>)")
# labels detect-secrets' keyword list does not cover, each ending where the value starts:
# `**Password:** v`, `API key = v`, `access_token: v`, `ZENDESK_API_TOKEN=v`
_LABELS = re.compile(
    r"(?i:\b(?:password|passwd|api[ _-]?key|secret[ _-]?key|client[ _-]?secret|"
    r"(?:(?:access|auth|api|bearer|refresh|session|id)[ _-]?)?token))\**\s*[:=]\s*\**\s*"
    # an upper-case name holding one of the words, read once (possessive): a run like
    # `A_TOKENA_TOKEN…` with no `=` is not re-read from every word inside it
    r"|\b(?=[A-Z])(?=[A-Z0-9_]*?(?:TOKEN|SECRET|PASSWORD|PASSWD|PASS|PWD|API_?KEY|"
    r"PRIVATE_KEY|SIGNING_KEY|CREDENTIALS?))[A-Z0-9_]++\s*[:=]\s*"
)
_URL_PASSWORD = re.compile(
    r"(?<![a-zA-Z0-9+.-])[a-zA-Z][a-zA-Z0-9+.-]{0,30}://[^\s:/@]*:(?P<v>[^\s@/]+)@[^\s/]"
)
_URL_QUERY_TOKEN = re.compile(
    r"(?i)[?&](?:access_?token|token|api_?key|apikey|key|auth|secret|password|sig)="
    r"(?P<v>[^&\s#'\"]+)"
)
_AUTH_HEADER = re.compile(r"(?i)\b(?P<s>bearer|basic)\s+(?P<v>[A-Za-z0-9._~+/-]+=*)")
_KEY_BEGIN_PARTS = re.compile(
    r"-----BEGIN (?P<k>[A-Z0-9 ]*)PRIVATE KEY(?P<b> BLOCK)?-----|PuTTY-User-Key-File-\d"
)
_KEY_END = re.compile(r"-----END (?P<k>[A-Z0-9 ]*)PRIVATE KEY(?P<b> BLOCK)?-----")
_KEY_BEGIN = re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|PuTTY-User-Key-File-\d")
_KEY_BODY_LINE = re.compile(r"^[A-Za-z0-9+/=:\- ]+$")


_GENERIC = {"keyword", "token-in-url", "bearer-auth"}
_NOT_ALNUM = re.compile(r"[^A-Za-z0-9]")


def _vendor_placeholder(value: str) -> bool:
    """`AKIAXXXXXXXXXXXXXXXX`, `ghp_000…`, AWS's documented `AKIAIOSFODNN7EXAMPLE`: a
    vendor-shaped value written to show the shape, which honest docs quote."""
    body = value[4:]
    return len(set(body.replace("-", "").replace("_", ""))) <= 2 or "EXAMPLE" in value.upper()


_WINDOW = 256  # characters a keyword value is judged on (the span may run further)
_SPACE = re.compile(r"\s")

# Every rule above needs one of these in the text it matches: a vendor prefix (as cased
# as the rule) or, case-folded, a word of the keyword, URL, header and key-block rules.
# Most strings of a code graph (ids, paths, names) have none and skip the ~45 regexes of
# a scan. tests/hardening/test_secret_anchor.py holds every rule to it.
_ANCHOR_CASED = re.compile(
    r"A3T[A-Z0-9]|ABIA|ACCA|AKIA|ASIA|[MNO][a-zA-Z\d_-]{23,25}\.|gh[pousr]_|GR1348941"
    r"|gl(?:pat|dt|ft|soat|rt|cbt|imt|ptt|agent|oas)-|-us\d|T3BlbkFJ|pypi-|SG\.|sq0csp-"
    r"|k_live_|\d{8,10}:|AC[a-z0-9]{32}|SK[a-z0-9]{32}|AIza|github_pat_|eyJ|://|npm_|_authToken"
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


class _RunEnds:
    """Where the run holding a position ends (whitespace-free, or the `stop` pattern's);
    successive calls at rising positions look at each character once, so a line of one
    repeated anchor stays linear."""

    def __init__(self, line: str, stop: re.Pattern = None) -> None:
        self.line, self.lo, self.hi, self.stop = line, -1, -1, stop or _SPACE

    def __call__(self, pos: int) -> int:
        if not self.lo <= pos <= self.hi:
            found = self.stop.search(self.line, pos)
            self.lo, self.hi = pos, found.start() if found else len(self.line)
        return self.hi


def _keyword_spans(line: str) -> list[tuple[int, int]]:
    """Values after secret-sounding names, judged by `kb.secret_values`.

    Each match is judged inside a window of `_WINDOW` characters after it, so a line of
    one label repeated costs linear time; a value that runs past its window is still
    redacted to the end of its run.
    """
    spans: list[tuple[int, int]] = []
    run_end = _RunEnds(line)

    def judged(lo: int, hi: int, start: int, end: int) -> None:
        span = judge_assignment(line[lo:hi], start - lo, end - lo)
        if span:
            s, e = lo + span[0], lo + span[1]
            spans.append((s, run_end(e) if e == hi < len(line) else e))

    for match in _LABELS.finditer(line):
        if spans and match.start() < spans[-1][1]:
            continue  # inside a value already taken: its value ends inside that one too
        start = match.end()
        if start < len(line) and line[start] in "'\"`":
            start += 1
        lo = max(0, match.start() - 1)  # keep `?`/`&` before a query label
        hi = min(len(line), start + _WINDOW)
        judged(lo, hi, start, hi)
    # The keyword plugin's regexes are quadratic on long lines: scan a window per keyword.
    for hint in _KEYWORD_HINT.finditer(line):
        if not _ASSIGN_AFTER.match(line, hint.end()):
            continue
        lo, hi = max(0, hint.start() - 1), min(len(line), hint.end() + 300)
        window = line[lo:hi]
        for regex, group in _KEYWORD_REGEXES.items():
            # a regex that starts with the keyword is tried at this keyword only: a later
            # keyword gets its own window, and a search from every position of every
            # window re-reads the line ~300 times on a line of keywords
            anchored = regex.pattern.startswith(DENYLIST_REGEX)
            match = regex.match(window, hint.start() - lo) if anchored else regex.search(window)
            if match and match.group(group):
                judged(lo, hi, lo + match.start(group), lo + match.end(group))
    return spans


def _spans_in_line(line: str) -> list[tuple[int, int, str, str]]:
    """(start, end, rule, value) within one line."""
    out: list[tuple[int, int, str, str]] = []
    vendor = [(rule, regex) for rule, plugin in _PLUGINS.items() for regex in plugin.denylist]
    alnum_end = _RunEnds(line, _NOT_ALNUM)
    for rule, regex in [*vendor, *_OWN_VENDOR.items()]:
        for match in regex.finditer(line):
            s, e = _value_span(match)
            # a format's fixed length is its shortest form (Stripe's keys grew from 24
            # characters to ~100): the token goes on while its letters and digits do
            e = alnum_end(e) if e < len(line) and line[e].isalnum() else e
            if not _vendor_placeholder(line[s:e]):
                out.append((s, e, rule, line[s:e]))
    for match in _JWT.finditer(line):
        if JwtTokenDetector.is_formally_valid(match.group("jwt")):
            out.append((*match.span("jwt"), "jwt", match.group("jwt")))
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
    """Private-key blocks: BEGIN to its matching END, or an unterminated BEGIN and the
    base64 lines after it. Each BEGIN looks for its END among the END markers found in
    one pass (a lazy `.*?` from every BEGIN re-reads the rest of the text each time)."""
    ends: dict[tuple[str, str], list[int]] = {}
    for match in _KEY_END.finditer(text):
        ends.setdefault((match.group("k"), match.group("b") or ""), []).append(match.start())
    out: list[tuple[int, int, str, str]] = []
    covered_to = -1
    for match in _KEY_BEGIN_PARTS.finditer(text):
        if match.start() < covered_to:
            continue
        if match.group("k") is not None:
            kind = (match.group("k"), match.group("b") or "")
            starts = ends.get(kind, [])
            at = bisect.bisect_left(starts, match.end())
            if at < len(starts):
                end = text.index("-----", starts[at] + 5) + 5
                out.append((match.start(), end, "private-key", text[match.start() : end]))
                covered_to = end
                continue
        end = match.end()  # unterminated block: take the base64 body lines that follow
        line_end = text.find("\n", end)
        while line_end != -1:
            nxt = text.find("\n", line_end + 1)
            body = text[line_end + 1 : nxt if nxt != -1 else len(text)]
            if not body.strip() or not _KEY_BODY_LINE.match(body):
                end = line_end
                break
            line_end = nxt
        else:
            end = len(text)
        out.append((match.start(), end, "private-key", text[match.start() : end]))
        covered_to = end
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
    kept: list[tuple[int, int, str, str]] = []  # disjoint, sorted by start (and so by end)
    for generic in (False, True):
        tier = sorted(
            (r for r in raw if (r[2] in _GENERIC) == generic),
            key=lambda r: (r[0], -(r[1] - r[0]), r[2]),
        )
        for span in tier:
            at = bisect.bisect_left(kept, span[0], key=lambda k: k[0])
            before = kept[at - 1] if at else None
            after = kept[at] if at < len(kept) else None
            if (before is None or before[1] <= span[0]) and (after is None or span[1] <= after[0]):
                kept.insert(at, span)
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
