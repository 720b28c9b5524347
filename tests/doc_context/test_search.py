"""Ranking, AND→OR, neighbours, staleness and the budget, over real files and FTS5."""

from __future__ import annotations

import random

import pytest

from doc_context import kb_chunks
from doc_context.build import component_chunks
from doc_context.discovery import RepoScope
from doc_context.search import search_context, significant_terms
from kb.tokens import estimate_tokens

KB = {
    "kb.yaml": "name: t\n",
    "projects/shop/api/rate-limits.md": (
        "---\nkind: doc\nproject: shop\ncomponent: api\ntype: architecture\n"
        "title: Rate limiting\nverification: {status: verified}\n---\n"
        "# Rate limiting\n\nThe contact endpoint allows 5 requests per minute per IP.\n"
    ),
    "projects/shop/api/rate-limits-old.md": (
        "---\nkind: doc\nproject: shop\ncomponent: api\ntype: architecture\n"
        "title: Rate limiting\nverification: {status: stale}\n---\n"
        "# Rate limiting\n\nThe contact endpoint allows 5 requests per minute per IP.\n\n"
        "Old numbers.\n"
    ),
    "projects/shop/api/secrets.md": (
        "---\nkind: doc\nproject: shop\ntitle: Secrets\n---\n# Secrets\n\n"
        "The Zendesk token lives in Secret Manager.\n"
    ),
    "projects/other/web/deploy.md": (
        "---\nkind: doc\nproject: other\ntitle: Deploy\n---\n# Deploy\n\n"
        "Deploy the contact widget with Firebase.\n"
    ),
}
REPO = {
    "README.md": "# Shop API\n\nExpress service behind the contact form.\n",
    "docs/zendesk.md": "# Zendesk\n\nTickets are created with the API token.\n",
    "docs/recaptcha.md": "# reCAPTCHA\n\nEvery contact request is verified first.\n",
}


@pytest.fixture
def index(tmp_path, write, index_of):
    kb_root = write(tmp_path / "kb", KB)
    repo = write(tmp_path / "repo", REPO)
    return index_of(kb_chunks(kb_root), component_chunks(RepoScope("shop", "api", repo, [], [])))


def test_and_first_with_why(index):
    pack = search_context(index, "please fix the zendesk token", 2000)
    assert pack.mode == "AND" and pack.terms == ["zendesk", "token"]
    paths = [e.path for e in pack.entries]
    assert set(paths[:2]) == {"projects/shop/api/secrets.md", "docs/zendesk.md"}
    assert pack.entries[0].why[0].startswith("AND: zendesk, token")
    text = pack.render()
    assert "why: AND: zendesk, token" in text
    assert "shop/api docs/zendesk.md:1-3 · Zendesk" in text  # project/component path:lines


def test_or_only_when_and_finds_nothing(index):
    pack = search_context(index, "zendesk recaptcha", 2000)  # never in one section
    assert pack.mode == "OR"
    assert {e.path for e in pack.entries} >= {"docs/zendesk.md", "docs/recaptcha.md"}
    assert all(e.why[0].startswith("OR: ") or "neighbour" in e.why[0] for e in pack.entries)


def test_porter_stemming_and_heading_weight(index):
    pack = search_context(index, "limits", 2000)  # stems to "limit"; title "Rate limiting"
    assert pack.entries and "rate-limits" in pack.entries[0].path


def test_stale_ranks_below_equal_verified(index):
    pack = search_context(index, "rate limiting contact endpoint", 4000)
    order = [e.path for e in pack.entries]
    fresh = order.index("projects/shop/api/rate-limits.md")
    stale = order.index("projects/shop/api/rate-limits-old.md")
    assert fresh < stale
    assert "ranked lower: verification stale" in pack.entries[stale].why


def test_neighbours_along_colocation_edges(index):
    pack = search_context(index, "recaptcha verified", 2000)
    why = {e.path: e.why for e in pack.entries}
    assert why["docs/recaptcha.md"][0].startswith("AND")
    assert why["docs/zendesk.md"] == ["neighbour of docs/recaptcha.md (same folder docs)"]


def test_project_scope_and_bucket_exclusion(index):
    everywhere = {e.project for e in search_context(index, "contact", 8000).entries}
    assert everywhere == {"shop", "other"}
    scoped = search_context(index, "contact", 8000, project="shop")
    assert {e.project for e in scoped.entries} == {"shop"}
    no_docs = search_context(index, "zendesk", 8000, exclude_buckets=["docs"])
    assert "docs/zendesk.md" not in {e.path for e in no_docs.entries}
    unknown = search_context(index, "contact", 8000, project="nope")
    assert unknown.entries == [] and "no docs indexed for project 'nope'" in unknown.render()


@pytest.mark.parametrize("budget", [1, 5, 20, 40, 60, 80, 100, 150, 300, 1000, 5000])
def test_budget_never_exceeded(index, budget):
    for task in ["contact", "zendesk token", "rate limiting", "deploy firebase contact", "the"]:
        pack = search_context(index, task, budget)
        assert estimate_tokens(pack.render()) <= budget
        assert sum(e.tokens for e in pack.entries) <= budget


def test_budget_below_smallest_chunk_says_so(index):
    pack = search_context(index, "contact", 60)
    assert pack.entries == [] and pack.omitted > 0
    text = pack.render()
    assert estimate_tokens(text) <= 60
    roomy = search_context(index, "contact", 200)
    assert roomy.entries == [] or roomy.entries[0].tokens < 200


def test_empty_and_stop_word_tasks(index):
    for task in ["", "   ", "please how do I fix it", "the and of to"]:
        pack = search_context(index, task, 2000)
        assert pack.entries == [] and pack.mode == "none"
        assert "no significant words" in pack.render()


def test_ten_thousand_word_task(index):
    rng = random.Random(7)
    words = ["zendesk", "token", "lorem", "ipsum", "the", "contact"] + [f"w{i}" for i in range(500)]
    task = " ".join(rng.choice(words) for _ in range(10_000))
    pack = search_context(index, task, 2000)
    assert pack.entries  # long tasks keep their rarest words that occur in the corpus
    assert len(pack.terms) <= 24
    assert estimate_tokens(pack.render()) <= 2000
    assert len(pack.render().splitlines()[0]) < 400  # the task is not echoed in full


def test_words_in_no_doc_are_reported(index):
    pack = search_context(index, "zendesk frobnicator", 2000)
    assert pack.mode == "AND" and pack.ignored == ["frobnicator"]
    assert "ignored (in no doc): frobnicator" in pack.render()


def test_deterministic(index):
    a = search_context(index, "contact token", 3000).render()
    b = search_context(index, "contact token", 3000).render()
    assert a == b


def test_significant_terms():
    assert significant_terms("Please implement the rate-limit fix for contact_api") == [
        "rate",
        "limit",
        "contact",
        "api",
    ]
