"""The shared lookups extraction leans on for speed (issue 17) answer what a scan would:
the innermost Python symbol around a call, a function's own locals (nested scopes left out),
a node looked up by id while nodes are still being added."""

from __future__ import annotations

from pathlib import Path

from pyrepo import Graph, write

from extractors.base import ComponentContext


def _calls(graph: Graph) -> set[tuple[str, str]]:
    short = lambda node_id: node_id.split(":", 1)[1]  # noqa: E731
    return {(short(e.src), short(e.dst)) for e in graph.facts.edges if e.type == "CALLS_FN"}


def test_python_calls_come_from_the_innermost_symbol_and_locals_skip_nested_scopes(tmp_path):
    root = write(
        tmp_path,
        {
            "app/repos.py": """
                class Repo:
                    def fetch(self):
                        return 1


                class Other:
                    def fetch(self):
                        return 2

                    def again(self):
                        return self.fetch()


                def helper():
                    return 0


                def use():
                    repo = Repo()

                    def inner():
                        repo = Other()
                        return repo

                    inner()
                    return repo.fetch()


                def walrus():
                    if (found := Other()) is not None:
                        return found.fetch()


                helper()
            """,
        },
    )
    calls = _calls(Graph(root))
    assert ("symbol:app/repos.py#use", "symbol:app/repos.py#Repo.fetch") in calls
    assert ("symbol:app/repos.py#use", "symbol:app/repos.py#Other.fetch") not in calls
    assert ("symbol:app/repos.py#walrus", "symbol:app/repos.py#Other.fetch") in calls
    assert ("symbol:app/repos.py#Other.again", "symbol:app/repos.py#Other.fetch") in calls
    assert ("code_file:app/repos.py", "symbol:app/repos.py#helper") in calls


def test_find_node_gives_the_first_or_latest_node_of_an_id_as_nodes_are_added(tmp_path: Path):
    ctx = ComponentContext("p", "c", tmp_path)
    assert ctx.find_node(ctx.node_id("code_file", "a.ts")) is None
    first = ctx.add_node("code_file", "a.ts", "a.ts", "a.ts", 1)
    ctx.add_node("symbol", "a.ts#f", "f", "a.ts", 2)
    assert ctx.find_node(first).line == 1
    ctx.add_node("code_file", "a.ts", "a.ts", "a.ts", 7)  # a second node with the same id
    assert ctx.find_node(first).line == 1
    assert ctx.find_node(first, last=True).line == 7
    assert ctx.find_node(ctx.node_id("symbol", "a.ts#f")).name == "f"
    assert ctx.find_node(None) is None
