"""Validate a parsed KB against kb-format.md and its vocabulary.

Every problem is collected (never stop at the first), one line each with `path:line`,
what is wrong and how to fix it. Secrets are reported by location and rule only.
Warnings (stale ADRs, old verifications) are computed against `today`, which tests set.
"""

from __future__ import annotations

import difflib
import os
import re
from datetime import date
from typing import Any

from kb.model import KbDoc, KnowledgeBase, parse_calls_entry
from kb.problems import Problem, sorted_problems
from kb.repo_paths import outside_reason
from kb.rules import misplaced, with_doc_link
from kb.schema import (
    CALLS_FIELDS,
    ENV_FIELDS,
    FIELDS,
    KINDS,
    OUT_OF_SCOPE_HEADING,
    OUT_OF_SCOPE_TYPES,
    SECRET_FIELDS,
    SECRET_VALUE_KEYS,
    VERIFICATION_FIELDS,
)
from kb.secret_scan import scan_text

ID_RE = re.compile(r"^[a-z0-9][a-z0-9-]*$")
HEX_RE = re.compile(r"^[0-9a-f]{8,64}$")
HEADING_RE = re.compile(OUT_OF_SCOPE_HEADING, re.IGNORECASE | re.MULTILINE)


def did_you_mean(value: str, allowed: list[str]) -> str:
    """The closest allowed value, compared case-insensitively ('API' → 'api')."""
    by_lower = {a.lower(): a for a in reversed(allowed)}
    close = difflib.get_close_matches(value.lower(), list(by_lower), n=1, cutoff=0.5)
    if close:
        return f" — did you mean '{by_lower[close[0]]}'?"
    return f" — allowed: {', '.join(allowed)}"


def as_date(value: Any) -> date | None:
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        return None


