"""Sensors: keep the component partitions in sync with the KB, and notice new commits."""

from __future__ import annotations

import json

import dagster as dg

from assets.partitions import components_partitions
from assets.resources import KbResource
from kb.loader import KbNotFound
from kb.versions import component_versions
from pipeline.jobs import observe_sources_job


def partition_requests(
    kb_keys: list[str], existing: list[str]
) -> list[dg.DynamicPartitionsRequest]:
    """Add components new to the KB, delete those it no longer lists."""
    add = sorted(set(kb_keys) - set(existing))
    drop = sorted(set(existing) - set(kb_keys))
    requests: list[dg.DynamicPartitionsRequest] = []
    if add:
        requests.append(components_partitions.build_add_request(add))
    if drop:
        requests.append(components_partitions.build_delete_request(drop))
    return requests


@dg.sensor(minimum_interval_seconds=30, default_status=dg.DefaultSensorStatus.RUNNING)
def components_sensor(context: dg.SensorEvaluationContext, kb: KbResource) -> dg.SensorResult:
    """One partition per `project/component` in the KB."""
    try:
        keys = [c.key for c in kb.kb().components()]
    except KbNotFound as exc:
        return dg.SensorResult(skip_reason=str(exc))
    existing = context.instance.get_dynamic_partitions(components_partitions.name)
    requests = partition_requests(keys, existing)
    return dg.SensorResult(
        dynamic_partitions_requests=requests, skip_reason=None if requests else "in sync"
    )


@dg.sensor(
    job=observe_sources_job,
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
)
def repo_commits_sensor(context: dg.SensorEvaluationContext, kb: KbResource):
    """Observe component versions and the KB hash when any of them moved since the last look."""
    try:
        knowledge = kb.kb()
    except KbNotFound as exc:
        return dg.SkipReason(str(exc))
    current = component_versions({c.key: c.repo_path for c in knowledge.components()})
    current["_kb"] = knowledge.content_hash
    if context.cursor and json.loads(context.cursor) == current:
        return dg.SkipReason("no new commits and no KB edits")
    context.update_cursor(json.dumps(current, sort_keys=True))
    return dg.RunRequest(run_key=None)
