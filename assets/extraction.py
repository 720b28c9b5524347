"""Extract one component into staging unless its staged facts are already current.

Plain Python (no Dagster): the `code_facts` asset calls it once per partition in its run.
"""

from __future__ import annotations

from pathlib import Path

from extractors import extract_component
from kb.model import Component
from kb.versions import component_version
from warehouse.catalog import component_frames
from warehouse.code_stage import read_stamp, write_component_facts


def extract_to_stage(
    data_dir: Path, comp: Component, code_version: str, force: bool = False
) -> dict:
    """Returns the component's stamp, with `reused` telling whether extraction was skipped."""
    version = component_version(comp.repo_path)
    stamp = {"version": version, "code_version": code_version, "repo": str(comp.repo_path)}
    old = read_stamp(data_dir, comp.key)
    if (
        not force
        and old
        and old.get("version") == version
        and old.get("code_version") == code_version
    ):
        return {**old, "reused": True}
    facts = extract_component(comp.project, comp.id, comp.repo_path) if comp.repo_path else None
    tables = component_frames(facts) if facts is not None else {}
    write_component_facts(data_dir, comp.key, tables, stamp)
    return {**stamp, "reused": False}
