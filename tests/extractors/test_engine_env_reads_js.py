"""JS env reads found by the engine's evaluator, on a small ticket-desk service written for
this test: a zod-parsed copy of the environment, an envalid one, destructuring, a config
module whose values are used elsewhere (through a default parameter, a nested destructuring,
text built from a variable, lodash's `defaultTo`, an ES import of a CommonJS module), and what
is not a read: a write to the config, a validated request body."""

from __future__ import annotations

from jsrepo import extract

REPO = {
    "src/env.ts": """
        import { z } from "zod"

        const shape = z.object({ DESK_DB: z.string(), DESK_REGION: z.string() })
        export const env = shape.parse(process.env)
        const checked = shape.safeParse(process.env)
        export const region = checked.data.DESK_REGION
        """,
    "src/mailer.ts": """
        import { cleanEnv, str } from "envalid"

        const mail = cleanEnv(process.env, { MAILER_KEY: str() })
        export const send = (to: string) => post(mail.MAILER_KEY, to)
        """,
    "src/db.ts": """
        import { env } from "./env"

        const { DESK_DB, DESK_POOL = "4" } = env
        const { DESK_TIMEOUT: timeout } = process.env
        export const open = () => connect(DESK_DB, DESK_POOL, timeout)
        """,
    "src/config.js": """
        const _ = require("lodash")

        module.exports = {
          auth: { secret: process.env.TICKET_SECRET },
          api: { url: process.env.PARTNER_ORIGIN + "/v2" },
          port: _.defaultTo(process.env.DESK_PORT, 8080),
          mode: process.env.DESK_MODE,
        }
        """,
    "src/tokens.js": """
        const config = require("./config")

        function sign(body, secret = config.auth.secret) {
          return hmac(secret, body)
        }

        function partner(path) {
          return fetch(config.api.url + path)
        }

        const { auth: { secret } } = config
        module.exports = { sign, partner, secret, port: config.port }
        """,
    "src/server.ts": """
        import config from "./config"
        import Joi from "joi"

        const form = Joi.object().keys({ email: Joi.string() })

        export function listen() {
          return start(config.port)
        }

        export function create(req) {
          const { value } = form.validate(req.body)
          return value.email
        }
        """,
    "test/mode.test.js": """
        const config = require("../src/config")

        config.mode = "test"
        """,
}


def _reads(f) -> dict[tuple[str, int], str]:
    """(NAME, line) of each READS_ENV edge in a file -> its `via`, keyed with the file."""
    return {
        (e.dst.rsplit(":", 1)[1], f"{e.file}:{e.line}"): e.attrs["via"]
        for e in f.raw.edges
        if e.type == "READS_ENV"
    }


def test_a_parsed_or_cleaned_copy_of_the_environment_is_read_member_by_member(tmp_path):
    reads = _reads(extract(tmp_path, REPO))
    assert reads[("DESK_REGION", "src/env.ts:6")] == "config:checked.data"  # safeParse().data
    assert reads[("MAILER_KEY", "src/mailer.ts:4")] == "config:mail"


def test_destructuring_reads_each_property_at_its_line(tmp_path):
    reads = _reads(extract(tmp_path, REPO))
    assert reads[("DESK_DB", "src/db.ts:3")] == "config:env"
    assert reads[("DESK_POOL", "src/db.ts:3")] == "config:env"  # a default does not hide it
    assert reads[("DESK_TIMEOUT", "src/db.ts:4")] == "process.env"  # renamed on the way


def test_a_config_module_value_is_read_where_it_is_used(tmp_path):
    reads = _reads(extract(tmp_path, REPO))
    assert reads[("TICKET_SECRET", "src/tokens.js:3")] == "config.auth.secret"  # default param
    assert reads[("PARTNER_ORIGIN", "src/tokens.js:8")] == "config.api.url"  # text built on it
    assert reads[("TICKET_SECRET", "src/tokens.js:11")] == "config.auth.secret"  # nested pattern
    assert reads[("DESK_PORT", "src/tokens.js:12")] == "config.port"  # lodash defaultTo
    assert reads[("DESK_PORT", "src/server.ts:7")] == "config.port"  # ES import of CommonJS


def test_writes_and_validated_request_bodies_are_not_reads(tmp_path):
    reads = _reads(extract(tmp_path, REPO))
    assert not [k for k in reads if k[1].startswith("test/")]  # `config.mode = "test"`
    assert not [k for k in reads if k[1] in ("src/server.ts:11", "src/server.ts:12")]


def test_a_name_only_code_reads_gets_one_node_at_its_first_own_read(tmp_path):
    f = extract(tmp_path, REPO)
    secret = f.node("env_var:TICKET_SECRET")
    assert (secret.file, secret.line) == ("src/config.js", 4)  # not the later uses
    assert secret.attrs["secret_like"] and not secret.attrs["declared_in"]
    rows = {r.name: r.attrs for r in f.catalog if r.table == "env_vars"}
    assert rows["DESK_REGION"] == {"declared": False, "read": True}
