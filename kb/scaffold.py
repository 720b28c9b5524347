"""`kb init`: a new KB with settings, the default vocabulary and one example project."""

from __future__ import annotations

from pathlib import Path

KB_YAML = """# kb-graph KB settings. The format (every file, field and vocabulary, with an example):
# docs/kb-format.md in the kb-graph repository.
name: {name}
repos_root: ../repos          # component `repo:` paths are relative to this folder
token_budget: 2000            # default MCP response budget (tokens)
stale:
  adr_proposed_days: 30
  verified_max_days: 90
"""

VOCABULARY_YAML = """# Controlled vocabulary: a value outside these lists fails `kb validate`.
# Add your own values to a list; `tag: []` (empty) means free-form.
# What each list governs: docs/kb-format.md#vocabularyyaml in the kb-graph repository.
role: [frontend, api, infra, cms, functions, worker, library]
runtime: [cloud-run, app-engine, firebase-hosting, firebase-functions, cloud-functions-gen1, cloud-functions-gen2, s3-cloudfront, vercel, static]
deploy: [github-actions, cloud-build, circleci, firebase-cli, terraform, manual]
access: [public, iap, basic-auth, vpn, internal]
stack: [nextjs, nuxt, vue, react, express, fastapi, flask, typescript, python, terraform, contentful, firebase]
integration: [zendesk, recaptcha, sendgrid, contentful, akamai, google-analytics, salesforce]
secret_store: [secret-manager, github-secrets, circleci-context, firebase-config, env-file]
env: [dev, staging, prod]
status: [verified, unverified, stale, disputed]
adr_status: [proposed, rejected, accepted, deprecated, superseded]
doc_type: [architecture, runbook, convention, spec, overview, integration]
tag: []        # empty list = free-form
"""

PROJECT_MD = """---
kind: project
id: {project}
title: {title}
tags: []
---
# {title}

What this project is for, who uses it, and where its components run.
Add one folder per component repo with a `component.md`. Every field, its vocabulary
and a complete example: docs/kb-format.md in the kb-graph repository.
"""

ADR_MD = """---
kind: adr
project: _kb
status: accepted
date: {today}
decision-makers: [tech-lead]
consulted: []
informed: []
summary: Keep architecture knowledge as Markdown with YAML frontmatter in git, validated and indexed by kb-graph.
---
# Use docs-as-code for the knowledge base

## Context and Problem Statement

Documentation drifted from the code in wikis; agents and people need one checked source.

## Decision Outcome

Chosen option: a git repository of Markdown files validated by `kb validate` and
indexed by `kb refresh`.
"""

GITIGNORE = ".kb/\n"


def scaffold(root: Path, project: str = "my-project", today: str = "2026-01-01") -> list[Path]:
    """Write a new KB under `root`; refuses to touch a folder that already has a kb.yaml."""
    if (root / "kb.yaml").exists():
        raise FileExistsError(f"{root} already has a kb.yaml — pick an empty folder")
    files = {
        root / "kb.yaml": KB_YAML.format(name=root.resolve().name),
        root / "vocabulary.yaml": VOCABULARY_YAML,
        root / "projects" / project / "project.md": PROJECT_MD.format(
            project=project, title=project.replace("-", " ").title()
        ),
        root / "adr" / "0001-use-docs-as-code.md": ADR_MD.format(today=today),
        root / ".gitignore": GITIGNORE,
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists():
            path.write_text(text, encoding="utf-8")
    return list(files)
