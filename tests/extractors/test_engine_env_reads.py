"""Python env reads found by the engine's evaluator on a small parcel-tracking service written
for this test: python-decouple's `config(...)`, django-environ's URL readers that name their
own variable, a settings field each environment's subclass defaults differently, and writes
to the environment, which are not reads."""

from __future__ import annotations

from pyrepo import Graph, at, write

FILES = {
    "parcel/__init__.py": "",
    "parcel/conf.py": """
        from decouple import config
        import environ

        env = environ.Env()
        CARRIER_TOKEN = config("CARRIER_TOKEN", default="")
        CACHES = {"default": env.cache()}
        """,
    "parcel/settings.py": """
        from pydantic_settings import BaseSettings


        class Common(BaseSettings):
            poll_seconds: int = 30


        class Staging(Common):
            poll_seconds: int = 5


        class Live(Common):
            poll_seconds: int = 60


        PROFILES = {"staging": Staging, "live": Live}


        def load(name: str) -> Common:
            return PROFILES[name]()
        """,
    "parcel/poller.py": """
        import os

        from parcel.settings import load

        current = load(os.environ.get("PARCEL_PROFILE", "live"))
        os.environ["PARCEL_STARTED"] = "1"


        def interval():
            return current.poll_seconds
        """,
}


def test_library_readers_each_read_at_their_line(tmp_path):
    g = Graph(write(tmp_path, FILES))
    reads = g.reads()
    assert "CARRIER_TOKEN@" + at(FILES, "parcel/conf.py", 'config("CARRIER_TOKEN"') in reads
    assert "CACHE_URL@" + at(FILES, "parcel/conf.py", "env.cache()") in reads


def test_a_field_defaulted_per_environment_is_one_variable_read_at_the_use(tmp_path):
    g = Graph(write(tmp_path, FILES))
    assert "POLL_SECONDS@" + at(FILES, "parcel/poller.py", "current.poll_seconds") in g.reads()
    [use] = [e for e in g.facts.edges if e.type == "READS_ENV" and e.file == "parcel/poller.py"
             and g.nodes[e.dst].name == "POLL_SECONDS"]  # fmt: skip
    assert use.attrs["via"] == "settings" and use.attrs["settings_class"] == "Common"


def test_setting_a_variable_is_not_reading_it(tmp_path):
    g = Graph(write(tmp_path, FILES))
    names = {r.split("@")[0] for r in g.reads()}
    assert "PARCEL_PROFILE" in names and "PARCEL_STARTED" not in names
