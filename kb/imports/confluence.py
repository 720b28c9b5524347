"""Import Confluence Cloud pages: hubs from kb.yaml, followed to `depth` via links and children.

REST v1 through atlassian-python-api (`Confluence(url, username, password=token, cloud=True)`),
its requests session given retries (kb.imports.http). Per page: a cheap version lookup
first; the body is fetched only when the version differs from the stored one (the stored
`links` list keeps the crawl going through unchanged pages). Credentials come from the
environment variables kb.yaml names and are never logged; the atlassian logger (which
logs bodies and auth headers at DEBUG) is held at WARNING.
"""

from __future__ import annotations

import html
import logging
import os
import re
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdownify import markdownify

from kb import progress
from kb.imports.http import mount_retries
from kb.imports.store import index_by_source, make_slug, mark_source, now_utc, write_import

logging.getLogger("atlassian").setLevel(logging.WARNING)

EXPAND = "body.storage,version,space,ancestors"
PAGE_LINK = re.compile(r"/pages/(\d+)|[?&]pageId=(\d+)")
HREF = re.compile(r"""<a\s[^>]*?href\s*=\s*["']([^"']+)["']""", re.IGNORECASE)
RI_PAGE = re.compile(r"<ri:page\b([^>]*)/?>", re.IGNORECASE)
ATTR = re.compile(r"""(ri:[a-z-]+)\s*=\s*["']([^"']*)["']""", re.IGNORECASE)


class ImportConfigError(ValueError):
    """kb.yaml's imports section can't be used (missing env var, bad field)."""


@dataclass
class ImportResult:
    system: str
    source: str  # hub id / folder id: the partition key
    fetched: list[str] = field(default_factory=list)  # slugs written
    unchanged: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # ids that 404 upstream
    failed: list[str] = field(default_factory=list)  # "id: HTTP 500" (never a body)
    redactions: int = 0
    requests: int = 0

    def summary(self) -> str:
        return (
            f"{self.system}:{self.source}: {len(self.fetched)} fetched, "
            f"{len(self.unchanged)} unchanged, {len(self.missing)} missing, "
            f"{len(self.failed)} failed, {self.redactions} secrets redacted"
        )

    def metadata(self) -> dict[str, Any]:
        return {
            "fetched": len(self.fetched),
            "skipped_unchanged": len(self.unchanged),
            "missing": len(self.missing),
            "failed": len(self.failed),
            "secrets_redacted": self.redactions,
            "pages": sorted(self.fetched),
            "errors": self.failed[:20],
        }


class HttpStatusError(Exception):
    def __init__(self, status: int, what: str):
        super().__init__(f"{what}: HTTP {status}")
        self.status = status


def env_credential(name: str | None, what: str) -> str:
    if not name:
        raise ImportConfigError(f"imports: {what} names no environment variable")
    value = os.environ.get(str(name))
    if not value:
        raise ImportConfigError(f"imports: environment variable {name} ({what}) is not set")
    return value


