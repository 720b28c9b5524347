"""Each family refuses the sites it cannot prove safe (and counts them), on small sources
written here: a rename never captures, a split carries what the code needs, a loop keeps
the order, a function that reads `this` keeps its kind."""

from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

from bench.metamorphic.component import Component
from bench.metamorphic.edits import render
from bench.metamorphic.families import BY_KEY


def plan_for(tmp: Path, family: str, files: dict[str, str], package: dict | None = None):
    for rel, text in files.items():
        path = tmp / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dedent(text))
    if package is not None:
        (tmp / "package.json").write_text(json.dumps(package))
    comp = Component.read("p", "c", tmp)
    plan = BY_KEY[family].plan(comp)
    rendered = render(plan, comp.originals)
    return plan, {k: v.decode() for k, v in rendered.files.items()}


def test_rename_never_captures_a_name_in_use(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "rename",
        {
            "a.js": """\
        import axios from 'axios';
        const http = 'taken';
        function get(axios) { return axios; }
        export const api = axios.create({ name: http });
    """
        },
    )
    text = out["a.js"]
    assert "import http2 from 'axios';" in text
    assert "function get(http2) { return http2; }" in text  # consistent, never `http`
    assert (
        "const httpClient = 'taken';" in text and "name: httpClient" in text
    )  # renamed too, apart
    assert "export const api = http2.create" in text  # the exported name itself stays
    assert plan.skips["exported by declaration"] == 1


def test_rename_leaves_a_python_name_that_is_also_a_parameter(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "rename",
        {
            "m.py": """\
        import requests


        def fetch(requests):
            return requests
    """
        },
    )
    assert not out
    assert plan.skips["a parameter or class attribute of the same name"] == 1


def test_split_carries_imports_and_keeps_what_needs_the_module(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "split",
        {
            "s.js": """\
        import { get } from './http.js';
        const LIMIT = 5;
        export function listAll() { return get('/all'); }
        export function listSome() { return get('/some?limit=' + LIMIT); }
    """,
            "http.js": "export const get = (u) => u;\n",
        },
        package={"type": "module"},
    )
    part = out["s.part.js"]
    assert part.startswith("import { get } from './http.js';")
    assert "function listAll()" in part and "listSome" not in part
    assert "import { listAll } from './s.part.js';\nexport { listAll };" in out["s.js"]
    assert "export function listSome()" in out["s.js"]


def test_loop_keeps_order_and_refuses_await(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "loop",
        {
            "r.js": """\
        const express = require('express');
        const router = express.Router();
        router.get('/b', b);
        router.post('/a', a);
        router.get('/c', c);
        async function later() {
          router.get('/x', await load());
          router.get('/y', y);
        }
    """
        },
        package={"dependencies": {"express": "4"}},
    )
    text = out["r.js"]
    assert text.index("path: '/b'") < text.index("path: '/a'") < text.index("path: '/c'")
    assert "router.get('/x', await load());" in text
    assert plan.skips["await/yield/super in registration arguments"] == 1


def test_wrapper_that_reads_this_keeps_its_form(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "wrapper_form",
        {
            "w.js": """\
        function request(path) { return this.base + path; }
        const load = (p) => fetch(p);
        export function go() { return request('/x') + load('/y'); }
    """
        },
    )
    text = out["w.js"]
    assert "function request(path) { return this.base + path; }" in text
    assert "load:" in text or "static load" in text or "useKbLoad" in text
    assert plan.skips["reads this/arguments"] == 1


def test_chain_on_an_unknown_receiver_is_left_alone(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "chain_form",
        {
            "c.js": """\
        const express = require('express');
        const app = express();
        const cache = new Map();
        cache.get('a').get('b');
        app.use(a).use(b);
    """
        },
        package={"dependencies": {"express": "4"}},
    )
    text = out["c.js"]
    assert "cache.get('a').get('b');" in text
    assert "app.use(a);\napp.use(b);" in text


def test_namespace_import_refused_for_a_function_that_reads_this(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "reexport",
        {
            "lib.ts": "export function base() { return this; }\nexport const other = 1;\n",
            "main.ts": "import { base } from './lib';\nexport const x = base();\n",
        },
    )
    assert plan.skips["imported function reads this"] == 1
    assert "import { base } from './kb-lib';" in out["main.ts"]  # the barrel form is safe: taken
    assert out["kb-lib/index.ts"] == "export * from '../lib';\n"


def test_client_called_directly_is_not_moved_behind_a_property(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "client_property",
        {
            "h.js": """\
        import axios from 'axios';
        export const one = () => axios({ url: '/x' });
    """
        },
    )
    assert not out
    assert plan.skips["client called directly (this would change)"] == 1


def test_base_url_before_a_spread_stays(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "base_url",
        {
            "h.js": """\
        import axios from 'axios';
        const api = axios.create({ baseURL: 'https://x.example.test/v1', ...extra });
    """
        },
    )
    assert plan.skips["a spread after baseURL may override it"] == 1
    # the defaults form was refused; the value may still move into a config object, the
    # spread still coming after it
    assert "axios.create({ baseURL: kbConfig.baseURL, ...extra })" in out["h.js"]


def test_arrow_reading_this_stays_an_arrow(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "function_form",
        {
            "f.js": """\
        export const b = (y) => y + 1;
        export const a = () => this.x;
        export const c = (z) => z * 2;
    """
        },
    )
    text = out["f.js"]
    assert "export const a = () => this.x;" in text
    assert "export const b = function (y) { return y + 1; };" in text


def test_string_forms_never_turn_addition_into_concatenation(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "string_form",
        {
            "s.js": """\
        export const total = (a, b) => a + b + '/items';
        export const url = (id) => '/items/' + id;
        export const q = gql`query { items }`;
    """
        },
    )
    text = out["s.js"]
    assert "a + b + '/items'" in text
    assert "`/items/${id}`" in text
    assert "gql`query { items }`" in text


def test_nest_prefix_moves_into_a_register_as_factory(tmp_path):
    plan, out = plan_for(
        tmp_path,
        "prefix_config",
        {
            "src/main.ts": """\
            import { NestFactory } from '@nestjs/core';
            import { AppModule } from './app.module';
            async function bootstrap() {
              const app = await NestFactory.create(AppModule);
              app.setGlobalPrefix('api');
              await app.listen(3000);
            }
            bootstrap();
        """
        },
        package={"dependencies": {"@nestjs/core": "10", "@nestjs/config": "3"}},
    )
    factory = out["src/kb-meta-app.config.ts"]
    assert "import { registerAs } from '@nestjs/config';" in factory
    assert "registerAs('app', () => ({ apiPrefix: 'api' }))" in factory
    assert "import kbMetaAppConfig from './kb-meta-app.config';" in out["src/main.ts"]
    assert "app.setGlobalPrefix(kbMetaAppConfig().apiPrefix);" in out["src/main.ts"]
