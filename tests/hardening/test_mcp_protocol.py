"""What a broken or hostile client sends over stdio gets a JSON-RPC error reply, never
silence (the client would wait forever): a line that is not JSON → -32700 with id null;
JSON that is no message the server takes (an id that is not an integer or a string, a
batch, a lone surrogate, arguments nested 200 or 5,000 deep) → -32600, with the request's
id when it can be told. The server stays up and answers the next request; it stops on
SIGINT while it waits for input; an error echoing a long unicode name stays in budget."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from mcp_fixtures import StdioClient, mcp_synthetic

from kb.tokens import estimate_tokens
from tests.support.mcp_stdio import INITIALIZE
from tests.support.processes import start, stop_group

HELLO = INITIALIZE


def _sql_call(request_id: object, sql: str) -> str:
    return (
        '{"jsonrpc":"2.0","id":' + json.dumps(request_id) + ',"method":"tools/call","params":'
        '{"name":"kb_sql","arguments":{"project":"acme-shop","sql":' + sql + "}}}"
    )


def _nested(depth: int) -> str:
    return "[" * depth + "1" + "]" * depth


# name: (the line sent, expected code, expected id)
CASES = {
    "garbage": ("this is not json", -32700, None),
    "truncated": ('{"jsonrpc":"2.0","id":2,"method":"tools/list"', -32700, None),
    "nested-200": (_sql_call(3, _nested(200)), -32600, 3),
    "nested-5000": (_sql_call(4, _nested(5000)), -32600, 4),
    "lone-surrogate": (_sql_call(5, '"select 1 -- \\ud800"'), -32600, 5),
    "fractional-id": ('{"jsonrpc":"2.0","id":6.5,"method":"tools/list"}', -32600, None),
    "object-id": ('{"jsonrpc":"2.0","id":{"n":7},"method":"tools/list"}', -32600, None),
    "boolean-id": ('{"jsonrpc":"2.0","id":true,"method":"tools/list"}', -32600, None),
    "batch": ('[{"jsonrpc":"2.0","id":8,"method":"tools/list"}]', -32600, None),
    "not-utf8": (b'{"jsonrpc":"2.0","id":9,"method":"\xff"}', -32700, None),
}


@pytest.fixture(scope="module")
def synth(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return mcp_synthetic.build(tmp_path_factory.mktemp("synthetic"))


def _start_server(synth) -> subprocess.Popen:
    root = Path(__file__).resolve().parents[2]
    argv = [sys.executable, "-m", "mcp_server", "--kb", str(synth["kb"])]
    return start(
        [*argv, "--data-dir", str(synth["data"])], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, cwd=root,
    )  # fmt: skip


@pytest.fixture(scope="module")
def server(synth):
    proc = _start_server(synth)
    _send(proc, json.dumps(HELLO))
    assert json.loads(proc.stdout.readline())["id"] == 1
    _send(proc, '{"jsonrpc":"2.0","method":"notifications/initialized"}')
    yield proc
    stop_group(proc)


def _send(proc: subprocess.Popen, line: str | bytes) -> None:
    data = line if isinstance(line, bytes) else line.encode()
    proc.stdin.write(data + b"\n")
    proc.stdin.flush()


@pytest.mark.parametrize("name", list(CASES))
def test_every_bad_line_gets_an_error_reply_and_the_server_answers_on(server, name) -> None:
    line, code, request_id = CASES[name]
    _send(server, line)
    reply = json.loads(server.stdout.readline())
    assert reply["jsonrpc"] == "2.0" and reply["error"]["code"] == code, reply
    assert reply["id"] == request_id, reply
    _send(server, '{"jsonrpc":"2.0","id":100,"method":"tools/list"}')
    after = json.loads(server.stdout.readline())
    assert after["id"] == 100 and after["result"]["tools"], after


def test_sigint_stops_the_server_while_it_waits_for_input(synth) -> None:
    proc = _start_server(synth)
    try:
        _send(proc, json.dumps(HELLO))
        assert json.loads(proc.stdout.readline())["id"] == 1  # up, now waiting on stdin
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        stop_group(proc)


def test_an_error_echoing_a_long_unicode_name_stays_within_its_budget(synth) -> None:
    client = StdioClient(synth["kb"], synth["data"])
    try:
        text, err = client.call(
            "kb_sql", sql="select " + "日本語" * 160 + " from nodes", project="acme-shop"
        )
    finally:
        client.close()
    assert err and "\n" not in text, text[:300]
    assert estimate_tokens(text) <= 150, estimate_tokens(text)


def test_over_stdio_the_tools_are_listed_with_schemas_and_a_wrong_call_is_an_error_result(
    synth,
) -> None:
    """The stdio server answers from the same tools the agent sees listed: each with its
    argument schema; an unknown tool or a mistyped argument is an error result of one line
    naming the tool (not a protocol error), and the next call is answered."""
    client = StdioClient(synth["kb"], synth["data"])
    try:
        listed = {tool.name: tool for tool in client.tools()}
        unknown, unknown_err = client.call("kb_teleport", where="mars")
        mistyped, mistyped_err = client.call("kb_sql", sql="select 1", budget=True)
        answer, answer_err = client.call("kb_sql", sql="select 42 as answer", project="acme-shop")
    finally:
        client.close()
    assert len(listed) == 9 and "sql" in listed["kb_sql"].input_schema["properties"]
    assert unknown_err and "kb_teleport" in unknown and "\n" not in unknown, unknown
    assert mistyped_err and "budget" in mistyped and "\n" not in mistyped, mistyped
    assert not answer_err and "42" in answer, answer
