"""Validate a parsed KB against kb-format.md and its vocabulary.

Every problem is collected (never stop at the first), one line each with `path:line`,
what is wrong and how to fix it. Secrets are reported by location and rule only.
Warnings (stale ADRs, old verifications) are computed against `today`, which tests set.
Field rules live in `kb.validate_fields`, per-document rules in `kb.validate_docs`; this
module adds the KB-wide ones (duplicate ids, ADR numbering, secrets, staleness).
"""

from __future__ import annotations

import os
from datetime import date

from kb.layout import shared_folder_problems
from kb.model import KbDoc, KnowledgeBase
from kb.problems import Problem, sorted_problems
from kb.rules import with_doc_link
from kb.secret_scan import scan_text
from kb.validate_docs import DocChecker
from kb.validate_fields import as_date
from kb.vocabulary_keys import vocabulary_key_problems


class _Checker(DocChecker):
    """The KB-wide rules: identity and ADR numbering, plaintext secrets, staleness."""

    def structure(self) -> None:
        seen: dict[tuple[str, str], KbDoc] = {}
        for doc in self.kb.docs:
            if doc.kind not in ("project", "component") or not doc.frontmatter.get("id"):
                continue
            ident = (doc.kind, f"{doc.project or ''}/{doc.frontmatter['id']}")
            if ident in seen:
                self.err(
                    doc,
                    "id",
                    "duplicate",
                    f"duplicate {doc.kind} id '{ident[1].lstrip('/')}' — also defined in {seen[ident].path}",
                )
            else:
                seen[ident] = doc
            parts = doc.path.split("/")
            expected = parts[-2] if len(parts) >= 2 else None
            if expected and str(doc.frontmatter["id"]) != expected:
                self.err(
                    doc,
                    "id",
                    "id",
                    f"id '{doc.frontmatter['id']}' must match its folder name '{expected}'",
                )
        numbers: dict[tuple[str, str], str] = {}
        for adr in self.kb.adrs:
            if (adr.project, adr.number) in numbers:
                self.err(
                    adr.doc,
                    1,
                    "duplicate",
                    f"ADR {adr.number} is also {numbers[(adr.project, adr.number)]}",
                )
            numbers[(adr.project, adr.number)] = adr.path
        for adr in self.kb.adrs:
            if adr.supersedes and (adr.project, adr.supersedes) not in numbers:
                self.err(
                    adr.doc,
                    "supersedes",
                    "reference",
                    f"supersedes {adr.supersedes}: no such ADR in {adr.project}",
                )
        for doc in self.kb.docs:
            if doc.kind == "adr" and not any(a.doc is doc for a in self.kb.adrs):
                self.err(
                    doc,
                    1,
                    "adr-name",
                    "ADR file name must be NNNN-title.md (four digits, lowercase words)",
                )

    def secrets(self) -> None:
        root = self.kb.config.root
        texts = [(d.path, (root / d.path)) for d in self.kb.docs]
        texts += [
            (name, root / name)
            for name in ("kb.yaml", "vocabulary.yaml")
            if (root / name).is_file()
        ]
        for rel, path in texts:
            try:
                text = path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            for finding in scan_text(text):
                self.err(
                    rel,
                    finding.line,
                    "secret",
                    f"plaintext credential ({finding.rule}, sha256:{finding.sha256_prefix}) — remove it; "
                    "record only name, store, ref, env_var and hint under secrets:",
                )

    def staleness(self) -> None:
        cfg = self.kb.config
        for adr in self.kb.adrs:
            when = as_date(adr.date)
            if (
                adr.status == "proposed"
                and when
                and (self.today - when).days > cfg.adr_proposed_days
            ):
                self.err(
                    adr.doc,
                    "status",
                    "adr-stale",
                    f"ADR {adr.number} has been proposed for {(self.today - when).days} days "
                    f"(> {cfg.adr_proposed_days}) — accept, reject or re-date it",
                    "warning",
                )
        for doc in self.kb.docs:
            verified = as_date(doc.verification.get("verified_at"))
            if verified and (self.today - verified).days > cfg.verified_max_days:
                self.err(
                    doc,
                    "verification.verified_at",
                    "verification-old",
                    f"verified {(self.today - verified).days} days ago (> {cfg.verified_max_days}) — re-check against the code and run `kb verify`",
                    "warning",
                )


def validate_kb(
    kb: KnowledgeBase, today: date | None = None, extra: list[Problem] | None = None
) -> list[Problem]:
    """All problems of the KB, sorted; errors and warnings together."""
    checker = _Checker(kb, today or date.today())
    for doc in kb.docs:
        checker.doc(doc)
    checker.structure()
    checker.secrets()
    checker.staleness()
    checker.out += vocabulary_key_problems(kb) + shared_folder_problems(kb)
    return sorted_problems([with_doc_link(p) for p in checker.out + list(extra or [])])


def has_errors(problems: list[Problem]) -> bool:
    return any(p.severity == "error" for p in problems)


def kb_today() -> date:
    """The validation clock: KB_TODAY=YYYY-MM-DD overrides today (tests, reproducible reports)."""
    forced = os.environ.get("KB_TODAY")
    return date.fromisoformat(forced) if forced else date.today()
