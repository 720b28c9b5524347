"""Import Google Drive folders: Docs as Markdown (HTML fallback), Sheets as CSV, Slides as text.

Drive v3 through google-api-python-client with the bundled (static) discovery document,
so building the client needs no network; `api_endpoint` in kb.yaml (or the
`KB_DRIVE_ENDPOINT` env var) points it elsewhere, e.g. a loopback fake in tests. The
transport is httpx with retries (kb.imports.http.HttpxHttp). Incremental: the newest
revision id (`revisions.list`) is compared with the stored one before exporting.

Credentials: `credentials_env` names an env var holding either an OAuth access token
(`google.oauth2.credentials.Credentials(token=...)`) or a path to a service-account JSON
key file (read with google-auth, scope drive.readonly). Never logged, never stored.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from kb import progress
from kb.imports.confluence import ImportConfigError, ImportResult, env_credential
from kb.imports.http import HttpxHttp
from kb.imports.store import (
    decode_body,
    index_by_source,
    make_slug,
    mark_source,
    now_utc,
    write_import,
)

FOLDER = "application/vnd.google-apps.folder"
EXPORTS = {
    "application/vnd.google-apps.document": [
        ("text/markdown", "doc.md"),
        ("text/html", "doc.html"),
    ],
    "application/vnd.google-apps.spreadsheet": [("text/csv", "sheet.csv")],
    "application/vnd.google-apps.presentation": [("text/plain", "slides.txt")],
}
DOWNLOADS = {"text/markdown": "file.md", "text/plain": "file.txt", "text/csv": "file.csv"}
DOWNLOADS["text/html"] = "file.html"
SCOPES = ["https://www.googleapis.com/auth/drive.readonly"]
FIELDS = "nextPageToken, files(id, name, mimeType, modifiedTime, webViewLink, parents)"


def _credentials(value: str):
    if os.path.isfile(value):
        from google.oauth2 import service_account

        return service_account.Credentials.from_service_account_file(value, scopes=SCOPES)
    from google.oauth2.credentials import Credentials

    return Credentials(token=value)


def _authorizer(credentials):
    import google.auth.transport.requests

    def authorize(headers: dict[str, str]) -> None:
        refreshable = getattr(credentials, "refresh_token", None) is not None
        if not credentials.valid and (refreshable or credentials.token is None):
            credentials.refresh(google.auth.transport.requests.Request())
        credentials.apply(headers)

    return authorize


class DriveSource:
    def __init__(self, credentials, endpoint: str | None):
        from googleapiclient.discovery import build

        self.http = HttpxHttp(authorize=_authorizer(credentials))
        options = {"api_endpoint": endpoint.rstrip("/") + "/drive/v3/"} if endpoint else None
        self.service = build(
            "drive", "v3", http=self.http, static_discovery=True, client_options=options
        )

    def list_folder(self, folder_id: str) -> list[dict[str, Any]]:
        files, token = [], None
        query = f"'{folder_id}' in parents and trashed = false"
        while True:
            page = (
                self.service.files()
                .list(q=query, fields=FIELDS, pageToken=token, pageSize=100, orderBy="name")
                .execute()
            )
            files.extend(page.get("files") or [])
            token = page.get("nextPageToken")
            if not token:
                return files

    def revision(self, file_id: str, fallback: str | None) -> str:
        newest, token = None, None
        while True:
            page = (
                self.service.revisions()
                .list(fileId=file_id, pageToken=token, fields="nextPageToken, revisions(id)")
                .execute()
            )
            revisions = page.get("revisions") or []
            if revisions:
                newest = str(revisions[-1]["id"])
            token = page.get("nextPageToken")
            if not token:
                return newest or str(fallback or "")

    def export(self, file_id: str, mime: str) -> bytes:
        return self.service.files().export(fileId=file_id, mimeType=mime).execute()

    def download(self, file_id: str) -> bytes:
        return self.service.files().get_media(fileId=file_id).execute()

    def folder_name(self, folder_id: str) -> str:
        return str(self.service.files().get(fileId=folder_id, fields="id, name").execute()["name"])


def _status(exc: Exception) -> int | None:
    resp = getattr(exc, "resp", None)
    return int(resp.status) if resp is not None and getattr(resp, "status", None) else None


def _fetch_body(source: DriveSource, item: dict[str, Any]) -> tuple[str, bytes, str] | None:
    """(file name, bytes, exported mime) or None for types we don't import."""
    from googleapiclient.errors import HttpError

    mime = item.get("mimeType", "")
    if mime in EXPORTS:
        last: Exception | None = None
        for export_mime, name in EXPORTS[mime]:
            try:
                return name, source.export(item["id"], export_mime), export_mime
            except HttpError as exc:  # e.g. Markdown export not offered: fall back to HTML
                if _status(exc) not in (400, 403, 415, 501):
                    raise
                last = exc
        raise last  # type: ignore[misc]
    if mime in DOWNLOADS:
        return DOWNLOADS[mime], source.download(item["id"]), mime
    return None


