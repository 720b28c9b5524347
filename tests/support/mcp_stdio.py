"""A real MCP client over stdio, driven synchronously from tests and the benchmark.

Launches `python -m mcp_server --kb ... --data-dir ...` through the SDK's
`stdio_client` and keeps one `ClientSession` open on an event loop in a background
thread, so a test module pays the server's start-up once.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parents[2]

# The first request of every MCP session, as a raw JSON-RPC line's object
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}


class StdioClient:
    def __init__(
        self,
        kb: Path | None = None,
        data_dir: Path | None = None,
        timeout: float = 60.0,
        params: StdioServerParameters | None = None,
    ) -> None:
        args = ["-m", "mcp_server", "--kb", str(kb)]
        if data_dir is not None:
            args += ["--data-dir", str(data_dir)]
        self.params = params or StdioServerParameters(
            command=sys.executable, args=args, cwd=str(ROOT)
        )
        self.timeout = timeout
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self._stop: asyncio.Event | None = None
        self._ready = threading.Event()
        self.session: ClientSession | None = None
        self._task = asyncio.run_coroutine_threadsafe(self._main(), self.loop)
        if not self._ready.wait(timeout):
            raise RuntimeError("MCP server did not start")
        if self._task.done():
            self._task.result()

    async def _main(self) -> None:
        self._stop = asyncio.Event()
        try:
            async with (
                stdio_client(self.params) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                self.session = session
                self._ready.set()
                await self._stop.wait()
        finally:
            self._ready.set()

    def _run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(self.timeout)

    def tools(self) -> list[Any]:
        assert self.session is not None
        return self._run(self.session.list_tools()).tools

    def call_raw(self, tool: str, **arguments: Any) -> Any:
        assert self.session is not None
        return self._run(self.session.call_tool(tool, arguments))

    def call(self, tool: str, **arguments: Any) -> tuple[str, bool]:
        """(text, is_error) of one tool call."""
        result = self.call_raw(tool, **arguments)
        text = "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")
        return text, bool(result.is_error)

    def close(self) -> None:
        if self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        with contextlib.suppress(Exception):
            self._task.result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)
