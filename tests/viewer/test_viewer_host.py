"""DNS rebinding: a page on another site whose name is made to resolve to 127.0.0.1 can
make the browser send requests to the viewer, with that site's name in `Host`. The viewer
answers only requests that name it (`localhost`, the loopback address it is bound to,
with its own port); any other Host gets 421 and no graph."""

from __future__ import annotations

import http.client
import json
from urllib.parse import urlsplit

import pytest


def _get(url: str, path: str, host: str | None) -> tuple[int, dict]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_host=True)
        if host is not None:
            conn.putheader("Host", host)
        conn.endheaders()
        res = conn.getresponse()
        return res.status, json.loads(res.read() or b"{}")
    finally:
        conn.close()


@pytest.mark.parametrize(
    "host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example:{port}",
             "localhost:1", "192.168.1.5:{port}", None],
)  # fmt: skip
def test_a_foreign_host_gets_no_graph(viewer_server, host: str | None) -> None:
    port = urlsplit(viewer_server.url).port
    status, body = _get(viewer_server.url, "/api/partitions", host and host.format(port=port))
    assert status == 421 and body["error"] == "wrong_host", body
    assert "partitions" not in json.dumps(body)


@pytest.mark.parametrize("host", ["localhost:{port}", "127.0.0.1:{port}", "localhost"])
def test_its_own_names_are_answered(viewer_server, host: str) -> None:
    port = urlsplit(viewer_server.url).port
    status, body = _get(viewer_server.url, "/api/partitions", host.format(port=port))
    assert status == 200 and body, body