def import_folder(kb_root: Path, folder_id: str, source: DriveSource) -> ImportResult:
    from googleapiclient.errors import HttpError

    result = ImportResult("drive", folder_id)
    known = index_by_source(kb_root, "drive")
    pending, seen = [(folder_id, None)], {folder_id}
    while pending:
        current, parent = pending.pop(0)
        try:
            items = source.list_folder(current)
        except HttpError as exc:
            result.failed.append(f"{current}: HTTP {_status(exc)}")
            continue
        for item in items:
            file_id = str(item["id"])
            if item.get("mimeType") == FOLDER:
                if file_id not in seen:
                    seen.add(file_id)
                    pending.append((file_id, current))
                continue
            try:
                _import_file(kb_root, source, item, current, folder_id, known, result)
            except HttpError as exc:
                if _status(exc) == 404:
                    result.missing.append(file_id)
                    if file_id in known:
                        mark_source(kb_root, known[file_id][0], status="deleted")
                else:
                    result.failed.append(f"{file_id}: HTTP {_status(exc)}")
            except Exception as exc:  # noqa: BLE001 - one bad file never stops the folder
                result.failed.append(f"{file_id}: {type(exc).__name__}")
    result.requests = source.http.requests
    return result


def _import_file(kb_root, source, item, parent, hub, known, result) -> None:
    file_id = str(item["id"])
    revision = source.revision(file_id, item.get("modifiedTime"))
    previous = known.get(file_id)
    if (
        previous
        and previous[1].get("status") != "deleted"
        and str(previous[1].get("revision")) == revision
    ):
        result.unchanged.append(previous[0])
        progress.report(
            "page", source=f"{result.system}:{result.source}", name=previous[0], fetched=False
        )
        return
    fetched = _fetch_body(source, item)
    if fetched is None:
        return
    name, data, exported = fetched
    text, encoding = decode_body(data)
    title = str(item.get("name") or file_id)
    slug = previous[0] if previous else make_slug("drive", file_id, title)
    meta = {
        "system": "drive",
        "id": file_id,
        "url": item.get("webViewLink") or f"https://drive.google.com/open?id={file_id}",
        "title": title,
        "mime_type": item.get("mimeType"),
        "exported_as": exported,
        "revision": revision,
        "modified": item.get("modifiedTime"),
        "fetched_at": now_utc(),
        "parent": parent,
        "hub": hub,
        "encoding": encoding,
    }
    written = write_import(kb_root, slug, {name: text}, meta, primary=name)
    result.fetched.append(slug)
    progress.report("page", source=f"{result.system}:{result.source}", name=slug, fetched=True)
    result.redactions += len(written["redactions"])


def run_drive(kb_root: Path, conf: dict[str, Any], folders: list[str]) -> list[ImportResult]:
    value = env_credential(conf.get("credentials_env"), "drive credentials_env")
    endpoint = conf.get("api_endpoint") or os.environ.get("KB_DRIVE_ENDPOINT")
    if endpoint is not None and not str(endpoint).startswith(("http://", "https://")):
        raise ImportConfigError("imports.drive.api_endpoint must be an http(s) URL")
    source = DriveSource(_credentials(value), endpoint)
    results = []
    try:
        for folder in folders:
            source.http.requests = 0
            results.append(import_folder(kb_root, str(folder), source))
    finally:
        source.http.close()
    return results
