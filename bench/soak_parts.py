"""The moving parts of bench/soak.py: the browser, the committer, the MCP and SQL load (the
monitor that watches every process, and the run and crash checks, are in soak_watch.py).

Each part is a thread with `start()` / `stop()`; `stop()` is idempotent and bounded.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KB_EXE = str(Path(sys.executable).with_name("kb"))
CHROMIUM = os.environ.get("KB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
]
# lineage, assets, a partitioned asset's partitions, runs, automation
PAGES = {
    "lineage": "/asset-groups",
    "assets": "/assets",
    "partitions": "/assets/code_facts?view=partitions",
    "runs": "/runs",
    "automation": "/automation",
}
UNEXPECTED = "Unexpected GraphQL error"
FULL_RELOAD_EVERY = 5  # one load in five reloads the whole page (the bundle, a new session)
# The UI's router follows the history API: a pushState + popstate is a click on a link.
NAVIGATE = (
    "path => { window.history.pushState({}, '', path);"
    " window.dispatchEvent(new PopStateEvent('popstate')); }"
)


def percentile(values: list[float], p: float, scale: float = 1.0) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return round(ordered[index] * scale, 3)


def wait_until(probe: Callable[[], object], timeout: float, every: float = 3.0):
    deadline = time.monotonic() + timeout
    while True:
        with contextlib.suppress(Exception):
            if result := probe():
                return result
        if time.monotonic() > deadline:
            return None
        time.sleep(every)


class Part:
    def __init__(self) -> None:
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        self._thread = threading.Thread(target=self.run, name=type(self).__name__, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=120)

    def run(self) -> None:
        raise NotImplementedError


class Browser(Part):
    """Headless Chromium (Debian's, through Playwright), `tabs` pages loading in turn."""

    def __init__(self, port: int, tabs: int = 3) -> None:
        super().__init__()
        self.base = f"http://127.0.0.1:{port}"
        self.tabs = tabs
        self.loads: list[tuple[str, float]] = []
        self.graphql_errors = 0
        self.page_errors: list[str] = []

    def by_page(self) -> dict[str, dict]:
        out = {}
        for name in PAGES:
            times = [s for page, s in self.loads if page == name]
            out[name] = {"loads": len(times), "p50_s": percentile(times, 50)}
            out[name]["p95_s"] = percentile(times, 95)
        return out

    def run(self) -> None:
        asyncio.run(self._main())

    async def _main(self) -> None:
        from playwright.async_api import async_playwright

        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                await asyncio.gather(*(self._tab(browser, i) for i in range(self.tabs)))
            finally:
                await browser.close()

    async def _tab(self, browser, offset: int) -> None:
        page = await browser.new_page()
        inflight: dict = {}  # GraphQL request -> when it was sent
        load_started = [0.0]

        def sent(request) -> None:
            if "/graphql" in request.url:
                inflight[request] = time.perf_counter()

        answered_since = [0]  # GraphQL answers since this load began

        async def answered(response) -> None:
            when = inflight.pop(response.request, 0.0)
            if "/graphql" in response.url and when >= load_started[0]:
                answered_since[0] += 1
            if "/graphql" not in response.url:
                return
            with contextlib.suppress(Exception):
                body = await response.json()
                for error in body.get("errors") or []:
                    self.graphql_errors += 1
                    self.page_errors.append(f"{response.url}: {str(error)[:200]}")

        page.on("request", sent)
        page.on("requestfailed", lambda request: inflight.pop(request, None))
        page.on("response", answered)
        names = list(PAGES)
        n = offset
        while not self._stop.is_set():
            name = names[n % len(names)]
            n += 1
            started = load_started[0] = time.perf_counter()
            answered_since[0] = 0
            try:
                if n % FULL_RELOAD_EVERY == 1 or page.url == "about:blank":
                    await page.goto(self.base + PAGES[name], wait_until="load", timeout=60_000)
                else:  # in-app navigation, as a person clicking through the UI does
                    await page.evaluate(NAVIGATE, PAGES[name])
                # loaded: its first GraphQL answers are in and none is in flight (the UI then
                # keeps polling; those later requests are not part of the load)
                while time.perf_counter() - started < 60:
                    mine = [r for r, when in inflight.items() if when >= started]
                    if answered_since[0] > 0 and not mine:
                        break
                    await asyncio.sleep(0.05)
                self.loads.append((name, time.perf_counter() - started))
                text = await page.inner_text("body")
                if UNEXPECTED in text:
                    self.page_errors.append(f"{name}: {UNEXPECTED} shown on the page")
            except Exception as exc:  # noqa: BLE001 - a page that failed is a finding
                self.page_errors.append(f"{name}: {type(exc).__name__}: {str(exc)[:200]}")
        await page.close()


class Committer(Part):
    """A commit to one component's folder every `every` seconds, components in turn."""

    def __init__(self, kb_root: Path, every: float) -> None:
        super().__init__()
        from kb.loader import load_kb

        self.kb_root = kb_root
        self.every = every
        self.folders = [c.repo_path for c in load_kb(kb_root).components() if c.repo_path]
        self.components = len(load_kb(kb_root).components())
        self.commits = 0
        self.errors: list[str] = []

    def commit_one(self) -> None:
        folder = self.folders[self.commits % len(self.folders)]
        self.commits += 1
        touched = folder / "soak_touch.txt"
        touched.write_text(f"soak commit {self.commits} at {time.time()}\n")
        env = {
            **os.environ,
            "GIT_AUTHOR_NAME": "soak",
            "GIT_AUTHOR_EMAIL": "soak@example.invalid",
            "GIT_COMMITTER_NAME": "soak",
            "GIT_COMMITTER_EMAIL": "soak@example.invalid",
        }
        for attempt in range(10):  # another git process may hold index.lock a moment
            added = subprocess.run(["git", "-C", str(folder), "add", "soak_touch.txt"], env=env)
            done = added.returncode == 0 and (
                subprocess.run(  # the post-commit hook hands a refresh to the refresh service
                    ["git", "-C", str(folder), "commit", "-q", "-m", f"soak {self.commits}"],
                    env=env,
                ).returncode
                == 0
            )
            if done:
                return
            time.sleep(0.5 * (attempt + 1))
        raise RuntimeError(f"could not commit in {folder}")

    def run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.commit_one()
            except Exception as exc:  # noqa: BLE001 - reported, the soak goes on
                self.errors.append(str(exc))

    def published(self, data: Path, env: dict) -> bool:
        """Whether the published warehouse is built from the current commits and KB."""
        from kb.loader import load_kb
        from pipeline.fastpath import staleness

        return staleness(load_kb(self.kb_root), data).up_to_date


class McpLoad(Part):
    """`clients` real MCP clients over stdio (`kb mcp`), each calling the tools in turn."""

    def __init__(self, kb_root: Path, data: Path, clients: int, env: dict) -> None:
        super().__init__()
        self.kb_root, self.data, self.clients, self.env = kb_root, data, clients, env
        self.calls = 0
        self.failures: list[str] = []
        self.latencies: list[tuple[float, bool]] = []  # (seconds, overlapped a republish)
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        for i in range(self.clients):
            thread = threading.Thread(target=self._client, args=(i,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=120)

    def _manifest(self) -> int:
        try:
            return (self.data / "manifest.json").stat().st_mtime_ns
        except OSError:
            return 0

    def _client(self, offset: int) -> None:
        from mcp import StdioServerParameters

        from tests.support.mcp_stdio import StdioClient

        params = StdioServerParameters(
            command=KB_EXE,
            args=["mcp", "--kb", str(self.kb_root), "--data-dir", str(self.data)],
            env=self.env,
            cwd=str(ROOT),
        )
        client = StdioClient(params=params, timeout=60)
        calls = [
            ("kb_status", {}),
            ("kb_find", {"kind": "route", "query": "*"}),
            ("kb_sql", {"sql": "select kind, count(*) from nodes group by 1", "project": "*"}),
            ("kb_context", {"task": "how does the api handle a request", "max_tokens": 2000}),
        ]
        n = offset
        try:
            while not self._stop.is_set():
                tool, arguments = calls[n % len(calls)]
                n += 1
                before, started = self._manifest(), time.perf_counter()
                try:
                    text, is_error = client.call(tool, **arguments)
                    if not text.strip():
                        self.failures.append(f"{tool}: empty answer")
                    elif is_error and "project" not in text:
                        self.failures.append(f"{tool}: {text[:200]}")
                except Exception as exc:  # noqa: BLE001 - a call that failed is a finding
                    self.failures.append(f"{tool}: {type(exc).__name__}: {exc}")
                self.latencies.append((time.perf_counter() - started, self._manifest() != before))
                self.calls += 1
                time.sleep(0.2)
        finally:
            with contextlib.suppress(Exception):
                client.close()


class SqlLoad(Part):
    """`kb sql` queries one after another, as an analyst's shell would run them."""

    def __init__(self, kb_root: Path, data: Path, env: dict) -> None:
        super().__init__()
        self.kb_root, self.data, self.env = kb_root, data, env
        self.queries = 0
        self.failures: list[str] = []

    def run(self) -> None:
        sql = "select kind, count(*) as n from nodes group by 1 order by 2 desc"
        while not self._stop.is_set():
            argv = [KB_EXE, "sql", "--kb", str(self.kb_root), "--data-dir", str(self.data), sql]
            try:
                done = subprocess.run(
                    argv, capture_output=True, text=True, env=self.env, timeout=120
                )
                if done.returncode != 0 or not re.search(r"\d", done.stdout):
                    self.failures.append(f"rc {done.returncode}: {done.stderr.strip()[:200]}")
            except subprocess.TimeoutExpired:
                self.failures.append("kb sql did not answer within 120 s")
            self.queries += 1
            self._stop.wait(0.5)
