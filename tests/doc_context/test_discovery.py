"""Which files the broker finds: buckets, exclusions, .gitignore, monorepo sharing."""

from __future__ import annotations

from doc_context import discover_kb, discover_repo, repo_scopes
from doc_context.build import component_chunks
from doc_context.discovery import RepoScope
from kb.loader import load_kb

REPO = {
    "README.md": "# Repo\n",
    "CHANGELOG.md": "# Changes\n",
    "docs/guide.md": "# Guide\n",
    "docs/deep/nested/api.md": "# API\n",
    "packages/core/docs/intro.md": "# Core intro\n",
    ".claude/skills/deploy/SKILL.md": "# Deploy skill\n",
    ".agents/skills/deploy/SKILL.md": "# Deploy skill\n",
    "skills/lint/SKILL.md": "# Lint\n",
    "packages/README.md": "# not one level below root? it is: packages/README.md\n",
    "web/TODO.md": "# Todo\n",
    "web/ARCHITECTURE.md": "# Arch\n",
    "web/notes.md": "# lower-case: not meta\n",
    "web/src/README.md": "# two levels down: not meta\n",
    "src/components/Button.md": "# not indexed\n",
    "node_modules/lib/README.md": "# never\n",
    "web/node_modules/x/docs/a.md": "# never\n",
}


def _buckets(disc) -> dict[str, str]:
    return {f.rel: f.bucket for f in disc.files}


def test_repo_buckets(tree):
    root = tree(REPO)
    got = _buckets(discover_repo(root))
    assert got == {
        ".agents/skills/deploy/SKILL.md": "skills",
        ".claude/skills/deploy/SKILL.md": "skills",
        "CHANGELOG.md": "root",
        "README.md": "root",
        "docs/deep/nested/api.md": "docs",
        "docs/guide.md": "docs",
        "packages/README.md": "meta",
        "packages/core/docs/intro.md": "docs",
        "skills/lint/SKILL.md": "skills",
        "web/ARCHITECTURE.md": "meta",
        "web/TODO.md": "meta",
    }


def test_exclude_buckets(tree):
    root = tree(REPO)
    got = _buckets(discover_repo(root, exclude_buckets=["skills", "meta"]))
    assert set(got.values()) == {"root", "docs"}
    assert "web/TODO.md" not in got


def test_gitignore_root_and_nested(tree):
    root = tree(
        {
            **REPO,
            ".gitignore": "CHANGELOG.md\ndocs/deep/\n",
            "web/.gitignore": "TODO.md\n",
            "docs/.gitignore": "*.md\n!guide.md\n",
            "docs/other.md": "# ignored by docs/.gitignore\n",
        }
    )
    got = _buckets(discover_repo(root))
    assert "CHANGELOG.md" not in got
    assert "docs/deep/nested/api.md" not in got
    assert "web/TODO.md" not in got
    assert "docs/other.md" not in got
    assert "docs/guide.md" in got  # re-included by `!guide.md`
    assert "web/ARCHITECTURE.md" in got  # web/.gitignore only names TODO.md


def test_size_cap_skips_with_reason(tree):
    root = tree({"README.md": "# ok\n"})
    big = root / "docs" / "huge.md"
    big.parent.mkdir()
    big.write_bytes(b"# Huge\n" + b"word " * (20 * 1024 * 1024 // 5))  # ~20 MB
    disc = discover_repo(root)
    assert [f.rel for f in disc.files] == ["README.md"]
    assert disc.skipped and disc.skipped[0][0] == "docs/huge.md"
    assert "MB cap" in disc.skipped[0][1]
    chunks = component_chunks(RepoScope("p", "c", root, [], []))
    assert chunks.skipped[0][0] == "docs/huge.md"


def test_kb_docs_always_in_and_imports_excludable(tree):
    root = tree(
        {
            "kb.yaml": "name: t\n",
            "README.md": "# KB\n",
            "projects/p/project.md": "---\nkind: project\nid: p\n---\n# P\n",
            "index/decisions.md": "# generated\n",
            ".kb/x.md": "# data dir\n",
            "_imports/raw/page-1/page.md": "# Imported\n",
        }
    )
    got = _buckets(discover_kb(root))
    assert got == {
        "README.md": "kb",
        "projects/p/project.md": "kb",
        "index/decisions.md": "kb",
        "_imports/raw/page-1/page.md": "imports",
    }
    assert set(_buckets(discover_kb(root, exclude_buckets=["imports", "kb"])).values()) == {"kb"}


def _component(project: str, cid: str, repo: str | None) -> str:
    repo_line = f"repo: {repo}\n" if repo else ""
    return f"---\nkind: component\nproject: {project}\nid: {cid}\nrole: api\n{repo_line}---\n"


def test_shared_repo_folder_indexed_once(tree):
    root = tree(
        {
            "repos/mono/README.md": "# Mono\n",
            "repos/mono/api/README.md": "# Api\n",
            "kb/kb.yaml": "name: t\nrepos_root: ../repos\n",
            "kb/projects/p/web/component.md": _component("p", "web", "mono"),
            # same folder: indexed once, by the first key
            "kb/projects/p/admin/component.md": _component("p", "admin", "mono"),
            # nested: owns its folder, the outer one skips it
            "kb/projects/p/api/component.md": _component("p", "api", "mono/api"),
            # another project keeps its own copy (partition isolation)
            "kb/projects/q/web/component.md": _component("q", "web", "mono"),
            "kb/projects/p/norepo/component.md": _component("p", "norepo", None),
        }
    )
    scopes = repo_scopes(load_kb(root / "kb").components())
    assert set(scopes) == {"p/admin", "p/api", "q/web"}
    assert scopes["p/admin"].shared_with == ["web"]
    assert scopes["p/admin"].skip_rel == ["api"]
    outer = component_chunks(scopes["p/admin"])
    assert [r["path"] for r in outer.rows] == ["README.md"]
    inner = component_chunks(scopes["p/api"])
    assert [(r["path"], r["bucket"]) for r in inner.rows] == [("README.md", "root")]
    assert component_chunks(scopes.get("p/web")).rows == []
