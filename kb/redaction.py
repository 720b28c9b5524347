"""Redaction across everything one import writes: files, names and provenance.

`redact_text` handles one text. An import writes several views of one page (the
storage HTML, its Markdown, a folder name from the title, `_source.yaml` with the
URL), and a value recognisable in one view can hide in another: `Password:</strong>
Tr0ub4dor&amp;3x` reads as a credential only once tags are dropped and entities
decoded. So every value found in any view (or in the plain text of HTML) is removed
from all of them, in its raw, HTML-escaped and URL-encoded spellings.
"""

from __future__ import annotations

import html
import re
from typing import Any
from urllib.parse import quote, quote_plus

from kb.secret_scan import SecretFinding, redact_text, redaction_marker, scan_text

_TAG = re.compile(r"<[^>]*>")
MIN_SHARED = 6  # shorter values are only redacted where they were recognised


def html_text(markup: str) -> str:
    """The text a reader sees: tags dropped (each a line break), entities decoded."""
    return html.unescape(_TAG.sub("\n", markup))


def _spellings(value: str) -> list[str]:
    forms = {value, html.escape(value, quote=False), html.escape(value), quote(value, safe="")}
    forms.add(quote_plus(value))
    return sorted(forms, key=len, reverse=True)


class Redactor:
    """Collects secret values from every view, then redacts each view of them all."""

    def __init__(self) -> None:
        self.known: dict[str, SecretFinding] = {}
        self.found = 0  # findings seen while learning, short values included

    def learn(self, text: str) -> None:
        views = [text, html_text(text)] if "<" in text else [text]
        for view in views:
            for finding in scan_text(view):
                self.found += 1
                value = view[finding.start : finding.end]
                if len(value) >= MIN_SHARED:
                    self.known.setdefault(value, finding)

    def text(self, text: str) -> tuple[str, list[SecretFinding]]:
        """`text` with its own findings and every known value replaced by markers."""
        redacted, findings = redact_text(text)
        for value, finding in sorted(self.known.items(), key=lambda kv: -len(kv[0])):
            marker = redaction_marker(finding)
            for form in _spellings(value):
                pos = redacted.find(form)
                while pos != -1:
                    line = redacted.count("\n", 0, pos) + 1
                    findings.append(SecretFinding(line, finding.rule, finding.sha256_prefix, 0, 0))
                    redacted = redacted[:pos] + marker + redacted[pos + len(form) :]
                    pos = redacted.find(form, pos + len(marker))
        return redacted, findings

    def value(self, value: Any, found: list[SecretFinding] | None = None) -> Any:
        """Strings anywhere in nested dicts/lists redacted (keys too); findings into `found`."""
        if isinstance(value, str):
            text, findings = self.text(value)
            if found is not None:
                found.extend(findings)
            return text
        if isinstance(value, dict):
            return {self.value(k, found): self.value(v, found) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.value(v, found) for v in value]
        return value


def redact_files(
    files: dict[str, str], meta: dict[str, Any]
) -> tuple[dict[str, str], list[tuple[str, SecretFinding]], dict[str, Any]]:
    """(redacted files, [(file name, finding)], redacted meta) for one import."""
    redactor = Redactor()
    for text in files.values():
        redactor.learn(text)
    for text in _strings(meta):
        redactor.learn(text)
    out: dict[str, str] = {}
    findings: list[tuple[str, SecretFinding]] = []
    for name in sorted(files):
        text, found = redactor.text(files[name])
        out[redactor.text(name)[0]] = text
        findings.extend((name, f) for f in found)
    in_meta: list[SecretFinding] = []
    meta = redactor.value(meta, in_meta)
    findings.extend(
        ("_source.yaml", SecretFinding(1, f.rule, f.sha256_prefix, 0, 0)) for f in in_meta
    )
    return out, findings, meta


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(value, list | tuple):
        return [s for v in value for s in _strings(v)]
    return []


def redact_any(value: Any) -> Any:
    """A nested value with every credential in any string redacted."""
    redactor = Redactor()
    for text in _strings(value):
        redactor.learn(text)
    return redactor.value(value)
