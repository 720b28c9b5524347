"""KB `calls:` entries: exactly one of env_var, url, host (+ component of the same project),
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
    ]
    root = write_kb(tmp_path, {"shop": {"web": {"role": "frontend", "calls": calls},
                                        "api": {"role": "api"}}})  # fmt: skip
    kb = load_kb(root)
    lines = [
        p.message
        for p in validate_kb(kb, date(2026, 12, 1))
        if p.path.endswith("web/component.md") and p.rule in {"calls", "reference", "cross-project"}
    ]
    assert sorted(lines) == sorted([
        "calls[3] has env_var and url — keep exactly one of env_var, url, host",
        "calls[4] needs one of env_var, url, host — say how the caller reaches it",
        "calls[5].url 'api.shop.example/v1' is not an absolute http(s) URL — e.g. https://api.example.com/v1",
        "calls[6].host 'https://api.shop.example' is not a bare host — e.g. api.example.com (a URL goes in url)",
        "calls[7] has no component — name the component of this project it calls",
        "calls names component 'apii' not in project shop — did you mean 'api'?",
        "calls points at 'other/api' in another project — calls may only name a component of shop",
        "calls[10] must be a mapping like {env_var: API_URL, component: api}",
    ])  # fmt: skip
    assert [e.label for e in kb.component("shop/web").calls()][:3] == [
        "env_var API_URL",
        "url https://api.shop.example/v1",
        "host api.shop.example:8443",
    ]
