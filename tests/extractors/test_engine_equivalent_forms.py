"""Forms that do the same thing give the same facts: a value awaited or read in a `.then`
callback, a member named through `getattr`, and a method chosen by a ternary (each
alternative's facts carrying the condition that chose it)."""

from __future__ import annotations

from jsrepo import extract

NEST_MODULE = """
    import { Controller, Get, Module } from '@nestjs/common';

    @Controller('lamps')
    export class LampController {
      @Get()
      list() {}
    }

    @Module({ controllers: [LampController] })
    export class LampModule {}
    """


def test_a_then_callback_parameter_is_what_the_promise_resolves_to(tmp_path):
    f = extract(tmp_path, {
        "package.json": '{"dependencies": {"@nestjs/core": "10", "@nestjs/common": "10"}}',
        "src/main.ts": """
            import { NestFactory } from '@nestjs/core';
            import { LampModule } from './lamp.module';

            function start() {
              return Promise.resolve(NestFactory.create(LampModule)).then(async function (srv) {
                srv.setGlobalPrefix('shop');
                await srv.listen(8080);
              });
            }
            start();
            """,
        "src/lamp.module.ts": NEST_MODULE,
    })  # fmt: skip
    assert set(f.kind("route")) == {"GET /shop/lamps"}


def test_a_decorator_through_getattr_with_a_chosen_name_registers_both(tmp_path):
    f = extract(tmp_path, {
        "requirements.txt": "fastapi\n",
        "svc/app.py": """
            import os
            from fastapi import APIRouter, FastAPI

            lamps = APIRouter()

            @getattr(lamps, "put" if os.getenv("LAMP_MODE") else "post")("/lamps")
            def add_lamp():
                return {}

            @getattr(lamps, "get")("/lamps")
            def all_lamps():
                return []

            app = FastAPI()
            app.include_router(lamps, prefix="/v2")
            """,
    })  # fmt: skip
    routes = {name: n.attrs.get("condition") for name, n in f.kind("route").items()}
    assert routes == {
        "PUT /v2/lamps": 'os.getenv("LAMP_MODE")',
        "POST /v2/lamps": 'not (os.getenv("LAMP_MODE"))',
        "GET /v2/lamps": None,
    }
    handler = {s: d for (s, d) in f.edges("ROUTES_TO")}["route:PUT /v2/lamps"]
    assert handler == "symbol:svc/app.py#add_lamp"


def test_a_method_chosen_by_a_ternary_gives_each_route_and_call_its_condition(tmp_path):
    f = extract(tmp_path, {
        "package.json": '{"dependencies": {"express": "4", "axios": "1"}}',
        "src/server.js": """
            const express = require('express');
            const lamps = express.Router();
            lamps[process.env.LAMP_MODE ? 'put' : 'post']('/lamps', (req, res) => res.end());
            const app = express();
            app.use('/v2', lamps);
            """,
        "src/client.js": """
            import axios from 'axios';
            export const save = (l) => axios[process.env.LAMP_MODE ? 'put' : 'post']('/v2/lamps', l);
            """,
    })  # fmt: skip
    routes = {name: n.attrs.get("condition") for name, n in f.kind("route").items()}
    assert routes == {
        "PUT /v2/lamps": "process.env.LAMP_MODE",
        "POST /v2/lamps": "not (process.env.LAMP_MODE)",
    }
    calls = {n.name: n.attrs.get("condition") for n in f.raw.nodes if n.kind == "http_call"}
    assert calls == routes


CJS_CONFIG = {
    "package.json": '{"dependencies": {"express": "4"}}',
    "lib/settings/settings.js": """
        module.exports = {
          mode: process.env.LAMP_MODE,
          store: { url: process.env.LAMP_STORE_URL },
        };
        """,
    "lib/settings/front/index.js": "module.exports = require('../settings');\n",
    "lib/lamps/lamps.store.js": """
        const save = async (lamp) => lamp;
        module.exports = { save };
        """,
    "lib/lamps/front/index.js": "module.exports = require('../lamps.store');\n",
    "lib/lamps/index.js": "module.exports.lampStore = require('./front');\n",
    "lib/lamps/lamps.handler.js": """
        const settings = require('../settings/front');
        const { lampStore } = require('.');

        const addLamp = async (req, res) => {
          const lamp = await lampStore.save(req.body);
          res.send({ lamp, url: settings.store.url });
        };
        module.exports = { addLamp };
        """,
}