class ConfluenceSource:
    """The few v1 REST calls the import needs, JSON-decoded, statuses checked."""

    def __init__(self, base_url: str, user: str, token: str):
        from atlassian import Confluence

        self.base_url = base_url.rstrip("/")
        self.client = Confluence(url=self.base_url, username=user, password=token, cloud=True)
        mount_retries(self.client._session)
        self.requests = 0

    def _get(self, path: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.requests += 1
        response = self.client.get(path, params=params, advanced_mode=True)
        if response.status_code != 200:
            raise HttpStatusError(response.status_code, path.split("?")[0])
        response.encoding = response.encoding or "utf-8"
        return response.json()

    def version(self, page_id: str) -> int:
        data = self._get(f"rest/api/content/{page_id}", {"expand": "version"})
        return int((data.get("version") or {}).get("number") or 0)

    def page(self, page_id: str) -> dict[str, Any]:
        return self._get(f"rest/api/content/{page_id}", {"expand": EXPAND})

    def children(self, page_id: str, limit: int = 50) -> list[str]:
        ids: list[str] = []
        path = f"rest/api/content/{page_id}/child/page"
        params: dict[str, Any] | None = {"start": 0, "limit": limit}
        while path:
            data = self._get(path, params)
            ids.extend(str(r["id"]) for r in data.get("results") or [] if r.get("id"))
            nxt = (data.get("_links") or {}).get("next")
            if not nxt:
                break
            path, params = nxt.lstrip("/"), None
            if path.startswith("wiki/") and self.base_url.endswith("/wiki"):
                path = path[len("wiki/") :]
        return ids

    def by_title(self, space: str, title: str) -> str | None:
        params = {"spaceKey": space, "title": title, "type": "page"}
        results = self._get("rest/api/content", params).get("results") or []
        return str(results[0]["id"]) if results else None


def storage_links(storage: str) -> tuple[list[str], list[tuple[str | None, str]]]:
    """Page ids from `<a href=.../pages/<id>>` and (space, title) from `<ri:page>` links."""
    ids: list[str] = []
    for href in HREF.findall(storage):
        match = PAGE_LINK.search(html.unescape(href))
        if match:
            ids.append(match.group(1) or match.group(2))
    titles = []
    for attrs in RI_PAGE.findall(storage):
        found = {k.lower(): html.unescape(v) for k, v in ATTR.findall(attrs)}
        if found.get("ri:content-title"):
            titles.append((found.get("ri:space-key"), found["ri:content-title"]))
    return ids, titles


def _page_url(base_url: str, page: dict[str, Any]) -> str:
    webui = (page.get("_links") or {}).get("webui")
    if webui:
        return base_url.rstrip("/") + webui
    return f"{base_url.rstrip('/')}/pages/{page.get('id')}"


def import_hub(
    kb_root: Path, conf: dict[str, Any], hub: str, source: ConfluenceSource
) -> ImportResult:
    """Crawl one hub page to `depth` (hub = 0) and store every changed page."""
    depth = int(conf.get("depth", 2))
    result = ImportResult("confluence", hub)
    known = index_by_source(kb_root, "confluence")
    queue: deque[tuple[str, int, str | None]] = deque([(hub, 0, None)])
    seen = {hub}
    while queue:
        page_id, level, parent = queue.popleft()
        try:
            links = _import_page(kb_root, source, page_id, hub, parent, known, result)
            if level < depth:
                links = links + source.children(page_id)
        except HttpStatusError as exc:
            if exc.status == 404:
                result.missing.append(page_id)
                if page_id in known:
                    mark_source(kb_root, known[page_id][0], status="deleted", checked_at=now_utc())
            else:
                result.failed.append(f"{page_id}: HTTP {exc.status}")
            continue
        except Exception as exc:  # noqa: BLE001 - one bad page never stops the crawl
            result.failed.append(f"{page_id}: {type(exc).__name__}")
            continue
        if level >= depth:
            continue
        for link in links:
            if link not in seen:
                seen.add(link)
                queue.append((link, level + 1, page_id))
    result.requests = source.requests
    return result


def _import_page(kb_root, source, page_id, hub, parent, known, result) -> list[str]:
    previous = known.get(page_id)
    if previous is not None and previous[1].get("status") != "deleted":
        slug, meta = previous
        if source.version(page_id) == int(meta.get("version") or -1):
            result.unchanged.append(slug)
            progress.report(
                "page", source=f"{result.system}:{result.source}", name=slug, fetched=False
            )
            return [str(x) for x in meta.get("links") or []]
    page = source.page(page_id)
    storage = ((page.get("body") or {}).get("storage") or {}).get("value") or ""
    space = (page.get("space") or {}).get("key")
    ids, titles = storage_links(storage)
    for space_key, title in titles:
        try:
            found = source.by_title(space_key or space, title)
        except HttpStatusError:
            found = None
        if found:
            ids.append(found)
    links = list(dict.fromkeys(i for i in ids if i != page_id))
    ancestors = page.get("ancestors") or []
    title = str(page.get("title") or page_id)
    slug = previous[0] if previous else make_slug("confluence", page_id, title)
    meta = {
        "system": "confluence",
        "id": str(page_id),
        "url": _page_url(source.base_url, page),
        "title": title,
        "space": space,
        "version": int((page.get("version") or {}).get("number") or 0),
        "modified": (page.get("version") or {}).get("when"),
        "fetched_at": now_utc(),
        "parent": str(ancestors[-1]["id"]) if ancestors else parent,
        "hub": str(hub),
        "links": links,
    }
    files = {"page.html": storage, "page.md": markdownify(storage, heading_style="ATX").strip()}
    written = write_import(kb_root, slug, files, meta, primary="page.html")
    result.fetched.append(slug)
    progress.report("page", source=f"{result.system}:{result.source}", name=slug, fetched=True)
    result.redactions += len(written["redactions"])
    known[page_id] = (slug, written)
    return links


def run_confluence(kb_root: Path, conf: dict[str, Any], hubs: list[str]) -> list[ImportResult]:
    base_url = conf.get("base_url")
    if not base_url:
        raise ImportConfigError("imports.confluence.base_url is missing")
    token = env_credential(conf.get("token_env"), "confluence token_env")
    user = env_credential(conf.get("user_env"), "confluence user_env")
    source = ConfluenceSource(str(base_url), user, token)
    results = []
    for hub in hubs:
        source.requests = 0
        results.append(import_hub(kb_root, conf, str(hub), source))
    return results
