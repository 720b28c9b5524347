"""Is this assigned value a credential, or prose / a pointer / a placeholder?

detect-secrets' keyword plugin only says "a secret-sounding name is followed by
something". Deciding whether that something is a credential is the job of its
heuristic filters (`detect_secrets.filters.heuristic`), which we apply as the
detect-secrets scanner does, plus a judgement of how the value is written:

- a quoted literal (`password = "…"`) is a value by construction;
- an unquoted value that ends the assignment (`password: hunter2`) is a value
  unless it reads as a word, a name, a path or a pointer;
- an unquoted value followed by more words (`password: see the vault`) is prose,
  unless its first token is strongly credential-shaped (mixed character classes
  or high Shannon entropy, measured with detect-secrets' entropy plugin).

The gibberish filter is left out on purpose: human passwords are English-like
(`Summer2024!`, `p@ssw0rd!`) and it lets them through.
"""

from __future__ import annotations

import re
import string

from detect_secrets.filters.heuristic import (
    is_indirect_reference,
    is_likely_id_string,
    is_not_alphanumeric_string,
    is_potential_uuid,
    is_prefixed_with_dollar_sign,
    is_sequential_string,
    is_templated_secret,
)
from detect_secrets.plugins.high_entropy_strings import Base64HighEntropyString

_ENTROPY = Base64HighEntropyString()
_QUOTES = "'\"`"
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
_PLACEHOLDER = re.compile(
    r"^(?:\$\{?|\{|<|%\(|\[|\*+$|x+$|X+$|\.\.\.)|\.\.\.|…|"
    r"^(?:process\.env|os\.environ|import\.meta\.env|env\.|getenv|secrets\.|vars\.)",
    re.IGNORECASE,
)
# words that name a secret or describe it, written where a value would go
_NOT_VALUE_WORDS = """true false null none nil yes no required optional redacted empty unset
    password passwd pass pwd pw secret token apikey api_key key value changeme
    argon2 argon2id argon2i bcrypt scrypt pbkdf2 sha1 sha256 sha512 md5 hmac
    hs256 hs512 rs256 rs512 es256 ed25519 x25519 aes128 aes256 rsa2048 rsa4096
1password lastpass bitwarden keepass keepassxc keychain vault sops"""
_NOT_VALUES = frozenset(_NOT_VALUE_WORDS.split())
# `jwt-signing-key`, `min-length-12`, `acme_prod.db`: lowercase slugs name things
_SLUG = re.compile(r"^[a-z]+(?:[-_.:](?:[a-z]+|\d+))*$")
# `Google-signed`, `SecretManager`, `ApiKeyAuth`, `HMAC`: words (each piece after the
# first starts upper-case, so a run of letters splits one way only: linear time)
_LETTERS = re.compile(r"(?:[A-Z]+|[A-Z]?[a-z]+)(?:[A-Z][a-z]+)*")
# ... and with a digit suffix (`argon2id`, `SHA256`, `hunter2`): judged only inside prose
_WORDISH_PART = re.compile(r"\d+|(?:[A-Z]+|[A-Z]?[a-z]+)(?:[A-Z][a-z]+)*(?:\d+[a-z]*)?")
_PATH = re.compile(r"^(?:~|\.{1,2})?/[\w./-]*$|^[a-z0-9._-]+(?:/[a-z0-9._-]+)+/?$")
_FILE = re.compile(r"^[\w.-]+\.(?:py|md|ya?ml|json|toml|txt|ini|cfg|env|key|pem|crt|sh|js|ts|go)$")
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://[^\s:@/]+(?:[/?#]|$)", re.IGNORECASE)
_TRAILING = ".,;:)]}>'\"`"
_SPACE = re.compile(r"\s")
_QUERY_STOP = re.compile(r"[\s&#]")
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(?:\.[\w-]+)+$")


def _is_words(value: str) -> bool:
    return all(p and _LETTERS.fullmatch(p) for p in re.split(r"[-_.' ]", value))


def _is_wordish(value: str) -> bool:
    return all(p and _WORDISH_PART.fullmatch(p) for p in re.split(r"[-_.:/]", value))


def _classes(value: str) -> int:
    sets = (string.ascii_lowercase, string.ascii_uppercase, string.digits)
    return sum(any(c in s for c in value) for s in sets) + any(not c.isalnum() for c in value)


def filtered_by_detect_secrets(value: str, line: str) -> bool:
    """detect-secrets' default heuristic filters for a keyword finding."""
    return (
        is_templated_secret(value)
        or is_prefixed_with_dollar_sign(value)
        or is_sequential_string(value)
        or is_potential_uuid(value)
        or is_not_alphanumeric_string(value)
        or is_likely_id_string(value, line)
        or (("(" in line or "[" in line) and is_indirect_reference(line))
    )


def _pointer_or_placeholder(value: str) -> bool:
    return bool(
        value.lower() in _NOT_VALUES
        or _ENV_NAME.match(value)
        or _PLACEHOLDER.search(value)
        or "${" in value
        or value.startswith("[REDACTED")
        or _SLUG.match(value)
        or _PATH.match(value)
        or _FILE.match(value)
        or _URL.match(value)
        or _EMAIL.match(value)
    )


def strongly_credential_shaped(value: str) -> bool:
    """A token that is a credential even inside a sentence."""
    if len(value) < 8 or _pointer_or_placeholder(value) or _is_wordish(value):
        return False
    if is_sequential_string(value) or is_potential_uuid(value):
        return False
    return _classes(value) >= 3 or _ENTROPY.calculate_shannon_entropy(value) >= 3.5


def _is_value(value: str, line: str) -> bool:
    if len(value) < 6 or _pointer_or_placeholder(value) or _is_words(value):
        return False
    return not filtered_by_detect_secrets(value, line)


def _in_url_query(line: str, start: int) -> bool:
    """`?token=…` / `&api_key=…`: the value ends at the next `&`."""
    head = line[max(0, start - 60) : start]
    return bool(re.search(r"[?&][\w.-]+=$", head))


def judge_assignment(line: str, start: int, end: int) -> tuple[int, int] | None:
    """The credential span of a keyword match whose raw value is `line[start:end]`.

    `line` is the text from the keyword on (so `is_indirect_reference` sees the
    assignment, not unrelated prose before it). None: prose, pointer, placeholder.
    """
    quote = line[start - 1] if start > 0 and line[start - 1] in _QUOTES else ""
    if quote:
        close = line.find(quote, start)
        end = close if close != -1 else end
        value = line[start:end]
        if any(ch.isspace() for ch in value):  # a quoted sentence, not a literal
            return None
        return (start, end) if _is_value(value, line) else None
    while start < end and line[start] in "*`(":
        start += 1
    stop = (_QUERY_STOP if _in_url_query(line, start) else _SPACE).search(line, start, end)
    token_end = stop.start() if stop else end
    # what the detect-secrets filters read: the assignment and a little after its value
    # (`get_secret_key( name )`), not the whole line — they are quadratic in what they read
    context = line[: token_end + 80]
    while token_end > start and line[token_end - 1] in _TRAILING:
        token_end -= 1
    value = line[start:token_end]
    rest = line[token_end:].strip(" \t" + _TRAILING + "*`")
    if rest and not rest.startswith("#"):
        ok = strongly_credential_shaped(value) and not filtered_by_detect_secrets(value, context)
    else:
        ok = _is_value(value, context)
    return (start, token_end) if ok else None
