"""One way the answer-shape tests ask: a real stdio client on a published fixture, every
answer checked for errors, its budget and a planted string of the other project."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from pathlib import Path

from tests.support.mcp_stdio import StdioClient


def serve(build: Callable[[Path], dict[str, Path]], tmp: Path) -> Iterator[StdioClient]:
    paths = build(tmp)
    client = StdioClient(paths["kb"], paths["data"])
    yield client
    client.close()


def asker(*never: str) -> Callable[..., str]:
    def ask(client: StdioClient, tool: str, **args) -> str:
        text, err = client.call(tool, **args)
        assert not err, text
        assert math.ceil(len(text.encode()) / 3) <= args.get("budget", 2000)
        for s in never:
            assert s not in text, s
        return text

    return ask
