"""Loopback fakes of the Confluence Cloud REST v1 and Drive v3 endpoints the import uses.

Real HTTP servers (stdlib, one thread each) speaking the documented request/response
shapes, with knobs for what real services do: pagination, 429 + Retry-After, 500s,
deleted pages (404) and odd bodies. Every request is logged with its time.
"""

from __future__ import annotations

import base64
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse


class _Server:
    def __init__(self):
        self.log: list[tuple[float, str, int]] = []  # (time, path with query, status)
        self.faults: dict[str, list[tuple[int, dict[str, str]]]] = {}  # path -> queued errors
        handler = self._handler_class()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.httpd.shutdown()
        self.httpd.server_close()

    def fail(self, path: str, status: int, times: int = 1, retry_after: str | None = None):
        headers = {"Retry-After": retry_after} if retry_after is not None else {}
        self.faults.setdefault(path, []).extend([(status, headers)] * times)

    def hits(self, prefix: str) -> list[tuple[float, str, int]]:
        return [entry for entry in self.log if entry[1].startswith(prefix)]

    def _handler_class(self):
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                pass

            def do_GET(self):
                parsed = urlparse(self.path)
                query = {k: v[0] for k, v in parse_qs(parsed.query).items()}
                queued = server.faults.get(parsed.path)
                if queued:
                    status, headers = queued.pop(0)
                    return self._send(status, b'{"message": "try later"}', headers=headers)
                if not server.authorized(self.headers.get("Authorization", "")):
                    return self._send(401, b'{"message": "unauthorized"}')
                status, body, ctype = server.route(parsed.path, query)
                self._send(status, body, ctype)

            def _send(self, status, body, ctype="application/json", headers=None):
                server.log.append((time.monotonic(), self.path, status))
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(body)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(body)

        return Handler


class FakeConfluence(_Server):
    """`/wiki/rest/api/content/{id}`, `.../child/page` (start/limit/_links.next), title search."""

    def __init__(self, user: str, token: str, page_size: int = 2):
        super().__init__()
        self.expected = "Basic " + base64.b64encode(f"{user}:{token}".encode()).decode()
        self.pages: dict[str, dict] = {}
        self.page_size = page_size

    def add(self, page_id, title, body, parent=None, space="SHOP", version=1):
        self.pages[str(page_id)] = {
            "title": title,
            "body": body,
            "parent": None if parent is None else str(parent),
            "space": space,
            "version": version,
        }

    def authorized(self, header: str) -> bool:
        return header == self.expected

    def _ancestors(self, page_id):
        chain, parent = [], self.pages[page_id]["parent"]
        while parent is not None and parent in self.pages:
            chain.insert(0, {"id": parent, "type": "page", "title": self.pages[parent]["title"]})
            parent = self.pages[parent]["parent"]
        return chain

    def _content(self, page_id, expand):
        page = self.pages[page_id]
        out = {
            "id": page_id,
            "type": "page",
            "status": "current",
            "title": page["title"],
            "_links": {"webui": f"/spaces/{page['space']}/pages/{page_id}"},
        }
        if "version" in expand:
            out["version"] = {
                "number": page["version"],
                "when": page.get("when", "2026-11-01T09:00:00.000Z"),
            }
        if "space" in expand:
            out["space"] = {"key": page["space"]}
        if "ancestors" in expand:
            out["ancestors"] = self._ancestors(page_id)
        if "body.storage" in expand:
            out["body"] = {"storage": {"value": page["body"], "representation": "storage"}}
        return out

    def route(self, path, query):
        parts = path.strip("/").split("/")
        if parts[:4] != ["wiki", "rest", "api", "content"]:
            return 404, b"{}", "application/json"
        rest = parts[4:]
        if not rest:
            found = [
                {"id": pid, "type": "page", "title": p["title"]}
                for pid, p in sorted(self.pages.items())
                if p["title"] == query.get("title") and p["space"] == query.get("spaceKey")
            ]
            return (
                200,
                json.dumps({"results": found, "size": len(found)}).encode(),
                "application/json",
            )
        page_id = rest[0]
        if page_id not in self.pages:
            return 404, b'{"statusCode": 404, "message": "No content found"}', "application/json"
        if rest[1:] == ["child", "page"]:
            start, limit = int(query.get("start", 0)), int(query.get("limit", 25))
            limit = min(limit, self.page_size)
            kids = sorted(pid for pid, p in self.pages.items() if p["parent"] == page_id)
            chunk = kids[start : start + limit]
            links = {"base": self.url + "/wiki", "context": "/wiki"}
            if start + limit < len(kids):
                links["next"] = (
                    f"/rest/api/content/{page_id}/child/page?limit={limit}&start={start + limit}"
                )
            data = {
                "results": [
                    {"id": k, "type": "page", "title": self.pages[k]["title"]} for k in chunk
                ],
                "start": start,
                "limit": limit,
                "size": len(chunk),
                "_links": links,
            }
            return 200, json.dumps(data).encode(), "application/json"
        if rest[1:]:
            return 404, b"{}", "application/json"
        body = json.dumps(self._content(page_id, query.get("expand", ""))).encode()
        return 200, body, "application/json"


