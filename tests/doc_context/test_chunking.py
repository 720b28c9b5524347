"""How files become chunks: whole when short, H1/H2/H3/H4 recursion, exact line ranges."""

from __future__ import annotations

import json

from doc_context import chunk_markdown
from doc_context.build import chunk_discovery, colocation_edges
from doc_context.discovery import discover_repo
from kb.tokens import estimate_tokens


def para(word: str, n: int = 120) -> str:
    """A paragraph of ~n words, big enough to push a section over the split size."""
    return " ".join(f"{word}{i % 7}" for i in range(n)) + "\n"


def spans(chunks) -> list[tuple[str, int, int]]:
    return [(c.heading, c.start_line, c.end_line) for c in chunks]


def test_short_doc_stays_whole():
    text = "---\ntitle: Short one\ntype: runbook\n---\n# Short\n\n## A\ntext\n\n## B\nmore\n"
    chunks, warning = chunk_markdown("a.md", text)
    assert warning is None
    assert len(chunks) == 1
    c = chunks[0]
    assert (c.start_line, c.end_line) == (5, 11)  # frontmatter is not body text
    assert c.title == "Short one" and c.doc_type == "runbook"
    assert "title:" not in c.text
    assert c.tokens == estimate_tokens(c.text)


def test_long_doc_splits_at_h2_with_exact_lines():
    lines = ["# Guide", "", "intro", "", "## Install", para("inst"), "## Usage", para("use")]
    lines += ["## Deploy", para("dep")]
    text = "\n".join(lines) + "\n"
    chunks, _ = chunk_markdown("g.md", text)
    assert [c.heading for c in chunks] == [
        "Guide",
        "Guide > Install",
        "Guide > Usage",
        "Guide > Deploy",
    ]
    source = text.split("\n")
    for c in chunks:  # the line range quotes the file exactly
        assert "\n".join(source[c.start_line - 1 : c.end_line]) == c.text
    assert chunks[1].start_line == 5 and source[4] == "## Install"


def test_several_h1s_split_at_h1_first():
    text = f"# One\n{para('a', 300)}\n## One sub\n{para('b', 300)}\n# Two\n{para('c')}\n"
    chunks, _ = chunk_markdown("two.md", text)
    heads = [c.heading for c in chunks]
    assert heads[0].startswith("One") and heads[-1] == "Two"
    assert "One > One sub" in heads  # One was still too large: split again at H2


def test_recursion_h3_then_h4_only_when_still_too_large():
    big_h2 = f"## Big\n{para('x', 40)}\n### Part 1\n{para('p', 400)}\n### Part 2\n"
    big_h2 += f"{para('q', 60)}\n#### Deep A\n{para('d', 400)}\n#### Deep B\n{para('e', 400)}\n"
    text = f"# Doc\n{para('i', 30)}\n{big_h2}\n## Small\nshort text\n"
    chunks, _ = chunk_markdown("deep.md", text)
    heads = [c.heading for c in chunks]
    assert "Doc > Big" in heads  # the intro of Big before its first H3
    assert "Doc > Big > Part 1" in heads
    assert "Doc > Big > Part 2 > Deep A" in heads and "Doc > Big > Part 2 > Deep B" in heads
    assert "Doc > Small" in heads
    assert "Doc > Big > Part 1 > Deep A" not in heads


def test_headings_in_code_fences_are_not_sections():
    fence = "```sh\n# not a heading\n## nor this\n```\n"
    text = f"# T\n\n## Real\n{para('r', 400)}\n{fence}## Next\n{para('n', 400)}\n"
    chunks, _ = chunk_markdown("f.md", text)
    assert [c.heading for c in chunks] == ["T > Real", "T > Next"]


def test_no_headings_short_and_huge():
    chunks, _ = chunk_markdown("plain.md", "just some text\nand more\n")
    assert len(chunks) == 1 and chunks[0].heading == "" and chunks[0].title == "plain.md"
    huge = "\n\n".join(para(f"w{k}", 80) for k in range(60))
    chunks, _ = chunk_markdown("wall.md", huge)
    assert len(chunks) > 5  # cut at blank lines into parts, none swallowing a budget
    assert all(c.tokens < 1600 for c in chunks)
    assert chunks[1].heading == "(part 2)"


def test_broken_frontmatter_is_a_warning_not_a_crash():
    text = "---\ntitle: [unclosed\n---\n# Body\ntext\n"
    chunks, warning = chunk_markdown("bad.md", text)
    assert warning and "frontmatter unreadable" in warning and "line" in warning
    assert chunks and "text" in chunks[0].text
    never_closed = "---\ntitle: x\n# Body\n"
    chunks, warning = chunk_markdown("open.md", never_closed)
    assert warning and "never closed" in warning and chunks


def test_mirrored_skills_indexed_once_with_mirrors(tree):
    skill = "---\nname: deploy\n---\n# Deploy skill\n\nRun the deploy script.\n"
    root = tree(
        {
            ".claude/skills/deploy/SKILL.md": skill,
            ".agents/skills/deploy/SKILL.md": skill,
            "skills/other/SKILL.md": "# Other\n",
        }
    )
    out = chunk_discovery(discover_repo(root), "p", "c")
    deploy = [r for r in out.rows if "Deploy" in r["text"]]
    assert len(deploy) == 1
    assert deploy[0]["path"] == ".agents/skills/deploy/SKILL.md"
    assert json.loads(deploy[0]["mirrors"]) == [".claude/skills/deploy/SKILL.md:4"]


def test_colocation_edges_only_in_small_folders():
    small = [f"docs/a{i}.md" for i in range(3)]
    big = [f"big/b{i:02}.md" for i in range(11)]
    edges = colocation_edges(small + big + ["README.md"])
    assert {(s, d) for s, d, _ in edges} == {
        ("docs/a0.md", "docs/a1.md"),
        ("docs/a0.md", "docs/a2.md"),
        ("docs/a1.md", "docs/a2.md"),
    }
    exactly_ten = [f"ten/t{i}.md" for i in range(10)]
    assert len(colocation_edges(exactly_ten)) == 45


def test_secrets_never_reach_chunks(tree):
    key = "AKIA" + "ABCDEFGHIJKLMNOP"
    root = tree({"docs/setup.md": f"# Setup\n\nexport AWS_ACCESS_KEY_ID={key}\n"})
    out = chunk_discovery(discover_repo(root), "p", "c")
    assert key not in out.rows[0]["text"] and "REDACTED" in out.rows[0]["text"]
    assert out.warnings and out.warnings[0][0] == "docs/setup.md"
    assert "line 3" in out.warnings[0][1] and key not in out.warnings[0][1]
