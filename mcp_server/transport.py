"""The stdio transport: one JSON-RPC message a line in, one a line out — and an error reply
for every line that is not a message the server can take.

The SDK's stdio transport drops a line it cannot validate without a word, so a client that
sent it waits forever. Here each line is parsed once and judged:

- not JSON (garbage, a truncated line, bytes that are not UTF-8) → `-32700 Parse error`
  with `"id": null`, as JSON-RPC 2.0 says;
- JSON, but no message the server reads → `-32600 Invalid Request`, with the request's id
  when one can be told: an id that is not an integer or a string (`6.5`, `true`, an
  object: the SDK would silently treat the request as a notification), a batch, a string
  with a lone surrogate (`"\\ud800"`, not Unicode), arguments nested past the parser's
  limit (200 or 5,000 levels);
- anything else goes to the server unchanged.

Every reply goes out through the one writer, a line at a time, so replies never interleave.
While serving, fd 0 and fd 1 point at /dev/null and stderr (as the SDK's transport does):
a stray read or print in a handler never touches the wire.

The streams are served by the SDK's low-level `Server` — its public way to run over streams
a transport supplies. `MCPServer` keeps the tools (schemas from the type hints, argument
validation); the low-level server asks it through its public `list_tools` / `call_tool`.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sys
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.shared.exceptions import MCPError
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

log = logging.getLogger("kb-graph.mcp")
PARSE_ERROR, INVALID_REQUEST = -32700, -32600
MAX_LINE = 16 * 2**20  # bytes of one message; a longer line is refused unread
TOO_LONG = b"\0too long"
# `"id": 4` near the start of a line too deep to parse: answer the client by its id
_LEADING_ID = re.compile(
    r'^\s*\{\s*(?:"[^"\\]*"\s*:\s*(?:"(?:[^"\\]|\\.)*"|[-\d.eE+]+|true|false|null)\s*,\s*)*?'
    r'"id"\s*:\s*(-?\d+(?![.\deE])|"(?:[^"\\]|\\.)*")'
)


def judge(line: bytes) -> SessionMessage | types.JSONRPCError:
    """The message a line carries, or the error reply it gets."""
    if line is TOO_LONG:
        return _error(None, INVALID_REQUEST, f"Invalid Request: a line over {MAX_LINE} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        return _error(None, PARSE_ERROR, "Parse error: the line is not UTF-8")
    try:
        message = types.jsonrpc_message_adapter.validate_json(text, by_name=False)
    except ValidationError as exc:
        return _refusal(text, exc)
    raw = json.loads(text)  # cannot fail: the stricter parser above accepted it
    if isinstance(raw, dict) and "id" in raw and type(raw["id"]) not in (int, str):
        return _error(None, INVALID_REQUEST, "Invalid Request: id must be an integer or a string")
    return SessionMessage(message)


def _refusal(text: str, exc: ValidationError) -> types.JSONRPCError:
    first = exc.errors()[0]
    try:
        raw: Any = json.loads(text)
    except RecursionError:
        found = _LEADING_ID.match(text)
        return _error(
            json.loads(found.group(1)) if found else None,
            INVALID_REQUEST,
            "Invalid Request: nested too deep to read",
        )
    except ValueError:
        return _error(None, PARSE_ERROR, "Parse error: not a JSON value")
    request_id = raw.get("id") if isinstance(raw, dict) else None
    request_id = request_id if type(request_id) in (int, str) else None
    if isinstance(raw, list):
        why = "a batch (a JSON array) is not accepted; send one message a line"
    elif first["type"] != "json_invalid":
        why = "not a JSON-RPC 2.0 message (jsonrpc, method, id, params)"
    elif "recursion limit" in first["msg"]:
        why = "nested too deep to read"
    elif "surrogate" in first["msg"] or "hex escape" in first["msg"]:
        why = "a string holds a lone surrogate escape (\\ud800…), which is not Unicode"
    else:
        why = first["msg"][:120]
    return _error(request_id, INVALID_REQUEST, f"Invalid Request: {why}")


def _error(request_id: Any, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(
        jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message)
    )


def _wire_line(message: Any) -> bytes:
    return (message.model_dump_json(by_alias=True, exclude_unset=True) + "\n").encode(
        "utf-8", "replace"
    )


@contextlib.contextmanager
def _claimed_stdio():
    """(wire in, wire out) descriptors; fd 0 → /dev/null and fd 1 → stderr meanwhile."""
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.dup2(2, 1)
    os.close(null)
    try:
        yield wire_in, wire_out
    finally:
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        os.close(wire_in)
        os.close(wire_out)


def wire_server(tools: MCPServer) -> Server:
    """The low-level server that answers `tools/list` and `tools/call` from `tools`.

    A tool's failure is an error result the agent reads (`isError`), as `MCPServer` itself
    answers it; an error of the protocol (`MCPError`) stays a JSON-RPC error."""

    async def list_tools(
        _ctx: Any, _params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=await tools.list_tools())

    async def call_tool(_ctx: Any, params: types.CallToolRequestParams) -> Any:
        try:
            return await tools.call_tool(params.name, params.arguments or {})
        except MCPError:
            raise
        except Exception as exc:  # noqa: BLE001 — a failed tool is an answer, not a crash
            if not isinstance(exc, ToolError):
                log.exception("tool %r raised", params.name)
            text = types.TextContent(type="text", text=str(exc))
            return types.CallToolResult(content=[text], is_error=True)

    return Server(
        tools.name,
        version=tools.version,
        instructions=tools.instructions,
        on_list_tools=list_tools,
        on_call_tool=call_tool,
    )


async def serve_stdio(server: MCPServer) -> None:
    """Run an `MCPServer`'s tools on stdin/stdout through `judge`."""
    lowlevel = wire_server(server)
    inbound_send, inbound = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    outbound, outbound_receive = anyio.create_memory_object_stream[SessionMessage](0)

    with _claimed_stdio() as (wire_in, wire_out):
        reader = os.fdopen(wire_in, "rb", buffering=0, closefd=False)
        writer = os.fdopen(wire_out, "wb", buffering=0, closefd=False)

        def write(message: Any) -> None:
            data = _wire_line(message)
            while data:
                data = data[writer.write(data) or 0 :]

        async def read_lines() -> None:
            async with inbound_send:
                lines = _LineReader(reader)
                while (
                    line := await anyio.to_thread.run_sync(lines.next, abandon_on_cancel=True)
                ) is not None:
                    if not line.strip():
                        continue
                    judged = judge(line)
                    with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                        if isinstance(judged, SessionMessage):
                            await inbound_send.send(judged)
                        else:
                            await outbound.send(SessionMessage(judged))

        async def write_lines() -> None:
            async with outbound_receive:
                async for item in outbound_receive:
                    await anyio.to_thread.run_sync(write, item.message)

        async with anyio.create_task_group() as tasks:
            tasks.start_soon(read_lines)
            tasks.start_soon(write_lines)
            await lowlevel.run(inbound, outbound, lowlevel.create_initialization_options())
            tasks.cancel_scope.cancel()


class _LineReader:
    """Lines of a raw descriptor, without Python's text layer (bytes that are not UTF-8
    are the judge's business, not a crash of the reader). A line over `MAX_LINE` bytes is
    read to its end and handed on as `TOO_LONG`, never held whole."""

    def __init__(self, stream: Any) -> None:
        self.stream, self.buffer = stream, bytearray()

    def next(self) -> bytes | None:
        too_long = False
        while (end := self.buffer.find(b"\n")) == -1:
            if len(self.buffer) > MAX_LINE:
                too_long, self.buffer = True, bytearray()
            chunk = self.stream.read(1 << 16)
            if not chunk:
                line, self.buffer = bytes(self.buffer), bytearray()
                return TOO_LONG if too_long else (line or None)
            self.buffer += chunk
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]
        return TOO_LONG if too_long else line


def run(server: MCPServer) -> None:
    """`server.run("stdio")`, through the judging transport."""
    anyio.run(serve_stdio, server)
    sys.stdout.flush()
