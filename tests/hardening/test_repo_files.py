"""A repo's hostile files are never read: a symlink leaving the repo (to a secret file or to
/dev/zero), a FIFO, and YAML/JSON bombs in lock files end in one warning each, quickly,
while the rest of the repo is extracted as usual."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from test_yaml_bombs import alias_bomb

PROBE = Path(__file__).with_name("extract_probe.py")
ROUTE = (
    "import express from 'express';\nconst app = express();\n"
    "app.get('/orders', (req, res) => res.send(process.env.ORDERS_TOKEN));\n"
)
PACKAGE_JSON = '{"name": "shop", "dependencies": {"express": "^4.19.0", "left-pad": "1.3.0"}}\n'


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1536 * 2**20, 1536 * 2**20))


def _extract(root: Path, baseline: Path | None = None) -> dict:
    result = subprocess.run(
        [sys.executable, str(PROBE), str(root), *([str(baseline)] if baseline else [])],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=_limit_memory,
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    return json.loads(result.stdout)


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_links_out_of_the_repo_and_special_files_are_never_read(tmp_path: Path) -> None:
    outside = _write(
        tmp_path / "outside",
        {"secret.ts": "app.get('/outsideMarkerRoute', h);\n", ".env": "OUTSIDE_MARKER=1\n"},
    )
    repo = _write(tmp_path / "repo", {"src/index.ts": ROUTE, "package.json": PACKAGE_JSON})
    os.symlink(outside / "secret.ts", repo / "src" / "secret.ts")
    os.symlink(outside / ".env", repo / ".env")
    os.symlink("/dev/zero", repo / "src" / "zero.ts")
    os.symlink("/dev/zero", repo / ".gitignore")
    os.mkfifo(repo / "src" / "pipe.ts")
    os.symlink(repo / "src" / "index.ts", repo / "src" / "same.ts")  # inside: still read
    report = _extract(repo)
    assert report["seconds"] < 5, report["seconds"]
    assert "OUTSIDE_MARKER" not in report["text"] and "outsideMarkerRoute" not in report["text"]
    rules = {path: rule for path, _, rule, _ in report["problems"]}
    assert rules == {
        "src/secret.ts": "symlink-outside-repo",
        ".env": "symlink-outside-repo",
        "src/zero.ts": "symlink-outside-repo",
        ".gitignore": "symlink-outside-repo",
        "src/pipe.ts": "special-file",
    }, report["problems"]
    assert all("\n" not in message for *_, message in report["problems"])
    assert {"src/index.ts", "src/same.ts", "package.json"} <= set(report["files"])
    assert "/orders" in report["text"] and "left-pad" in report["text"]


def _deep_json(depth: int) -> str:
    return '{"dependencies": ' + "[" * depth + "]" * depth + "}\n"


HOSTILE_LOCKS = {
    "pnpm-alias-bomb": (
        "pnpm-lock.yaml",
        alias_bomb(9) + "dependencies:\n  left-pad: *a8\n  express: 4.19.2\n",
    ),
    "pnpm-20000-deep": ("pnpm-lock.yaml", "x: " + "[" * 20000 + "]" * 20000 + "\n"),
    "package-lock-20000-deep": ("package-lock.json", _deep_json(20000)),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_LOCKS))
def test_hostile_lock_file_is_one_problem_and_the_rest_is_extracted(
    tmp_path: Path, name: str
) -> None:
    lock, text = HOSTILE_LOCKS[name]
    files = {"src/index.ts": ROUTE, "package.json": PACKAGE_JSON}
    baseline = _write(tmp_path / "baseline", files)
    # no extractor parses compose files; the bomb in one must not matter either
    compose = alias_bomb(9) + "services: *a8\n"
    repo = _write(tmp_path / "repo", {**files, lock: text, "docker-compose.yml": compose})
    report = _extract(repo, baseline)
    assert report["extra"] < 1.0 and report["seconds"] < 5, report["seconds"]
    hits = [p for p in report["problems"] if p[2] == "lock-file"]
    assert len(hits) == 1, report["problems"]
    path, line, _, message = hits[0]
    assert path == lock and "\n" not in message, hits
    if lock.endswith(".yaml"):
        assert line is not None and line <= 10, hits
    assert "/orders" in report["text"] and "left-pad" in report["text"]
    assert "ORDERS_TOKEN" in report["text"]
