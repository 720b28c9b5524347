"""Confluence / Drive imports as Dagster assets, one partition per configured source.

Partitions are static, read from the KB's kb.yaml when the definitions are built
(`import_assets(kb_root)`; `pipeline.schedules.build_import_defs` adds the cron
schedule): a KB without `imports:` gets no import assets at all.
Each source materializes in its own run, so a failing source never blocks the others;
retries (429/5xx with backoff, honouring Retry-After) happen in the HTTP layer inside
kb.imports, so a failed partition has already been retried; re-run it from the UI.
"""

from dataclasses import dataclass, field
from pathlib import Path

import dagster as dg
from dagster import AssetExecutionContext

from assets.automation import md_list
from assets.code_versions import source_version
from assets.resources import KbResource
from kb.imports import import_sources, run_source
from kb.loader import load_config


@dataclass
class ImportAssets:
    """The import asset and its job (none when kb.yaml configures no imports)."""

    assets: list = field(default_factory=list)
    jobs: list = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    imports: dict = field(default_factory=dict)  # kb.yaml's `imports:` (cron, credentials)


def import_assets(kb_root: str | Path) -> ImportAssets:
    """The `raw_imports` asset (one static partition per source) and `import_job`."""
    config, _ = load_config(Path(kb_root))
    sources = import_sources(config.imports)
    if not sources:
        return ImportAssets()
    partitions = dg.StaticPartitionsDefinition(sources)

    @dg.asset(
        name="raw_imports",
        partitions_def=partitions,
        group_name="imports",
        kinds={"confluence", "googledrive"},
        code_version=source_version("kb.imports"),
    )
    def raw_imports(context: AssetExecutionContext, kb: KbResource) -> dg.MaterializeResult:
        """Pages of one source fetched into `_imports/raw/`, secrets redacted, provenance kept."""
        from kb.imports import ImportConfigError  # the HTTP clients load only here

        cfg, _ = load_config(Path(kb.kb_root))
        try:
            result = run_source(cfg.root, cfg.imports, context.partition_key)
        except ImportConfigError as exc:
            raise dg.Failure(description=str(exc)) from None
        metadata = result.metadata()
        metadata["pages"] = md_list(metadata["pages"], limit=200)
        metadata["errors"] = md_list(metadata["errors"], limit=200)
        metadata["requests"] = result.requests
        if result.failed and not result.fetched and not result.unchanged:
            raise dg.Failure(description=result.summary(), metadata=metadata)
        context.log.info(result.summary())
        return dg.MaterializeResult(metadata=metadata)

    job = dg.define_asset_job("import_job", selection=[raw_imports])
    return ImportAssets([raw_imports], [job], sources, dict(config.imports))
