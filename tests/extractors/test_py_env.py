"""Python env reads on a small weather service written for this test: every read at its own
line (os.environ, getenv, pydantic settings through bases, django-environ); declarations in
.env files stay DECLARES at the declaring line."""

from __future__ import annotations

from pyrepo import Graph, at, write

FILES = {
    ".env.example": "WX_API_TOKEN=changeme\nFORECAST_URL=https://forecast.example.org\n",
    "wx/__init__.py": "",
    "wx/names.py": 'REGION_VAR = "WX_REGION"\n',
    "wx/base.py": """
        from pydantic_settings import BaseSettings, SettingsConfigDict


        class CommonSettings(BaseSettings):
            model_config = SettingsConfigDict(env_prefix="WX_", env_file=".env")
            api_token: str = ""
        """,
    "wx/config.py": """
        from pydantic import Field

        from wx.base import CommonSettings


        class ServiceSettings(CommonSettings):
            cache_seconds: int = 60
            forecast: str = Field("https://x", alias="FORECAST_URL")
        """,
    "wx/run.py": """
        import os
        from os import getenv

        from wx.names import REGION_VAR


        def region():
            return os.environ.get(REGION_VAR, "eu")


        def debug():
            return getenv("WX_DEBUG") == "1" or os.environ["WX_TRACE"]
        """,
    "wx/dj.py": """
        import io
        import os

        import environ

        env = environ.Env()
        env.read_env(io.StringIO(os.environ.get("WX_ENV_FILE", "")))
        SECRET = env("WX_SECRET")
        VERBOSE = env.bool("WX_VERBOSE", default=False)
        DATABASES = {"default": env.db()}
        """,
}


def test_every_read_site_with_its_line(tmp_path):
    g = Graph(write(tmp_path, FILES))
    run, dj = "wx/run.py", "wx/dj.py"
    assert g.reads() == sorted(
        [
            "WX_REGION@" + at(FILES, run, "os.environ.get(REGION_VAR"),
            "WX_DEBUG@" + at(FILES, run, 'getenv("WX_DEBUG")'),
            "WX_TRACE@" + at(FILES, run, 'getenv("WX_DEBUG")'),
            "WX_API_TOKEN@" + at(FILES, "wx/base.py", "api_token: str"),
            "WX_CACHE_SECONDS@" + at(FILES, "wx/config.py", "cache_seconds: int"),
            "FORECAST_URL@" + at(FILES, "wx/config.py", "forecast: str"),
            "WX_ENV_FILE@" + at(FILES, dj, "env.read_env("),
            "WX_SECRET@" + at(FILES, dj, 'env("WX_SECRET")'),
            "WX_VERBOSE@" + at(FILES, dj, "env.bool("),
            "DATABASE_URL@" + at(FILES, dj, "env.db()"),
        ]
    )


def test_declarations_are_not_reads(tmp_path):
    g = Graph(write(tmp_path, FILES))
    declares = sorted(
        f"{g.nodes[e.dst].name}@{e.file}:{e.line}" for e in g.facts.edges if e.type == "DECLARES"
    )
    assert declares == ["FORECAST_URL@.env.example:2", "WX_API_TOKEN@.env.example:1"]
    token = [e for e in g.facts.edges if e.type == "READS_ENV" and e.dst.endswith(":WX_API_TOKEN")]
    assert [e.attrs["via"] for e in token] == ["pydantic"]
    assert token[0].attrs["env_file"] == ".env"
    rows = {r.name: r.attrs for r in g.facts.catalog if r.table == "env_vars"}
    assert rows["WX_API_TOKEN"] == {"declared": True, "read": True}
    assert rows["WX_SECRET"] == {"declared": False, "read": True}


def test_django_environ_reads_name_the_env_files_they_load(tmp_path):
    g = Graph(write(tmp_path, FILES))
    [secret] = [e for e in g.facts.edges if e.type == "READS_ENV" and e.dst.endswith(":WX_SECRET")]
    assert secret.attrs["env_sources"] == ["$WX_ENV_FILE"]