class FakeDrive(_Server):
    """`/drive/v3/files` (q/pageToken), `files/{id}` (+alt=media), `/export`, `/revisions`."""

    def __init__(self, token: str, page_size: int = 2):
        super().__init__()
        self.token = token
        self.files: dict[str, dict] = {}
        self.page_size = page_size
        self.no_markdown: set[str] = set()  # doc ids whose Markdown export is refused

    def add(self, file_id, name, mime, parent, content=b"", revisions=("1",)):
        self.files[file_id] = {
            "id": file_id,
            "name": name,
            "mimeType": mime,
            "parents": [parent],
            "content": content,
            "revisions": list(revisions),
            "modifiedTime": "2026-11-01T10:00:00.000Z",
        }

    def authorized(self, header: str) -> bool:
        return header == f"Bearer {self.token}"

    def _page(self, items, query, key):
        start = int(query.get("pageToken") or 0)
        chunk = items[start : start + self.page_size]
        out = {key: chunk}
        if start + self.page_size < len(items):
            out["nextPageToken"] = str(start + self.page_size)
        return 200, json.dumps(out).encode(), "application/json"

    def route(self, path, query):
        parts = path.strip("/").split("/")
        if parts[:3] != ["drive", "v3", "files"]:
            return 404, b"{}", "application/json"
        rest = parts[3:]
        if not rest:
            folder = query.get("q", "").split("'")[1]
            items = [
                {k: f[k] for k in ("id", "name", "mimeType", "modifiedTime", "parents")}
                for _, f in sorted(self.files.items(), key=lambda kv: kv[1]["name"])
                if folder in f["parents"]
            ]
            return self._page(items, query, "files")
        item = self.files.get(rest[0])
        if item is None:
            return 404, b'{"error": {"code": 404, "message": "File not found"}}', "application/json"
        if rest[1:] == ["revisions"]:
            revs = [{"id": r, "mimeType": item["mimeType"]} for r in item["revisions"]]
            return self._page(revs, query, "revisions")
        if rest[1:] == ["export"]:
            mime = query.get("mimeType", "")
            if mime == "text/markdown" and rest[0] in self.no_markdown:
                return (
                    400,
                    b'{"error": {"code": 400, "message": "Export format unsupported"}}',
                    "application/json",
                )
            return 200, item["content"], mime
        if query.get("alt") == "media":
            return 200, item["content"], item["mimeType"]
        meta = {k: item[k] for k in ("id", "name", "mimeType", "modifiedTime", "parents")}
        return 200, json.dumps(meta).encode(), "application/json"


USER, TOKEN, DRIVE_TOKEN = "bot@acme.example", "conf-token-123", "drive-token-456"

# Fake credentials of several kinds, built from pieces so no scanner flags this file.
PLANTED = {
    "aws": "AKIA" + "Z3X7K2M4N8P3R5T6",
    "stripe": "sk_live_" + "9fQ2xL7mN4bV8cZ1aS6dF3gH",
    "github": "ghp_" + "Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8",
    "url_password": "Pl4nted-Db-Passw0rd",
    "keyword": "Hunter2-Planted-Secret",
}


def imports_config(confluence=None, drive=None, hubs=("1",), folders=("ROOT",), depth=2):
    out = {}
    if confluence is not None:
        out["confluence"] = {
            "base_url": confluence.url + "/wiki",
            "hubs": list(hubs),
            "token_env": "KB_TEST_CONF_TOKEN",
            "user_env": "KB_TEST_CONF_USER",
            "depth": depth,
        }
    if drive is not None:
        out["drive"] = {
            "folders": list(folders),
            "credentials_env": "KB_DRIVE_TOKEN",
            "api_endpoint": drive.url,
        }
    return out


def every_byte(*roots: Path) -> bytes:
    """All bytes of every file under the roots (KB tree, data dir): where a leak would be."""
    blob = bytearray()
    for root in roots:
        for path in sorted(Path(root).rglob("*")):
            if path.is_file():
                blob += path.read_bytes()
    return bytes(blob)
