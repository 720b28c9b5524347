"""The viewer's HTTP server: the static page plus a small read-only JSON API.

Routes:
  GET /                          the page (viewer/static/index.html)
  GET /static/...                page assets, vendor bundle under /static/vendor/
  GET /api/partitions            partitions with counts, or 503 + the command that builds one
  GET /api/graph?partition=P     all nodes and edges of P (+ the global layer it links to)

It reads the published warehouse through `warehouse.reader.Warehouse`, refreshed per
request, so a republish shows up on reload and a running build is never blocked. It
never imports Dagster or the extractors, so it starts in well under two seconds.
"""

from __future__ import annotations

import errno
import json
import mimetypes
import sys
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from viewer import graph_data
from warehouse.reader import Warehouse, WarehouseMissing

STATIC = Path(__file__).resolve().parent / "static"
VENDOR_FILES = ("vendor/d3-force.js",)
SETUP_COMMAND = "bash viewer/setup.sh"


class ViewerError(Exception):
    """A start-up problem the user can fix (port in use, vendor files missing)."""


def missing_vendor_files() -> list[str]:
    return [name for name in VENDOR_FILES if not (STATIC / name).is_file()]


class ViewerServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int], wh: Warehouse, build_command: str):
        self.wh = wh
        self.build_command = build_command
        self.lock = threading.Lock()  # one Warehouse object shared by request threads
        super().__init__(address, Handler)

    def host_allowed(self, header: str | None) -> bool:
        """The Host a browser sent names this server: `localhost`, a loopback address or
        the address it is bound to (with its port, or none). Bound to every interface
        (0.0.0.0, ::) the person chose to be reached by any name, so any is accepted."""
        bound, port = str(self.server_address[0]), self.server_address[1]
        if bound in ("0.0.0.0", "::", ""):
            return True
        if not header:
            return False
        split = _split_host(header)
        if split is None:
            return False
        name, given = split
        if given is not None and (not given.isdigit() or int(given) != port):
            return False
        return name in {"localhost", "127.0.0.1", "::1", bound.lower()}

    @property
    def url(self) -> str:
        host, port = self.server_address[:2]
        return f"http://{host}:{port}/"


def _split_host(header: str) -> tuple[str, str | None] | None:
    """(name, port or None) of a Host header: `name`, `name:port`, `[v6]`, `[v6]:port`."""
    host = header.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        rest = host[end + 1 :] if end != -1 else "x"
        if end == -1 or (rest and not rest.startswith(":")):
            return None
        return host[1:end], rest[1:] if rest else None
    name, colon, port = host.partition(":")
    if ":" in port:
        return None  # an IPv6 address must be bracketed in Host
    return name, port if colon else None


class Handler(BaseHTTPRequestHandler):
    server: ViewerServer
    server_version = "kb-graph-viewer"

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - stdlib signature
        """Quiet by default: the terminal shows the URL, not every request."""

    def do_GET(self) -> None:  # noqa: N802 - stdlib name
        if not self.server.host_allowed(self.headers.get("Host")):
            # DNS rebinding: a page on evil.example whose name now resolves to 127.0.0.1
            # reaches this server with its own name in Host; only ours get the graph
            self._json(
                HTTPStatus.MISDIRECTED_REQUEST,
                {"error": "wrong_host", "message": "this viewer answers to its own address only"},
            )
            return
        url = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(url.query).items()}
        try:
            if url.path == "/api/partitions":
                self._json(HTTPStatus.OK, self._read(graph_data.partitions))
            elif url.path == "/api/graph":
                partition = query.get("partition", "")
                self._json(HTTPStatus.OK, self._read(graph_data.graph, partition))
            elif url.path in ("/", "/index.html"):
                self._file(STATIC / "index.html")
            elif url.path.startswith("/static/"):
                self._static(url.path.removeprefix("/static/"))
            else:
                self._json(HTTPStatus.NOT_FOUND, {"error": "not_found", "message": url.path})
        except WarehouseMissing:
            self._json(
                HTTPStatus.SERVICE_UNAVAILABLE,
                {
                    "error": "warehouse_missing",
                    "message": f"No warehouse is published in {self.server.wh.data_dir}.",
                    "command": self.server.build_command,
                },
            )
        except graph_data.UnknownPartition as exc:
            self._json(
                HTTPStatus.NOT_FOUND,
                {"error": "unknown_partition", "message": f"unknown partition {exc}"},
            )
        except (BrokenPipeError, ConnectionResetError):
            pass

    def _read(self, fn: Any, *args: Any) -> Any:
        with self.server.lock:
            self.server.wh.refresh()
            return fn(self.server.wh, *args)

    def _json(self, status: HTTPStatus, payload: Any) -> None:
        body = json.dumps(payload, separators=(",", ":"), default=str).encode("utf-8")
        self._send(status, "application/json; charset=utf-8", body)

    def _static(self, rel: str) -> None:
        path = (STATIC / rel).resolve()
        if STATIC not in path.parents or not path.is_file():
            hint = f" — run `{SETUP_COMMAND}`" if rel.startswith("vendor/") else ""
            self._send(HTTPStatus.NOT_FOUND, "text/plain", f"not found: {rel}{hint}\n".encode())
            return
        self._file(path)

    def _file(self, path: Path) -> None:
        ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix in (".js", ".mjs"):
            ctype = "text/javascript"
        self._send(HTTPStatus.OK, f"{ctype}; charset=utf-8", path.read_bytes())

    def _send(self, status: HTTPStatus, ctype: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)


def make_server(data_dir: Path, host: str, port: int, build_command: str) -> ViewerServer:
    """Bind the server; ViewerError with one clear line when it cannot start."""
    missing = missing_vendor_files()
    if missing:
        raise ViewerError(
            f"viewer front-end files missing ({', '.join(missing)}) — run `{SETUP_COMMAND}`"
        )
    try:
        return ViewerServer((host, port), Warehouse(Path(data_dir)), build_command)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            raise ViewerError(
                f"port {port} on {host} is already in use — stop the other server "
                "or pick another port with --port N"
            ) from None
        raise ViewerError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(data_dir: Path, host: str, port: int, build_command: str) -> None:
    server = make_server(data_dir, host, port, build_command)
    print(f"kb viewer: serving {data_dir} at {server.url}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("kb viewer: stopped", file=sys.stderr)
    finally:
        server.server_close()
