"""HTTP plumbing for imports: retries with backoff on 429/5xx that honour `Retry-After`.

Confluence goes through atlassian-python-api (a `requests` session): we mount a urllib3
`Retry` on it. Drive goes through google-api-python-client, whose transport is any object
with an httplib2-style `request()`: we hand it `HttpxHttp`, an httpx client over
`RetryTransport`. Both wait `Retry-After` seconds (capped) when the server says so and
back off exponentially otherwise. Nothing here logs a URL's query or a body.
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Callable
from typing import Any

import httplib2
import httpx
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

RETRY_STATUSES = (429, 500, 502, 503, 504)
DEFAULT_RETRIES = 4
DEFAULT_BACKOFF = 0.25  # seconds; doubles per attempt
MAX_WAIT = 30.0  # never sleep longer than this for one retry, whatever Retry-After says


def parse_retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delta-seconds or HTTP date)."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


class _CappedRetry(Retry):
    """urllib3 Retry whose Retry-After sleep is capped at MAX_WAIT."""

    def get_retry_after(self, response: Any) -> float | None:
        seconds = parse_retry_after(response.headers.get("Retry-After"))
        return None if seconds is None else min(seconds, MAX_WAIT)


def mount_retries(session: Any, retries: int = DEFAULT_RETRIES, backoff: float = DEFAULT_BACKOFF):
    """Retry every method on 429/5xx and connection errors for a requests session."""
    policy = _CappedRetry(
        total=retries,
        connect=retries,
        read=retries,
        status=retries,
        status_forcelist=RETRY_STATUSES,
        allowed_methods=None,
        backoff_factor=backoff,
        backoff_max=MAX_WAIT,
        respect_retry_after_header=True,
        raise_on_status=False,
    )
    # Retry-After is honoured for every retried status, not only urllib3's 413/429/503.
    policy.RETRY_AFTER_STATUS_CODES = frozenset(RETRY_STATUSES)
    adapter = HTTPAdapter(max_retries=policy)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


class RetryTransport(httpx.BaseTransport):
    """httpx transport that retries 429/5xx (honouring Retry-After) and connect errors."""

    def __init__(
        self,
        inner: httpx.BaseTransport | None = None,
        retries: int = DEFAULT_RETRIES,
        backoff: float = DEFAULT_BACKOFF,
        sleep: Callable[[float], None] = time.sleep,
    ):
        self.inner = inner or httpx.HTTPTransport()
        self.retries = retries
        self.backoff = backoff
        self.sleep = sleep
        self.retried = 0  # how many retries this transport made, for metadata

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request.read()
        for attempt in range(self.retries + 1):
            try:
                response = self.inner.handle_request(request)
            except (httpx.ConnectError, httpx.ReadTimeout, httpx.RemoteProtocolError):
                if attempt == self.retries:
                    raise
                self.retried += 1
                self.sleep(min(self.backoff * 2**attempt, MAX_WAIT))
                continue
            if response.status_code not in RETRY_STATUSES or attempt == self.retries:
                return response
            wait = parse_retry_after(response.headers.get("Retry-After"))
            response.read()
            response.close()
            self.retried += 1
            self.sleep(min(wait if wait is not None else self.backoff * 2**attempt, MAX_WAIT))
        raise AssertionError("unreachable")

    def close(self) -> None:
        self.inner.close()


class HttpxHttp:
    """The httplib2 `Http` interface google-api-python-client needs, over httpx + retries.

    `authorize(headers)` adds credentials (google.auth credentials `.apply`).
    """

    def __init__(
        self,
        authorize: Callable[[dict[str, str]], None] | None = None,
        timeout: float = 60.0,
        retries: int = DEFAULT_RETRIES,
        backoff: float = DEFAULT_BACKOFF,
    ):
        self.transport = RetryTransport(retries=retries, backoff=backoff)
        self.client = httpx.Client(transport=self.transport, timeout=timeout)
        self.authorize = authorize
        self.requests = 0

    def request(self, uri, method="GET", body=None, headers=None, redirections=5, **_):
        headers = dict(headers or {})
        if self.authorize is not None:
            self.authorize(headers)
        self.requests += 1
        response = self.client.request(method, uri, content=body, headers=headers)
        info = {k.lower(): v for k, v in response.headers.items()}
        info["status"] = str(response.status_code)
        return httplib2.Response(info), response.content

    def close(self) -> None:
        self.client.close()
