"""JS API servers: the facts an answer needs at their own line — route prefixes as settings,
each middleware as written at its usage, config values read from env vars, config constants
from a stand-in example file, a pages API route's method guard."""

from __future__ import annotations

from jsrepo import extract

LIBRARY = {
    "package.json": '{"dependencies": {"express": "^4", "jsonwebtoken": "^9"}}\n',
    "src/settings.js": """
        const Joi = require('joi');
        const schema = Joi.object().keys({ PORT: Joi.number() }).unknown();
        const { value: vars } = schema.validate(process.env);

        module.exports = {
          port: vars.PORT,
          token: {
            signingKey: vars.TOKEN_KEY,
            lifetime: vars.TOKEN_DAYS,
          },
          store: { uri: vars.STORE_URI + '-suffix' },
        };
        """,
    "src/tokens.js": """
        const jwt = require('jsonwebtoken');
        const settings = require('./settings');

        const issue = (who, key = settings.token.signingKey) => jwt.sign({ who }, key);
        const check = (raw) => jwt.verify(raw, settings.token.signingKey);
        module.exports = { issue, check };
        """,
    "src/guards.js": """
        const gate = (...roles) => (req, res, next) => next();
        const shape = (schema) => (req, res, next) => next();
        module.exports = { gate, shape };
        """,
    "src/books.js": """
        const express = require('express');
        const { gate, shape } = require('./guards');
        const { check } = require('./tokens');

        const shelf = express.Router();
        shelf.post('/lend', gate('lendBooks'), shape(schemas.lend), (req, res) => check(req.token));
        module.exports = shelf;
        """,
    "src/server.js": """
        const express = require('express');
        const shelf = require('./books');
        const settings = require('./settings');
        const server = express();
        server.use(express.json());
        server.use('/v3', shelf);
        server.listen(settings.port);
        """,
}


def test_root_mount_is_a_setting_and_routes_carry_their_mount_lines(tmp_path):
    f = extract(tmp_path, LIBRARY)
    setting = f.node("setting:src/server.js:6:server.use")
    assert (setting.name, setting.file, setting.line) == ("server.use", "src/server.js", 6)
    assert setting.attrs["value"] == "/v3"
    assert setting.attrs["refers_to"] == "src/books.js#shelf"
    assert "route prefix" in setting.attrs["about"]
    declares = f.edges("DECLARES")[
        ("code_file:src/server.js", "setting:src/server.js:6:server.use")
    ]
    assert declares.line == 6
    assert f.node("route:POST /v3/lend").attrs["mounts"] == ["src/server.js:6 /v3"]


def test_each_middleware_keeps_its_usage_as_written(tmp_path):
    f = extract(tmp_path, LIBRARY)
    edges = {
        f.nodes[e.dst.split(":", 1)[1]].name: e
        for e in f.raw.edges
        if e.type == "USES_MIDDLEWARE" and e.src.endswith("route:POST /v3/lend")
    }
    assert edges["gate"].attrs["expr"] == "gate('lendBooks')"
    assert edges["shape"].attrs["expr"] == "shape(schemas.lend)"
    assert edges["express.json"].attrs["expr"] == "express.json()"
    assert (edges["gate"].file, edges["gate"].line) == ("src/books.js", 6)


def test_a_config_value_built_from_an_env_var_is_read_where_code_uses_it(tmp_path):
    f = extract(tmp_path, LIBRARY)
    reads = sorted(
        (e.file, e.line, e.attrs["via"], f.nodes[e.src.split(":", 1)[1]].name)
        for e in f.raw.edges
        if e.type == "READS_ENV" and e.dst.endswith("env_var:TOKEN_KEY")
    )
    assert reads == [
        ("src/settings.js", 8, "config:vars", "src/settings.js"),
        ("src/tokens.js", 4, "settings.token.signingKey", "issue"),
        ("src/tokens.js", 5, "settings.token.signingKey", "check"),
    ]
    port = [e for e in f.raw.edges if e.type == "READS_ENV" and e.dst.endswith("env_var:PORT")]
    assert ("src/server.js", 7) in {(e.file, e.line) for e in port}
    # a value read inside an expression still names its variable
    assert "env_var:STORE_URI" in f.nodes


