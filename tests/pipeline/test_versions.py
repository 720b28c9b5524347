"""Component versions: the batched, cached computation equals the per-folder definition."""

from __future__ import annotations

from pathlib import Path

from kb.versions import component_version, component_versions
from tests.support.portfolio import git


def _repo(tmp_path: Path) -> tuple[Path, dict[str, Path]]:
    repo = tmp_path / "repo"
    for name in ("a", "b", "nested/c"):
        (repo / name).mkdir(parents=True)
        (repo / name / "index.js").write_text(f"export const {name[-1]} = 1;\n")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "init")
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "x.py").write_text("x = 1\n")
    folders = {
        "p/a": repo / "a",
        "p/b": repo / "b",
        "p/c": repo / "nested" / "c",
        "p/plain": plain,
        "p/gone": tmp_path / "nope",
    }
    return repo, folders


def _expected(folders: dict[str, Path]) -> dict[str, str]:
    return {key: component_version(folder) for key, folder in folders.items()}


def test_batched_equals_per_folder_through_commits_edits_and_rewrites(tmp_path: Path) -> None:
    repo, folders = _repo(tmp_path)
    cache = tmp_path / "cache.json"
    first = component_versions(folders, cache)
    assert first == _expected(folders)
    assert first["p/gone"] == "missing" and first["p/plain"].startswith("content.")

    (repo / "a" / "index.js").write_text("export const a = 2;\n")
    git(repo, "commit", "-qam", "change a")
    second = component_versions(folders, cache)
    assert second == _expected(folders)
    assert second["p/a"] != first["p/a"]
    assert {k: second[k] for k in ("p/b", "p/c")} == {k: first[k] for k in ("p/b", "p/c")}

    (repo / "b" / "new.js").write_text("export const n = 1;\n")  # untracked edit
    dirty = component_versions(folders, cache)
    assert dirty == _expected(folders)
    assert ".dirty." in dirty["p/b"] and ".dirty." not in dirty["p/a"]

    git(repo, "add", "-A")
    git(repo, "commit", "-q", "--amend", "-m", "rewritten")  # HEAD replaced, old one unreachable
    assert component_versions(folders, cache) == _expected(folders)
    cache.unlink()
    assert component_versions(folders, cache) == _expected(folders)


def test_corrupt_cache_is_ignored(tmp_path: Path) -> None:
    _, folders = _repo(tmp_path)
    cache = tmp_path / "cache.json"
    cache.write_text("{not json")
    assert component_versions(folders, cache) == _expected(folders)
