"""Scale-out: `KB_EXECUTOR=celery kb refresh` spreads the stale partitions over two real
Celery workers (Redis on loopback) and publishes the same warehouse as the in-process build.
"""

from __future__ import annotations

import pytest

from bench.cluster import CeleryCluster, graph_dump, redis_available
from kb.loader import load_kb
from tests.support.portfolio import copy_example, kb_cli

pytestmark = pytest.mark.slow


@pytest.fixture
def cluster(tmp_path):
    if why := redis_available():
        pytest.skip(f"{why}: scripts/test.sh installs Debian's redis-server")
    kb_root = copy_example(tmp_path / "portfolio")
    data_dir = tmp_path / "data-celery"
    with CeleryCluster(data_dir / "dagster", workers=2, work=tmp_path / "celery") as running:
        yield kb_root, data_dir, running


def test_celery_refresh_equals_the_in_process_build(cluster, tmp_path):
    kb_root, data_dir, running = cluster
    local = tmp_path / "data-local"
    assert kb_cli("refresh", "--kb", str(kb_root), "--data-dir", str(local)).returncode == 0

    result = kb_cli(
        "refresh", "--kb", str(kb_root), "--data-dir", str(data_dir), env=running.env(), timeout=900
    )

    assert result.returncode == 0, result.stdout + result.stderr
    components = len(load_kb(kb_root).components())
    assert f"{components} partition run(s) on the celery executor" in result.stdout
    logs = [(running.work / f"worker{i}.log").read_text(errors="replace") for i in (1, 2)]
    # each partition's code_facts and doc_chunks steps ran on the workers, and both took some
    assert sum(log.count("succeeded") for log in logs) == 2 * components
    assert all("succeeded" in log for log in logs)
    in_process = graph_dump(local)
    assert graph_dump(data_dir) == in_process
    assert len(in_process) > 10_000
