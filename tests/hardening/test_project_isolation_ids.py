"""Several projects: a node id of another project given with `project=''` or without
`project=` is refused (the contract: pass project=), never answered with that project's
code; and given with this project's name it is unknown here."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_fixtures import StdioClient, mcp_synthetic
from mcp_synthetic_code import PLANT

TOOLS = [("kb_entity", "name"), ("kb_neighbors", "node"), ("kb_impact", "target")]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    synth: dict[str, Path] = mcp_synthetic.build(tmp_path_factory.mktemp("synthetic"))
    session = StdioClient(synth["kb"], synth["data"])
    yield session
    session.close()


@pytest.mark.parametrize("tool, arg", TOOLS)
@pytest.mark.parametrize("project", ["", None, "acme-shop"], ids=["empty", "absent", "other"])
def test_another_projects_node_is_not_answered(client, tool: str, arg: str, project) -> None:
    node = f"globex-portal/api:symbol:GlobexSecretSauce{PLANT}"
    kwargs = {arg: node, **({} if project is None else {"project": project})}
    text, err = client.call(tool, **kwargs)
    assert "sauce.ts" not in text, text[:500]
    if project != "acme-shop":
        assert err and "pass project=" in text, text[:300]