def test_a_module_reexported_whole_by_an_index_keeps_its_env_reads_and_calls(tmp_path):
    """`module.exports = require('../m')` in front of a config module and of a service: a
    use of the config's env-read value and a call of the service read as without it."""
    f = extract(tmp_path, CJS_CONFIG)
    reads = {
        (d.split(":", 1)[1], e.file, e.line)
        for (_, d), e in f.edges("READS_ENV").items()
        if e.file == "lib/lamps/lamps.handler.js"
    }
    assert reads == {("LAMP_STORE_URL", "lib/lamps/lamps.handler.js", 6)}
    calls = {(s, d) for (s, d) in f.edges("CALLS_FN")}
    assert (
        "symbol:lib/lamps/lamps.handler.js#addLamp",
        "symbol:lib/lamps/lamps.store.js#save",
    ) in calls


def test_an_injected_member_typed_through_a_namespace_import_calls_its_class(tmp_path):
    f = extract(tmp_path, {
        "package.json": '{"dependencies": {"@nestjs/common": "10"}}',
        "src/lamps/lamp.store.ts": """
            export class LampStore {
              all() { return []; }
            }
            """,
        "src/lamps/lamp.controller.ts": """
            import { Controller, Get } from '@nestjs/common';
            import * as store from './lamp.store';

            @Controller('lamps')
            export class LampController {
              constructor(private readonly lamps: store.LampStore) {}

              @Get()
              list() {
                return this.lamps.all();
              }
            }
            """,
    })  # fmt: skip
    assert (
        "symbol:src/lamps/lamp.controller.ts#LampController.list",
        "symbol:src/lamps/lamp.store.ts#LampStore.all",
    ) in f.edges("CALLS_FN")


def test_route_decorators_imported_under_other_names_keep_their_methods(tmp_path):
    f = extract(tmp_path, {
        "package.json": '{"dependencies": {"@nestjs/core": "10", "@nestjs/common": "10"}}',
        "src/lamps.controller.ts": """
            import { Controller as Ctl, Get as Read, Post as Make } from '@nestjs/common';

            @Ctl('lamps')
            export class LampController {
              @Read()
              list() {}

              @Make(':id')
              add() {}
            }
            """,
    })  # fmt: skip
    assert set(f.kind("route")) == {"GET /lamps", "POST /lamps/:id"}


def test_a_method_of_an_object_reached_through_a_namespace_import_is_called(tmp_path):
    f = extract(tmp_path, {
        "package.json": '{"dependencies": {"express": "4"}}',
        "src/services/bulbs.ts": """
            export const bulbService = {
              async swap(id: string) {
                return id;
              },
            };
            """,
        "src/controllers/bulbs.ts": """
            import * as bulbs from '../services/bulbs';

            export const bulbController = {
              async change(req, res) {
                res.json(await bulbs.bulbService.swap(req.params.id));
              },
            };
            """,
    })  # fmt: skip
    assert (
        "symbol:src/controllers/bulbs.ts#bulbController.change",
        "symbol:src/services/bulbs.ts#bulbService.swap",
    ) in f.edges("CALLS_FN")


def test_a_page_exported_as_a_static_member_is_routed_where_it_is_written(tmp_path):
    f = extract(tmp_path, {
        "package.json": '{"dependencies": {"next": "13", "react": "18"}}',
        "src/pages/lamps.tsx": """
            class Screens {
              static Lamps = () => {
                return <p>lamps</p>;
              };
            }

            export default Screens.Lamps;
            """,
    })  # fmt: skip
    assert f.where("route:GET /lamps") == "src/pages/lamps.tsx:2"