class _Checker:
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
        if kind == "id" and not ID_RE.match(str(value)) and str(value) != "_kb":
            self.err(
                doc, key, "id", f"{field_name} '{value}' must be lowercase letters, digits and '-'"
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

    def doc(self, doc: KbDoc) -> None:
        kind = doc.kind
        if kind not in KINDS:
            shown = f"'{doc.frontmatter.get('kind')}'" if "kind" in doc.frontmatter else "missing"
            self.err(doc, "kind", "kind", f"kind {shown} — must be one of {', '.join(KINDS)}")
            return
        fm = doc.frontmatter
        for name, spec in FIELDS[kind].items():
            if (
                spec[2]
                and fm.get(name) in (None, "", [])
                and not (name == "project" and kind == "adr")
            ):
                self.err(doc, 1, "required", f"{kind} is missing required field '{name}'")
        for name, value in fm.items():
            if name not in FIELDS[kind]:
                hint = misplaced(kind, name) or did_you_mean(name, list(FIELDS[kind]))
                self.err(
                    doc,
                    name,
                    "unknown-field",
                    f"unknown field '{name}' for a {kind}{hint}",
                    "warning",
                )
            elif value is not None:
                self.value(doc, name, value, FIELDS[kind][name])
        if kind == "component":
            self.component(doc)
        self.references(doc)
        self.scope(doc)

    def component(self, doc: KbDoc) -> None:
        fm = doc.frontmatter
        envs = fm.get("envs")
        if isinstance(envs, dict):
            for env, body in envs.items():
                self.vocab(doc, f"envs.{env}", "env", "env", env)
                self.mapping(doc, f"envs.{env}", body, ENV_FIELDS)
        elif envs is not None:
            self.err(doc, "envs", "type", "envs must map env name to {runtime: ..., url: ...}")
        for i, secret in enumerate(
            fm.get("secrets") or [] if isinstance(fm.get("secrets"), list) else []
        ):
            for key in SECRET_VALUE_KEYS & set(secret if isinstance(secret, dict) else {}):
                self.err(
                    doc,
                    f"secrets.{i}.{key}",
                    "secret-value",
                    f"secrets[{i}] has a '{key}' field — store only name, store, ref, env_var, hint and sha256_prefix, never the value",
                )
            if isinstance(secret, dict):
                allowed = {k: v for k, v in SECRET_FIELDS.items()}
                self.mapping(
                    doc,
                    f"secrets.{i}",
                    {k: v for k, v in secret.items() if k not in SECRET_VALUE_KEYS},
                    allowed,
                )
        if fm.get("secrets") is not None and not isinstance(fm.get("secrets"), list):
            self.err(
                doc,
                "secrets",
                "type",
                "secrets must be a list of {name, store, ref, env_var, hint}",
            )
        project = self.kb.projects.get(doc.project or "")
        calls = fm.get("calls")
        if calls is not None and not isinstance(calls, list):
            self.err(doc, "calls", "type", "calls must be a list of {component, env_var|url|host}")
        for i, call in enumerate(calls if isinstance(calls, list) else []):
            entry, why = parse_calls_entry(call, i)
            if entry is None:
                self.err(doc, f"calls.{i}", "calls", str(why))
                continue
            self.mapping(doc, f"calls.{i}", call, CALLS_FIELDS)
            target = entry.component
            if "/" in target and target.split("/", 1)[0] != doc.project:
                self.err(
                    doc,
                    f"calls.{i}.component",
                    "cross-project",
                    f"calls points at '{target}' in another project — calls may only name a component of {doc.project}",
                )
            elif project and target not in project.components:
                self.err(
                    doc,
                    f"calls.{i}.component",
                    "reference",
                    f"calls names component '{target}' not in project {doc.project}{did_you_mean(target, sorted(project.components))}",
                )
        comp = self.kb.component(f"{doc.project}/{fm.get('id')}")
        if (
            self.repos_root_known
            and comp
            and comp.doc is doc
            and fm.get("repo")
            and (comp.repo_path is None or not comp.repo_path.is_dir())
        ):
            reason = outside_reason(fm["repo"])
            if reason:
                self.err(
                    doc,
                    "repo",
                    "repo-outside",
                    f"repo path '{str(fm['repo'])[:200]}' {reason} — give a folder inside repos_root {self.kb.config.repos_root}",
                )
            else:
                self.err(
                    doc,
                    "repo",
                    "missing-repo",
                    f"repo path '{fm['repo']}' does not exist under repos_root {self.kb.config.repos_root} — clone it there or fix `repo:`/repos_root in kb.yaml; until then the build skips it and keeps its last facts",
                    sev="warning",
                )

    def references(self, doc: KbDoc) -> None:
        fm = doc.frontmatter
        project_id = doc.project
        if doc.kind == "adr" and (project_id in (None, "_kb")):
            return
        if doc.kind == "project" or project_id is None:
            return
        project = self.kb.projects.get(project_id)
        if project is None or project.doc is None:
            known = sorted(p for p, v in self.kb.projects.items() if v.doc)
            self.err(
                doc,
                "project",
                "reference",
                f"unknown project '{project_id}'{did_you_mean(project_id, known)}",
            )
            return
        folder = doc.path.split("/")
        if len(folder) > 2 and folder[0] == "projects" and folder[1] != project_id:
            self.err(
                doc,
                "project",
                "reference",
                f"project '{project_id}' does not match its folder projects/{folder[1]}/",
            )
        if (
            doc.kind == "doc"
            and fm.get("component")
            and str(fm["component"]) not in project.components
        ):
            self.err(
                doc,
                "component",
                "reference",
                f"unknown component '{fm['component']}' in {project_id}{did_you_mean(str(fm['component']), sorted(project.components))}",
            )

    def scope(self, doc: KbDoc) -> None:
        doc_type = str(doc.frontmatter.get("type", "")).lower()
        if doc_type in OUT_OF_SCOPE_TYPES:
            self.err(
                doc,
                "type",
                "scope",
                f"type '{doc_type}' is out of scope — effort, schedules, assignments and meeting notes do not belong in the KB",
            )
        for match in HEADING_RE.finditer(doc.body):
            line = doc.body_start_line + doc.body.count("\n", 0, match.start())
            self.err(
                doc,
                line,
                "scope",
                f"heading '{match.group(0).lstrip('#').strip()}' is out of scope — keep effort, schedules, assignments and meeting notes out of the KB",
            )

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
    return sorted_problems([with_doc_link(p) for p in checker.out + list(extra or [])])


def has_errors(problems: list[Problem]) -> bool:
    return any(p.severity == "error" for p in problems)


def kb_today() -> date:
    """The validation clock: KB_TODAY=YYYY-MM-DD overrides today (tests, reproducible reports)."""
    forced = os.environ.get("KB_TODAY")
    return date.fromisoformat(forced) if forced else date.today()