NEST = {
    "package.json": '{"dependencies": {"@nestjs/core": "^10", "@nestjs/common": "^10"}}\n',
    "src/main.ts": """
        import { NestFactory } from '@nestjs/core';
        import { RootModule } from './root.module';

        async function start() {
          const app = await NestFactory.create(RootModule);
          app.setGlobalPrefix('rest');
          await app.listen(8080);
        }
        start();
        """,
    "src/root.module.ts": """
        import { Module } from '@nestjs/common';
        import { ShelfController } from './shelf.controller';

        @Module({ controllers: [ShelfController] })
        export class RootModule {}
        """,
    "src/shelf.controller.ts": """
        import { Controller, Get } from '@nestjs/common';

        @Controller('shelves')
        export class ShelfController {
          @Get()
          list() {
            return [];
          }
        }
        """,
}


def test_nest_global_prefix_is_a_setting(tmp_path):
    f = extract(tmp_path, NEST)
    setting = f.node("setting:src/main.ts:6:setGlobalPrefix")
    assert setting.attrs["value"] == "rest"
    assert setting.attrs["source"] == "nestjs"
    assert f.node("route:GET /rest/shelves").attrs["mounts"] == [
        "src/main.ts:6 /rest",
        "src/shelf.controller.ts:4 /shelves",
    ]


def test_pages_api_route_records_its_method_guard(tmp_path):
    f = extract(
        tmp_path,
        {
            "package.json": '{"dependencies": {"next": "^14"}}\n',
            "pages/api/relay.ts": """
                export default async function relay(req, res) {
                  const started = Date.now();
                  if (req.method !== 'PUT') {
                    return res.status(405).end();
                  }
                  res.json({ started });
                }
                """,
        },
    )
    route = f.node("route:PUT /api/relay")
    assert route.attrs["method_guard"] == "if (req.method !== 'PUT') {"
    assert route.attrs["method_guard_at"] == "pages/api/relay.ts:3"


def test_a_config_constant_from_a_stand_in_example_file_is_read_where_used(tmp_path):
    f = extract(
        tmp_path,
        {
            ".gitignore": "src/config.ts\n",
            "src/config.ts.example": "export const SIGNING_SECRET = 'change-me';\nexport const PAGE = 20;\n",
            "src/session.ts": """
                import * as jwt from 'jsonwebtoken';
                import { SIGNING_SECRET, PAGE } from './config';

                export function open(raw: string) {
                  return jwt.verify(raw, SIGNING_SECRET);
                }
                export function seal(who: string) {
                  return jwt.sign({
                    who,
                  }, SIGNING_SECRET);
                }
                """,
        },
    )
    secret = f.node("setting:src/config.ts.example:1:SIGNING_SECRET")
    assert secret.attrs["secret_like"] is True
    assert "change-me" not in str(secret.attrs)
    assert "absent src/config.ts" in secret.attrs["about"]
    assert f.node("setting:src/config.ts.example:2:PAGE").attrs["value"] == "20"
    symbol = "symbol:src/config.ts.example#SIGNING_SECRET"
    reads = sorted(
        (e.line, f.nodes[e.src.split(":", 1)[1]].name, e.attrs["via"])
        for e in f.raw.edges
        if e.type == "READS_ENV" and e.dst.endswith(symbol)
    )
    assert reads == [(5, "open", "SIGNING_SECRET"), (10, "seal", "SIGNING_SECRET")]
    imports = f.edges("IMPORTS")
    assert ("code_file:src/session.ts", "code_file:src/config.ts.example") in imports


def test_a_stand_in_is_ignored_when_the_real_file_is_there(tmp_path):
    f = extract(
        tmp_path,
        {
            "src/config.js": "export const LIMIT = 5;\n",
            "src/config.js.example": "export const LIMIT = 1;\n",
        },
    )
    assert "code_file:src/config.js.example" not in f.nodes
    assert f.node("setting:src/config.js:1:LIMIT").attrs["value"] == "5"
