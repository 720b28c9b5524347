"""Knowledge-layer assets: KB docs, validation (blocking), indexes, knowledge graph."""

from __future__ import annotations

from collections.abc import Iterator

import dagster as dg
import polars as pl

from assets.automation import STALE_OR_MISSING, md_list
from assets.code_versions import code_version
from assets.resources import STAGING, KbResource
from kb.imports.store import import_problems
from kb.indexes import write_indexes
from kb.problems import Problem
from kb.secret_scan import redact_text
from kb.validate import has_errors, kb_today, validate_kb
from warehouse.knowledge_graph import knowledge_tables
from warehouse.staging import Tables
from warehouse.tables import frame

KB_CODE = code_version("kb")


def _redacted(df: pl.DataFrame) -> pl.DataFrame:
    """Credentials replaced by their redaction marker in every text column.

    kb_docs is staged before its blocking validation check runs, so a KB holding a
    plaintext credential must not get it into Parquet even on the way to failing.
    """
    text = [name for name, dtype in df.schema.items() if dtype == pl.Utf8]
    return df.with_columns(
        pl.col(name).map_elements(lambda v: redact_text(v)[0], return_dtype=pl.Utf8)
        for name in text
    )


@dg.observable_source_asset(
    group_name="sources", description="The KB's Markdown; data version = content hash."
)
def kb_source(kb: KbResource) -> dg.DataVersion:
    return dg.DataVersion(kb.kb().content_hash)


# Judged in the asset's own step, right after the tables are staged (a check of its own
# cost a step and a reload of them).
KB_VALIDATION = dg.AssetCheckSpec(
    "kb_validation",
    asset="kb_docs",
    blocking=True,
    description="Vocabulary, schema, references, scope and secrets.",
)


@dg.asset(
    deps=[kb_source],
    code_version=KB_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="knowledge",
    io_manager_key=STAGING,
    check_specs=[KB_VALIDATION],
)
def kb_docs(kb: KbResource) -> Iterator:
    """Every KB Markdown file parsed: the `docs` and `adrs` tables, and the KB's `problems`
    (validation), which the blocking `kb_validation` check judges."""
    knowledge = kb.kb()
    tables = knowledge_tables(knowledge)
    staged = {t: _redacted(tables[t]) for t in ("docs", "adrs")}
    problems = validate_kb(knowledge, kb_today(), extra=import_problems(knowledge.config.root))
    staged["problems"] = frame("problems", problems)
    yield dg.Output(
        staged,
        metadata={
            "docs": len(knowledge.docs),
            "adrs": len(knowledge.adrs),
            "projects": len(knowledge.projects),
        },
        data_version=dg.DataVersion(knowledge.content_hash),
    )
    yield kb_validation(problems)


def problems_of(tables: Tables) -> list[Problem]:
    """The KB's problems as `kb_docs` staged them."""
    df = tables.get("problems")
    rows = df.to_dicts() if df is not None else []
    return [Problem(r["path"], r["line"], r["severity"], r["rule"], r["message"]) for r in rows]


def kb_validation(problems: list[Problem]) -> dg.AssetCheckResult:
    errors = [p for p in problems if p.severity == "error"]
    return dg.AssetCheckResult(
        check_name=KB_VALIDATION.name,
        passed=not has_errors(problems),
        metadata={
            "errors": len(errors),
            "warnings": len(problems) - len(errors),
            "problems": md_list(f"`{p.render()}`" for p in problems),
        },
    )


@dg.asset(
    deps=[kb_docs],
    code_version=KB_CODE,
    automation_condition=STALE_OR_MISSING,
    group_name="knowledge",
)
def kb_indexes(kb: KbResource) -> dg.MaterializeResult:
    """index/projects.yaml and index/decisions.md, written into the KB."""
    changed = write_indexes(kb.kb())
    return dg.MaterializeResult(metadata={"changed": ", ".join(changed) or "none"})


@dg.asset(
    deps=[kb_docs],
    code_version=code_version("knowledge_graph"),
    automation_condition=STALE_OR_MISSING,
    group_name="knowledge",
    io_manager_key=STAGING,
)
def knowledge_graph(kb: KbResource) -> dg.Output[Tables]:
    """Project, component, env, runtime, GCP project, integration, secret, ADR and doc nodes."""
    tables = knowledge_tables(kb.kb())
    return dg.Output(
        {t: tables[t] for t in ("nodes", "edges")},
        metadata={"nodes": tables["nodes"].height, "edges": tables["edges"].height},
    )
