"""Client-side mechanisms of the extraction engine that the model fixtures cannot state as
`expect` comments: the per-build values of an Angular environment key, and the import
paths a client call is reached through (tsconfig `extends` chains, framework aliases)."""

from __future__ import annotations

import json
from pathlib import Path

from extractors.models import HERE as MODELS
from extractors.registry import extract_only

ENGINE = {"engine.routes", "engine.requests"}


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def test_an_environment_key_in_a_call_has_its_value_per_build_file():
    case = MODELS / "fixtures" / "angular" / "class-interceptor"
    facts = extract_only("fx", "web", case, ENGINE)
    values = {n.name: n.attrs for n in facts.nodes if n.kind == "config_value"}
    assert values["environment.apiRoot"]["values"] == {
        "environments/environment.ts": "http://localhost:8080/api",
        "environments/environment.prod.ts": "https://api.example.test/api",
    }
    calls = [n for n in facts.nodes if n.kind == "http_call"]
    assert {c.attrs.get("env_var") for c in calls} == {"environment.apiRoot"}
    assert {c.attrs["path"] for c in calls} == {"/orders/{orderId}", "/orders"}


def test_a_path_alias_set_in_an_extended_tsconfig_is_relative_to_that_file(tmp_path: Path):
    root = _write(tmp_path, {
        "tsconfig.base.json": json.dumps({"compilerOptions": {"baseUrl": ".", "paths": {"@shop/http": ["libs/http/index.ts"]}}}),
        "apps/store/tsconfig.json": json.dumps({"extends": "./tsconfig.app.json"}),
        "apps/store/tsconfig.app.json": json.dumps({"extends": "../../tsconfig.base.json", "compilerOptions": {"strict": True}}),
        "libs/http/index.ts": "import axios from 'axios';\nexport const http = axios.create({ baseURL: 'https://shop.example.test' });\n",
        "apps/store/cart.ts": "import { http } from '@shop/http';\nexport const cart = () => http.get('/cart');\n",
    })  # fmt: skip
    facts = extract_only("p", "web", root, ENGINE)
    calls = [(n.name, n.file) for n in facts.nodes if n.kind == "http_call"]
    assert calls == [("GET https://shop.example.test/cart", "apps/store/cart.ts")]
    assert not [u for u in facts.unresolved if u.kind == "import"]


def test_sveltekit_lib_alias_needs_sveltekit_declared(tmp_path: Path):
    files = {
        "src/lib/api.js": "export const get = (path) => fetch(`https://api.example.test/${path}`);\n",
        "src/routes/+page.js": "import { get } from '$lib/api';\nexport const load = () => get('items/all');\n",
    }
    without = extract_only("p", "web", _write(tmp_path / "plain", files), ENGINE)
    assert not [
        n for n in without.nodes if n.kind == "http_call" and n.file == "src/routes/+page.js"
    ]
    files["package.json"] = json.dumps({"devDependencies": {"@sveltejs/kit": "^2.0.0"}})
    kit = extract_only("p", "web", _write(tmp_path / "kit", files), ENGINE)
    sites = [(n.name, n.file, n.line) for n in kit.nodes if n.kind == "http_call"]
    assert sites == [("GET https://api.example.test/items/all", "src/routes/+page.js", 2)]
