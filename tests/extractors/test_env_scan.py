"""Env vars: reads in JS/TS/Vue/Python/pydantic, declarations in .env files, value rules."""

from __future__ import annotations

from jsrepo import extract

REPO = {
    ".env": """
        # comment
        API_URL=https://api.example.com/v1
        export REDIS_HOST=cache.internal.example:6379
        STRIPE_SECRET_KEY=https://looks-like-a-url.example
        DATABASE_URL=postgres://user:hunter2@db.example/app
        ZENDESK_EMAIL=bot@acme.example
        QUOTED="https://quoted.example"  # trailing comment
        """,
    ".env.example": "API_URL=https://api.dev.example.com/v1\nPORT=8080\n",
    "src/config.ts": """
        export const API_URL = process.env.API_URL ?? '';
        const { ZENDESK_EMAIL, ZENDESK_API_TOKEN: token } = process.env;

        export function redis() {
          return process.env['REDIS_HOST'];
        }
        """,
    "src/vite.ts": "export const base = import.meta.env.VITE_BASE;\n",
    "src/App.vue": """
        <template><p>{{ x }}</p></template>
        <script setup lang="ts">
        const x = import.meta.env.VITE_TITLE;
        </script>
        """,
    "app/settings.py": """
        import os
        from os import getenv
        from pydantic_settings import BaseSettings, SettingsConfigDict
        from pydantic import Field


        class Settings(BaseSettings):
            model_config = SettingsConfigDict(env_prefix="APP_", env_file="../.env")

            crm_base_url: str
            api_key: str = Field("", alias="CRM_TOKEN")


        def port():
            return int(os.environ.get("PORT", "8080")) + int(getenv("WORKERS", "1"))


        DEBUG = os.environ["DEBUG"]
        TZ = os.getenv("TZ")
        """,
}


def test_reads_from_every_form_attributed_to_the_reader(tmp_path):
    f = extract(tmp_path, REPO)
    reads = {(s, d.split(":", 1)[1]): e for (s, d), e in f.edges("READS_ENV").items()}
    assert reads[("symbol:src/config.ts#API_URL", "API_URL")].line == 1
    assert reads[("code_file:src/config.ts", "ZENDESK_EMAIL")].line == 2
    assert ("code_file:src/config.ts", "ZENDESK_API_TOKEN") in reads  # renamed destructure
    assert reads[("symbol:src/config.ts#redis", "REDIS_HOST")].line == 5
    assert reads[("symbol:src/vite.ts#base", "VITE_BASE")].attrs["via"] == "import.meta.env"
    assert reads[("symbol:src/App.vue#App", "VITE_TITLE")].line == 3  # line in the SFC
    assert ("symbol:app/settings.py#port", "PORT") in reads
    assert ("symbol:app/settings.py#port", "WORKERS") in reads
    assert reads[("code_file:app/settings.py", "DEBUG")].line == 18
    assert ("code_file:app/settings.py", "TZ") in reads
    crm = [e for (s, n), e in reads.items() if n == "APP_CRM_BASE_URL"]
    assert len(crm) == 1 and crm[0].attrs == {
        "via": "pydantic",
        "field": "crm_base_url",
        "env_file": "../.env",
    }
    assert any(n == "CRM_TOKEN" for _, n in reads)  # alias wins over the prefix


def test_env_var_nodes_declarations_and_kept_values(tmp_path):
    f = extract(tmp_path, REPO)
    env = f.kind("env_var")
    api = env["API_URL"]
    assert (api.file, api.line) == (".env", 2)
    assert api.attrs["values"] == {
        ".env": "https://api.example.com/v1",
        ".env.example": "https://api.dev.example.com/v1",
    }
    assert api.attrs["declared_in"] == [".env", ".env.example"]
    assert env["REDIS_HOST"].attrs["values"] == {".env": "cache.internal.example:6379"}
    assert env["QUOTED"].attrs["values"] == {".env": "https://quoted.example"}
    for name in ("STRIPE_SECRET_KEY", "DATABASE_URL", "ZENDESK_EMAIL", "PORT"):
        assert "values" not in env[name].attrs, name  # secret name, credentials, not a URL
    assert env["STRIPE_SECRET_KEY"].attrs["secret_like"] is True
    assert env["VITE_BASE"].attrs["public"] is True
    raw = (tmp_path / ".env").read_text()
    assert all("hunter2" not in str(n.attrs) for n in f.raw.nodes) and "hunter2" in raw
    declares = f.edges("DECLARES")
    assert declares[("code_file:.env", "env_var:API_URL")].line == 2
    assert declares[("code_file:.env.example", "env_var:PORT")].line == 2
    assert f.node("code_file:.env").attrs["language"] == "dotenv"
    rows = {r.name: r for r in f.catalog if r.table == "env_vars"}
    assert len(rows) == len(env)
    assert rows["API_URL"].attrs == {"declared": True, "read": True}
    assert rows["TZ"].attrs == {"declared": False, "read": True}
    assert len([n for n in f.raw.nodes if n.kind == "env_var" and n.name == "PORT"]) == 1
