"""Per-document checks: required fields, component envs/secrets/calls, references between
docs, and out-of-scope content (effort, schedules, meeting notes)."""

from __future__ import annotations

import re

from kb.model import KbDoc, parse_calls_entry
from kb.repo_paths import outside_reason
from kb.rules import misplaced
from kb.schema import (
    CALLS_FIELDS,
    ENV_FIELDS,
    FIELDS,
    KINDS,
    OUT_OF_SCOPE_HEADING,
    OUT_OF_SCOPE_TYPES,
    SECRET_FIELDS,
    SECRET_VALUE_KEYS,
)
from kb.validate_fields import FieldChecker, did_you_mean

HEADING_RE = re.compile(OUT_OF_SCOPE_HEADING, re.IGNORECASE | re.MULTILINE)


class DocChecker(FieldChecker):
    """The rules that look at one document (and the projects/components it names)."""

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
            if not isinstance(secret, dict):
                self.err(
                    doc,
                    f"secrets.{i}",
                    "type",
                    f"secrets[{i}] is {type(secret).__name__}, not a mapping — each entry is "
                    "a mapping {name, store, ref, env_var, hint}",
                )
            else:
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
            self.err(
                doc, "calls", "type", "calls must be a list of {component, env_var|url|host|path}"
            )
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
