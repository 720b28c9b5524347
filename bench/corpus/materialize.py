"""Materialize the development portfolio from local mirrors, using only git.

Each component becomes bench/corpus/repos/<project>/<component>: the manifest's folder
at the pinned commit, committed once (fixed author and date), so component versions
behave as they do for a user. Idempotent: a checkout already at the right tree is kept.
"""

from __future__ import annotations

import fnmatch
import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
FIXED_ENV = {
    "GIT_AUTHOR_NAME": "corpus",
    "GIT_AUTHOR_EMAIL": "corpus@kb-graph.invalid",
    "GIT_COMMITTER_NAME": "corpus",
    "GIT_COMMITTER_EMAIL": "corpus@kb-graph.invalid",
    "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
    "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z",
}


def git(*args: str, cwd: Path | None = None, **kw) -> subprocess.CompletedProcess:
    env = {**os.environ, **FIXED_ENV}
    return subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True, **kw)


def materialize(entry: dict, mirrors: Path, repos_root: Path) -> str:
    owner_name = entry["repo"]
    mirror = mirrors / owner_name.replace("/", "+") / "repo"
    if not mirror.is_dir():
        return f"missing mirror: fetch {owner_name} first (search tool: fetch github:{owner_name})"
    dest = repos_root / entry["project"] / entry["component"]
    folder = entry.get("folder", ".").strip("/") or "."
    stamp = f"{owner_name}@{entry['commit']}:{folder}"
    marker = dest / ".git" / "corpus-source"
    if marker.is_file() and marker.read_text() == stamp:
        return f"ok (kept) {entry['project']}/{entry['component']}"
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    args = ["--git-dir", str(mirror), "archive", "--format=tar", entry["commit"]]
    if folder != ".":
        args.append(folder)
    tar_bytes = git(*args).stdout
    strip = 0 if folder == "." else len(Path(folder).parts)
    with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
        for member in tar.getmembers():
            parts = Path(member.name).parts[strip:]
            if not parts:
                continue
            rel = Path(*parts)
            if any(fnmatch.fnmatch(str(rel), pat) for pat in entry.get("exclude", [])):
                continue
            member.name = str(rel)
            if member.issym() or member.islnk():
                continue  # links could point outside the checkout
            tar.extract(member, dest, filter="data")
    git("init", "-q", "-b", "main", cwd=dest)
    git("add", "-A", cwd=dest)
    git("commit", "-q", "-m", f"corpus: {stamp}", cwd=dest)
    marker.write_text(stamp)
    return f"ok {entry['project']}/{entry['component']}"


def main() -> int:
    manifest = yaml.safe_load((HERE / "manifest.yaml").read_text())
    mirrors = Path(os.environ.get("MIRRORS") or (HERE / manifest["mirrors"])).resolve()
    repos_root = HERE / manifest["repos_root"]
    failed = 0
    for entry in manifest["components"]:
        line = materialize(entry, mirrors, repos_root)
        failed += line.startswith("missing")
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
