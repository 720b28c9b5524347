"""Env reads where real apps make them: every read site, through validated config objects
(a mapping such as t3-env's `runtimeEnv`, a schema-validated copy of process.env) and in a
Prisma schema; declarations stay DECLARES facts, never read sites."""

from __future__ import annotations

from jsrepo import extract

REPO = {
    ".env.example": "MAIL_HOST=\nQUEUE_URL=\n",
    "src/env.mjs": """
        import { createEnv } from "@t3-oss/env-nextjs"
        import { z } from "zod"

        export const settings = createEnv({
          server: { QUEUE_URL: z.string(), SIGNING_KEY: z.string() },
          runtimeEnv: {
            QUEUE_URL: process.env.QUEUE_URL,
            SIGNING_KEY: process.env.SIGNING_KEY,
          },
        })
        """,
    "src/queue.ts": """
        import { settings } from "./env.mjs"

        export function connect() {
          return open(settings.QUEUE_URL)
        }

        export const sign = (body: string) => hmac(settings.SIGNING_KEY, body)
        """,
    "server/config.js": """
        const Joi = require('joi');
        const shape = Joi.object().keys({ MAIL_HOST: Joi.string(), MAIL_PORT: Joi.number() });
        const { value: checked } = shape.validate(process.env);

        module.exports = {
          mail: { host: checked.MAIL_HOST, port: checked.MAIL_PORT },
          debug: checked.MAIL_HOST === 'localhost',
        };
        """,
    "server/boot.js": """
        if (process.env.NODE_ENV === 'production') {
          start();
        }
        function start() {
          return process.env.NODE_ENV;
        }
        """,
    "prisma/schema.prisma": """
        datasource db {
          provider = "postgresql"
          url      = env("PRIMARY_DB")
          // shadowDatabaseUrl = env("NOT_READ")
        }
        """,
}


def _sites(f, name: str) -> set[str]:
    return {
        f"{e.file}:{e.line}"
        for e in f.raw.edges
        if e.type == "READS_ENV" and e.dst.endswith(f":env_var:{name}")
    }


def test_reads_through_a_mapping_config_object_at_each_use(tmp_path):
    f = extract(tmp_path, REPO)
    assert _sites(f, "QUEUE_URL") == {"src/env.mjs:7", "src/queue.ts:4"}
    assert _sites(f, "SIGNING_KEY") == {"src/env.mjs:8", "src/queue.ts:7"}
    via = {e.attrs["via"] for (s, d), e in f.edges("READS_ENV").items() if e.file == "src/queue.ts"}
    assert via == {"config:settings"}
    sign = {(s, e.line) for (s, d), e in f.edges("READS_ENV").items() if d == "env_var:SIGNING_KEY"}
    assert ("symbol:src/queue.ts#sign", 7) in sign


def test_reads_through_a_validated_copy_of_process_env(tmp_path):
    f = extract(tmp_path, REPO)
    assert _sites(f, "MAIL_HOST") == {"server/config.js:6", "server/config.js:7"}
    assert _sites(f, "MAIL_PORT") == {"server/config.js:6"}
    declared = {
        (s, e.line) for (s, d), e in f.edges("DECLARES").items() if d == "env_var:MAIL_HOST"
    }
    assert declared == {("code_file:.env.example", 1)}  # a declaration, not a read site


def test_every_read_site_is_its_own_edge_and_prisma_env_is_read(tmp_path):
    f = extract(tmp_path, REPO)
    assert _sites(f, "NODE_ENV") == {"server/boot.js:1", "server/boot.js:5"}
    assert _sites(f, "PRIMARY_DB") == {"prisma/schema.prisma:3"}
    assert "env_var:NOT_READ" not in {d for (s, d) in f.edges("READS_ENV")}
