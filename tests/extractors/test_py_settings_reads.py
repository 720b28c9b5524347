"""Reads of a pydantic settings object's fields on a small ticket service written for this test:
`cfg.signing_key` in a handler is a read of the env var behind the field, and the function the
value is passed to gets it too (at the call's line)."""

from __future__ import annotations

from pyrepo import Graph, at, write

FILES = {
    "tix/__init__.py": "",
    "tix/conf.py": """
        from pydantic_settings import BaseSettings


        class BaseConf(BaseSettings):
            signing_key: str = ""


        class Conf(BaseConf):
            page_size: int = 20


        def load_conf() -> Conf:
            return Conf()
        """,
    "tix/tokens.py": """
        def issue(ticket_id, key):
            return f"{ticket_id}.{key}"
        """,
    "tix/api.py": """
        from fastapi import APIRouter, Depends, FastAPI

        from tix import tokens
        from tix.conf import Conf, load_conf

        app = FastAPI()
        router = APIRouter()
        DEFAULTS = load_conf()


        @router.post("/tickets/{ticket_id}/token")
        def make_token(ticket_id: str, cfg: Conf = Depends(load_conf)):
            token = tokens.issue(
                ticket_id,
                cfg.signing_key,
            )
            return {"token": token}


        def page():
            return DEFAULTS.page_size


        app.include_router(router)
        """,
}


def _edges(g: Graph, name: str):
    return [e for e in g.facts.edges if e.type == "READS_ENV" and g.nodes[e.dst].name == name]


def test_field_reads_through_a_typed_parameter_and_a_module_instance(tmp_path):
    g = Graph(write(tmp_path, FILES))
    reads = g.reads()
    assert "SIGNING_KEY@" + at(FILES, "tix/api.py", "cfg.signing_key") in reads
    assert "PAGE_SIZE@" + at(FILES, "tix/api.py", "DEFAULTS.page_size") in reads
    by_owner = {e.src.split(":", 2)[2]: e for e in _edges(g, "SIGNING_KEY")}
    read = by_owner["tix/api.py#make_token"]
    assert read.attrs["via"] == "settings" and read.attrs["field"] == "signing_key"
    assert read.attrs["settings_class"] == "Conf"


def test_the_function_the_value_is_passed_to_reads_it_at_the_call_line(tmp_path):
    g = Graph(write(tmp_path, FILES))
    by_owner = {e.src.split(":", 2)[2]: e for e in _edges(g, "SIGNING_KEY")}
    passed = by_owner["tix/tokens.py#issue"]
    assert f"{passed.file}:{passed.line}" == at(FILES, "tix/api.py", "token = tokens.issue(")
    assert passed.attrs["via"] == "argument" and passed.attrs["passed_by"] == "make_token"
