"""The viewer server over real HTTP: JSON shape, partition scoping, errors, start-up."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request

from viewer_harness import KB, REPO, ViewerProcess


def get(url: str) -> tuple[int, dict]:
    try:
        with urllib.request.urlopen(url, timeout=10) as res:
            return res.status, json.load(res)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


def test_partitions_list_projects_first_and_global_last(viewer_server):
    status, body = get(viewer_server.url + "api/partitions")
    assert status == 200
    names = [p["name"] for p in body["partitions"]]
    assert names[0] == "acme-shop" and names[-1] == "_global"
    assert {"name": "bigco", "nodes": 5000, "edges": 10000} in body["partitions"]


def test_menu_counts_are_the_counts_the_page_draws(viewer_server):
    """The partition menu says what the footer will say: the partition's own nodes plus
    the global knowledge nodes the view brings along (issue 16: 372 in the menu, 451 drawn)."""
    _, body = get(viewer_server.url + "api/partitions")
    for item in body["partitions"]:
        _, drawn = get(viewer_server.url + f"api/graph?partition={item['name']}")
        assert (item["nodes"], item["edges"]) == (len(drawn["nodes"]), len(drawn["edges"]))


def test_project_graph_carries_its_knowledge_layer_in_one_request(viewer_server):
    status, body = get(viewer_server.url + "api/graph?partition=acme-shop")
    assert status == 200
    ids = {n["id"] for n in body["nodes"]}
    # the component -> code bridge connects: both ends are in the one payload
    assert "acme-shop:component:contact-api" in ids
    assert "acme-shop/contact-api:route:POST /api/jp/contact" in ids
    assert "_global:package:express" in ids  # catalog node the component uses
    assert not any(i.startswith("globex-portal") for i in ids)  # never another project
    types = {(e["src"], e["type"]) for e in body["edges"]}
    assert ("acme-shop:component:contact-api", "HAS_CODE") in types
    call = next(e for e in body["edges"] if e["type"] == "CALLS")
    assert call["attrs"] == {"envs": ["dev", "prod"], "via": "NEXT_PUBLIC_CONTACT_API_URL"}
    # the legend's groups and order come with the payload (one vocabulary, in vocab/)
    vocabulary = body["vocabulary"]
    assert vocabulary["edge_types"]["bridge"] == ["HAS_CODE", "RESOLVES_TO", "CALLS", "PROVISIONS"]
    assert vocabulary["node_kinds"]["code"][0] == "code_file"
    assert "package" in vocabulary["node_kinds"]["catalog"]


def test_unknown_partition_is_a_clear_404(viewer_server):
    status, body = get(viewer_server.url + "api/graph?partition=nope")
    assert status == 404
    assert body == {"error": "unknown_partition", "message": "unknown partition nope"}


def test_missing_warehouse_names_the_build_command(serve, tmp_path):
    server = serve("--kb", str(tmp_path / "kb"), "--data-dir", str(tmp_path / "empty"))
    status, body = get(server.url + "api/partitions")
    assert status == 503
    assert body["error"] == "warehouse_missing"
    assert body["command"].startswith(f"kb refresh --kb {tmp_path / 'kb'}")


def test_port_in_use_is_one_line_and_exit_1(sample_dir):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        run = subprocess.run(
            [KB, "viewer", "--data-dir", str(sample_dir)] + ["--port", str(port)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=30,
        )
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert f"port {port} on 127.0.0.1 is already in use" in lines[0]


def test_starts_without_dagster_and_prints_its_url(sample_dir):
    probe = (
        "import sys, cli.main, cli.commands.viewer, viewer.server;"
        "bad = [m for m in ('dagster', 'extractors.registry') if m in sys.modules];"
        "print(bad)"
    )
    run = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True)
    assert run.stdout.strip() == "[]", run.stdout + run.stderr
    proc = ViewerProcess(["--data-dir", str(sample_dir), "--port", "0"])
    try:
        assert proc.url.startswith("http://127.0.0.1:")
        print(f"kb viewer start-up: {proc.startup_s:.2f} s")
    finally:
        proc.stop()


def test_page_and_vendor_bundle_are_served_locally(viewer_server):
    with urllib.request.urlopen(viewer_server.url, timeout=10) as res:
        html = res.read().decode()
    assert (
        "/static/js/main.js" in html and "http" not in html.split("<body>")[1].split("</body>")[0]
    )
    with urllib.request.urlopen(viewer_server.url + "static/vendor/d3-force.js") as res:
        assert "forceSimulation" in res.read().decode()


def test_missing_front_end_bundle_says_which_command_builds_it(sample_dir, tmp_path):
    """A checkout where viewer/setup.sh never ran: the server refuses with the fix."""
    shutil.copytree(
        REPO / "viewer",
        tmp_path / "viewer",
        ignore=shutil.ignore_patterns("vendor", "node_modules"),
    )
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{REPO}"}
    run = subprocess.run(
        [sys.executable, "-c", "import sys; from cli.main import main; sys.exit(main())"]
        + ["viewer", "--data-dir", str(sample_dir), "--port", "0"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert run.returncode == 1
    assert run.stderr.strip() == (
        "kb viewer: viewer front-end files missing (vendor/d3-force.js) — "
        "run `bash viewer/setup.sh`"
    )
