"""A component's version: last commit touching its folder + uncommitted changes; plain
folders (no git) by content. Users see it as `kb status` naming what is stale."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.checks import assert_nothing_to_do, output, skip_if_code_changed
from tests.support.portfolio import build, copy_example, kb_cli

COMPONENT = "acme-shop/contact-api"


def _stale(kb_root: Path) -> list[str]:
    result = kb_cli("status", "--kb", str(kb_root))
    assert result.returncode == 0, output(result)
    return [
        ln.strip().split(":")[0] for ln in result.stdout.splitlines() if "code_graph_stale" in ln
    ]


def _extracted(result) -> list[str]:
    return [ln for ln in result.stdout.splitlines() if ln.startswith("extracting")]


@pytest.fixture(scope="module", params=["git", "plain-folder"])
def kb_root(request, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = copy_example(
        tmp_path_factory.mktemp(request.param) / "portfolio", with_git=request.param == "git"
    )
    build(root)
    return root


@pytest.mark.slow
def test_uncommitted_edit_stales_only_its_component(kb_root: Path) -> None:
    target = kb_root.parent / "repos" / COMPONENT / "src" / "index.ts"
    original = target.read_text(encoding="utf-8")
    assert _stale(kb_root) == []
    target.write_text(original + "\n// work in progress\n", encoding="utf-8")
    assert _stale(kb_root) == [COMPONENT]
    result = build(kb_root)
    skip_if_code_changed(result)
    assert len(_extracted(result)) == 1 and _extracted(result)[0].endswith(COMPONENT), output(
        result
    )
    assert _stale(kb_root) == []
    target.write_text(original, encoding="utf-8")  # back to the committed content
    assert _stale(kb_root) == [COMPONENT]
    build(kb_root)
    assert_nothing_to_do(build(kb_root))


@pytest.mark.slow
def test_new_untracked_file_stales_its_component(kb_root: Path) -> None:
    extra = kb_root.parent / "repos" / "globex-portal" / "web" / "src" / "new-file.ts"
    extra.write_text("export const answer = 42;\n", encoding="utf-8")
    try:
        assert _stale(kb_root) == ["globex-portal/web"]
    finally:
        extra.unlink()
    assert _stale(kb_root) == []
