"""Field-level checks of KB frontmatter: types, ids, dates, vocabularies and mappings.

`FieldChecker` collects `Problem`s (never stops at the first); `kb.validate_docs` adds the
per-document rules on top and `kb.validate` the KB-wide ones.
"""

from __future__ import annotations

import difflib
import re
from datetime import date
from typing import Any

from kb.model import KbDoc, KnowledgeBase
from kb.problems import Problem
from kb.schema import VERIFICATION_FIELDS

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
HEX_RE = re.compile(r"^[0-9a-f]{8,64}$")


def did_you_mean(value: str, allowed: list[str]) -> str:
    """The closest allowed value, compared case-insensitively ('API' → 'api')."""
    by_lower = {a.lower(): a for a in reversed(allowed)}
    close = difflib.get_close_matches(value.lower(), list(by_lower), n=1, cutoff=0.5)
    if close:
        return f" — did you mean '{by_lower[close[0]]}'?"
    return f" — allowed: {', '.join(allowed)}"


_SHAPES = {list: "a list", dict: "a mapping"}
ISO_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def as_date(value: Any) -> date | None:
    """A YAML date, or text written YYYY-MM-DD that is a real date; nothing else
    (`20260101` is an integer, and Python would read its text as a date)."""
    if isinstance(value, date):
        return value
    if not isinstance(value, str) or not ISO_DATE_RE.match(value):
        return None
    try:
        return date.fromisoformat(value)
    except ValueError:
        return None


class FieldChecker:
    """Problems of single fields and field mappings, against the schema and vocabulary."""

    def __init__(self, kb: KnowledgeBase, today: date):
        self.kb = kb
        self.today = today
        self.out: list[Problem] = list(kb.problems)
        # An unreadable kb.yaml leaves repos_root unknown: its one error is the news, not
        # a "missing repo" for every component that follows from it.
        self.repos_root_known = not any(
            p.path == "kb.yaml" and p.severity == "error" for p in kb.problems
        )

    def err(
        self, doc: KbDoc | str, key: str | int, rule: str, msg: str, sev: str = "error"
    ) -> None:
        if isinstance(doc, KbDoc):
            line = doc.line_of(key) if isinstance(key, str) else key
            self.out.append(Problem(doc.path, line, sev, rule, msg))
        else:
            self.out.append(Problem(doc, key if isinstance(key, int) else 1, sev, rule, msg))

    def value(self, doc: KbDoc, key: str, value: Any, spec: tuple[str, str | None, bool]) -> None:
        kind, vocab, _ = spec
        field_name = key.rsplit(".", 1)[-1]
        if kind in ("str", "id", "hex") and not isinstance(value, str | int | float):
            self.err(
                doc, key, "type", f"{field_name} must be a text value, got {type(value).__name__}"
            )
            return
        kb_own = doc.kind == "adr" and key == "project"  # `_kb`: an ADR about the KB itself
        if kind == "id" and not ID_RE.match(str(value)) and not (kb_own and value == "_kb"):
            reserved = " (`_kb` names the KB's own ADRs only)" if value == "_kb" else ""
            self.err(
                doc,
                key,
                "id",
                f"{field_name} '{value}' must be lowercase letters, digits and '-'{reserved}"
                " — rename it (and its folder)",
            )
        if kind == "hex" and not HEX_RE.match(str(value)):
            self.err(
                doc,
                key,
                "type",
                f"{field_name} must be 8+ lowercase hex characters of sha256(value)",
            )
        if kind == "date" and as_date(value) is None:
            self.err(doc, key, "type", f"{field_name} '{value}' is not a date — write YYYY-MM-DD")
        if kind == "list":
            if not isinstance(value, list):
                self.err(doc, key, "type", f"{field_name} must be a list, e.g. [a, b]")
                return
            for i, item in enumerate(value):
                if isinstance(item, dict | list) or item is None:
                    self.err(
                        doc,
                        f"{key}.{i}",
                        "type",
                        f"{field_name} holds {_SHAPES.get(type(item), 'an empty item')} where a"
                        f" plain value goes — write {field_name}: [a, b]",
                    )
                    continue
                self.vocab(doc, f"{key}.{i}", field_name, vocab, item)
            return
        if kind == "verification":
            self.mapping(doc, key, value, VERIFICATION_FIELDS)
            return
        if vocab and kind == "str":
            self.vocab(doc, key, field_name, vocab, value)

    def vocab(self, doc: KbDoc, key: str, field_name: str, vocab: str | None, value: Any) -> None:
        allowed = self.kb.vocabulary.get(vocab or "")
        if not allowed or vocab is None:
            return  # no list, or an empty list = free-form
        if str(value) not in allowed:
            self.err(
                doc,
                key,
                "vocabulary",
                f"{field_name} '{value}' is not in vocabulary.{vocab}{did_you_mean(str(value), allowed)}"
                f" (or add it to vocabulary.yaml under {vocab})",
            )

    def mapping(
        self, doc: KbDoc, prefix: str, data: Any, fields: dict[str, tuple[str, str | None, bool]]
    ) -> None:
        if not isinstance(data, dict):
            self.err(
                doc,
                prefix,
                "type",
                f"{prefix.rsplit('.', 1)[-1]} must be a mapping of field: value",
            )
            return
        for name, spec in fields.items():
            if spec[2] and data.get(name) in (None, ""):
                self.err(doc, prefix, "required", f"{prefix} is missing required field '{name}'")
        for name, value in data.items():
            key = f"{prefix}.{name}" if prefix else str(name)
            if name not in fields:
                self.err(
                    doc,
                    key,
                    "unknown-field",
                    f"unknown field '{name}'{did_you_mean(str(name), list(fields))}",
                    "warning",
                )
            elif value is not None:
                self.value(doc, key, value, fields[name])
