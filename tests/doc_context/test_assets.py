"""The Dagster assets stage chunks that publish lands and `kb context` then answers from."""

from __future__ import annotations

import warnings
from pathlib import Path

import dagster as dg

from tests.support.portfolio import REPO, kb_cli
from warehouse.publish import publish
from warehouse.staging import read_stage, staged_keys


def _kb(tmp_path: Path, write) -> Path:
    write(
        tmp_path,
        {
            "repos/api/README.md": "# API\n\nThe contact endpoint posts to Zendesk.\n",
            "repos/api/docs/ops.md": "# Operations\n\nRotate the Zendesk token yearly.\n",
            "kb/kb.yaml": "name: t\nrepos_root: ../repos\n",
            "kb/projects/p/project.md": "---\nkind: project\nid: p\ntitle: P\n---\n# P\n",
            "kb/projects/p/api/component.md": (
                "---\nkind: component\nproject: p\nid: api\nrole: api\nrepo: api\n---\n"
                "# API component\n\nServes the contact form.\n"
            ),
        },
    )
    return tmp_path / "kb"


def test_assets_stage_publish_and_cli_answers(tmp_path, write):
    warnings.simplefilter("ignore")
    from assets.docs_index import doc_chunks, kb_doc_chunks
    from assets.resources import kb_resources

    kb_root = _kb(tmp_path, write)
    data = tmp_path / "data"
    instance = dg.DagsterInstance.ephemeral()
    instance.add_dynamic_partitions("components", ["p/api"])
    resources = kb_resources(kb_root, data)
    assert dg.materialize([kb_doc_chunks], resources=resources, instance=instance).success
    result = dg.materialize(
        [doc_chunks], resources=resources, instance=instance, partition_key="p/api"
    )
    assert result.success
    assert staged_keys(data, "doc_chunks") == ["p/api"]
    repo = read_stage(data, "doc_chunks", "p/api")
    assert sorted(repo["doc_chunks"]["path"].to_list()) == ["README.md", "docs/ops.md"]
    kb_stage = read_stage(data, "kb_doc_chunks")
    publish(data, {"_global": kb_stage, "p": repo})
    out = kb_cli(
        "context", "rotate zendesk token", "--kb", str(kb_root), "--data-dir", str(data),
        "--max-tokens", "300", cwd=REPO,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "p/api docs/ops.md:1-3 · Operations" in out.stdout
    assert "why: AND: rotate, zendesk, token" in out.stdout


def test_cli_without_warehouse_says_run_refresh(tmp_path, write):
    kb_root = _kb(tmp_path, write)
    out = kb_cli("context", "x", "--kb", str(kb_root), cwd=REPO)
    assert out.returncode == 1
    assert out.stderr.strip().count("\n") == 0 and "kb refresh" in out.stderr
