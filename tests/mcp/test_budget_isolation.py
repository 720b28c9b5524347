"""Token budget on every tool, the one token rule, partition isolation, bad input."""

from __future__ import annotations

import math

import pytest
from mcp_synthetic import PLANT

from kb.tokens import estimate_tokens


def test_token_rule_is_ceil_utf8_bytes_over_three():
    assert estimate_tokens("") == 0
    assert estimate_tokens("abc") == 1
    assert estimate_tokens("abcd") == 2
    assert estimate_tokens("é") == 1  # 2 bytes
    assert estimate_tokens("日本語") == 3  # 9 bytes
    text = "route POST /api/jp/contact → handler"
    assert estimate_tokens(text) == math.ceil(len(text.encode("utf-8")) / 3)


CALLS = [
    ("kb_trace", {"start": "ContactForm", "project": "acme-shop"}),
    (
        "kb_trace",
        {
            "start": "contactController.sendContactEmailJp",
            "project": "acme-shop",
            "direction": "up",
        },
    ),
    ("kb_impact", {"target": "src/lib/helpers/", "project": "acme-shop"}),
    ("kb_impact", {"target": "zendesk-api-token", "project": "acme-shop"}),
    ("kb_neighbors", {"node": "contactController.sendContactEmailJp", "project": "acme-shop"}),
    ("kb_neighbors", {"node": "api", "project": "acme-shop"}),
    ("kb_find", {"kind": "runtime", "query": "*"}),
    ("kb_compare", {"kind": "component", "name": "*"}),
    ("kb_entity", {"name": "api", "project": "acme-shop"}),
    ("kb_sql", {"sql": "select * from nodes", "project": "acme-shop"}),
    ("kb_status", {}),
]


@pytest.mark.parametrize("budget", [150, 300, 800, 2000])
@pytest.mark.parametrize("tool, args", CALLS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CALLS)])
def test_every_response_fits_its_budget(mcp, tool, args, budget):
    text, err = mcp.call(tool, budget=budget, **args)
    assert not err, text
    assert estimate_tokens(text) <= budget
    full, _ = mcp.call(tool, budget=50_000, **args)
    # never a line cut in half: each line is whole — a line of the full answer, or one of a
    # section the answer says it listed in less detail (`collapsed: routes compact`)
    whole = set(full.splitlines())
    last = text.splitlines()[-1]
    planned = last.startswith("collapsed: ") and any(
        f" {w}" in last for w in ("compact", "grouped", "one line")
    )
    for line in text.splitlines():
        assert (
            line in whole
            or line.lstrip().startswith(("… +", "collapsed: "))
            or "files)" in line
            or planned
        ), line
    if estimate_tokens(full) > budget:
        assert text.splitlines()[-1].startswith("collapsed: ")


def test_default_budget_comes_from_kb_yaml(mcp):
    text, _ = mcp.call("kb_neighbors", node="api", project="acme-shop")  # kb.yaml: 1200
    assert estimate_tokens(text) <= 1200 and text.splitlines()[-1].startswith("collapsed: ")


def test_over_budget_folds_files_by_directory(mcp):
    text, _ = mcp.call(
        "kb_neighbors", node="api", project="acme-shop", edge_types=["HAS_CODE"], budget=400
    )
    assert "HAS_CODE src/lib/helpers/ (60 files)" in text
    assert "files folded into" in text.splitlines()[-1]


@pytest.mark.parametrize(
    "budget, said", [(0, "clamped to 150"), (-5, "clamped to 150"), (10**12, "clamped to 50000")]
)
def test_absurd_budgets_are_clamped_and_said(mcp, budget, said):
    text, err = mcp.call("kb_trace", start="ContactForm", project="acme-shop", budget=budget)
    assert not err and said in text
    assert estimate_tokens(text) <= (150 if budget < 150 else 50_000)


@pytest.mark.parametrize(
    "tool, args, says",
    [
        ("kb_trace", {"start": "", "project": "acme-shop"}, "empty start node"),
        ("kb_trace", {"start": "x" * 100_000, "project": "acme-shop"}, "characters (max 500)"),
        (
            "kb_trace",
            {"start": "ContactForm", "project": "acme-shop", "direction": "sideways"},
            "direction must be",
        ),
        ("kb_impact", {"target": "", "project": "acme-shop"}, "empty target"),
        ("kb_find", {"kind": "pakage", "query": "x"}, "did you mean package"),
        ("kb_find", {"kind": "package", "query": ""}, "empty query"),
        ("kb_find", {"kind": "package", "query": "y" * 5000}, "max 200"),
        ("kb_entity", {"name": "Nothing_Like_It_Anywhere", "project": "acme-shop"}, "unknown name"),
        ("kb_status", {"project": "ghost"}, "unknown project 'ghost'"),
        ("kb_context", {"task": "z" * 10_000}, "max 4000"),
    ],
)
def test_bad_input_is_one_clear_line(mcp, tool, args, says):
    text, err = mcp.call(tool, **args)
    assert err and says in text and "\n" not in text and "Traceback" not in text


def test_nothing_of_another_projects_code_leaks(mcp):
    """The planted string lives only in globex-portal's code partition."""
    calls = [
        ("kb_trace", {"start": "ContactForm", "project": "acme-shop"}),
        (
            "kb_trace",
            {"start": "zendeskService.createTicket", "project": "acme-shop", "direction": "up"},
        ),
        (
            "kb_trace",
            {"start": "ContactForm", "project": "acme-shop", "to": f"GlobexSecretSauce{PLANT}"},
        ),
        ("kb_impact", {"target": "express", "project": "acme-shop"}),
        ("kb_impact", {"target": "src/", "project": "acme-shop"}),
        ("kb_impact", {"target": PLANT, "project": "acme-shop"}),
        ("kb_neighbors", {"node": "_global:package:express", "project": "acme-shop"}),
        ("kb_neighbors", {"node": f"GlobexSecretSauce{PLANT}", "project": "acme-shop"}),
        ("kb_entity", {"name": "express", "project": "acme-shop"}),
        ("kb_entity", {"name": "api", "project": "acme-shop"}),
        ("kb_find", {"kind": "route", "query": "*", "project": "acme-shop"}),
        ("kb_find", {"kind": "component", "query": "*"}),
        ("kb_find", {"kind": "package", "query": "*"}),
        ("kb_compare", {"kind": "package", "name": "express"}),
        ("kb_compare", {"kind": "component", "name": "*"}),
        ("kb_sql", {"sql": "select * from nodes", "project": "acme-shop"}),
        ("kb_sql", {"sql": "select * from unresolved", "project": "acme-shop"}),
        ("kb_sql", {"sql": "select * from edges", "project": "acme-shop"}),
        ("kb_status", {"project": "acme-shop"}),
        ("kb_context", {"task": f"GlobexSecretSauce {PLANT}", "project": "acme-shop"}),
    ]
    for tool, args in calls:
        text, _ = (
            mcp.call(tool, budget=50_000, **args)
            if tool != "kb_context"
            else mcp.call(tool, **args)
        )
        searchable = text.replace(f"GlobexSecretSauce{PLANT}", "").replace(
            f"{PLANT}'", ""
        )  # the query itself
        if tool == "kb_context":
            searchable = searchable.replace(PLANT.lower(), "").replace(
                PLANT, ""
            )  # echo of the task
        assert PLANT.lower() not in searchable.lower(), (tool, args, text)
    # and the same calls from globex-portal do see it: the plant is findable where it lives
    text, err = mcp.call("kb_entity", name=f"GlobexSecretSauce{PLANT}", project="globex-portal")
    assert not err and "src/secret/sauce.ts:3" in text
