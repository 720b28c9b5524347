"""KB `calls:` entries: exactly one of env_var, url, host, path (+ component of the same project),
one clear line per mistake."""

from __future__ import annotations

from datetime import date

from bridgekit import write_kb

from kb.loader import load_kb
from kb.validate import validate_kb


def test_each_calls_mistake_is_one_line_with_its_fix(tmp_path):
    calls = [
        {"env_var": "API_URL", "component": "api"},  # fine
        {"url": "https://api.shop.example/v1", "component": "api"},  # fine
        {"host": "api.shop.example:8443", "component": "api"},  # fine
        {"env_var": "API_URL", "url": "https://api.shop.example", "component": "api"},
        {"component": "api"},
        {"url": "api.shop.example/v1", "component": "api"},
        {"host": "https://api.shop.example", "component": "api"},
        {"env_var": "API_URL"},
        {"host": "api.shop.example", "component": "apii"},
        {"host": "api.shop.example", "component": "other/api"},
        "api",
        {"path": "/api", "component": "api"},  # fine: relative URLs under /api
        {"path": "api/v1", "component": "api"},
    ]
    root = write_kb(tmp_path, {"shop": {"web": {"role": "frontend", "calls": calls},
                                        "api": {"role": "api"}}})  # fmt: skip
    kb = load_kb(root)
    lines = [
        p.message.split("; see docs/")[0]
        for p in validate_kb(kb, date(2026, 12, 1))
        if p.path.endswith("web/component.md") and p.rule in {"calls", "reference", "cross-project"}
    ]
    assert sorted(lines) == sorted([
        "calls[3] has env_var and url — keep exactly one of env_var, url, host, path",
        "calls[4] needs one of env_var, url, host, path — say how the caller reaches it",
        "calls[5].url 'api.shop.example/v1' is not an absolute http(s) URL — e.g. https://api.example.com/v1",
        "calls[6].host 'https://api.shop.example' is not a bare host — e.g. api.example.com (a URL goes in url)",
        "calls[7] has no component — name the component of this project it calls",
        "calls names component 'apii' not in project shop — did you mean 'api'?",
        "calls points at 'other/api' in another project — calls may only name a component of shop",
        "calls[10] must be a mapping like {env_var: API_URL, component: api}",
        "calls[12].path 'api/v1' is not a path of the caller's own origin — e.g. /api",
    ])  # fmt: skip
    assert [e.label for e in kb.component("shop/web").calls()][:3] == [
        "env_var API_URL",
        "url https://api.shop.example/v1",
        "host api.shop.example:8443",
    ]


def test_missing_calls_edge_gets_its_reason(tmp_path):
    from bridgekit import Facts, graph

    from warehouse.calls_check import missing_call_reason

    web_fm = {"role": "frontend", "calls": [
        {"env_var": "API_URL", "component": "api"},
        {"host": "api.shop.example", "component": "api"},
        {"env_var": "SEARCH_URL", "component": "api"},
    ]}  # fmt: skip
    api_fm = {"role": "api", "envs": {"prod": {"url": "https://api.shop.example"}}}
    root = write_kb(tmp_path, {"shop": {"web": web_fm, "api": api_fm}})
    web, api = Facts("shop", "web"), Facts("shop", "api")
    web.call("a", "POST", "{API_URL}/orders", file="src/order.ts", line=12)
    web.call("h", "GET", "https://api.shop.example/tags", file="src/tags.ts", line=3)
    api.route("GET", "/orders")
    out = graph(root, "shop", web, api)
    tables = {t: out[t].to_dicts() for t in ("nodes", "edges", "unresolved")}
    entries = load_kb(root).component("shop/web").calls()
    why = [missing_call_reason("shop", e, "web", *tables.values()) for e in entries]
    assert why == [
        "1 call site(s) use env_var API_URL, 1 unresolved; src/order.ts:12: no route POST "
        "/orders in api (KB calls[0] env_var API_URL → api); closest: GET /orders "
        "(same path, other method)",
        "1 call site(s) use host api.shop.example, 1 unresolved; src/tags.ts:3: no route GET "
        "/tags in api (KB calls[1] host api.shop.example of web)",
        "no call site of shop/web in the graph uses env_var SEARCH_URL",
    ]
