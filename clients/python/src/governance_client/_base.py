"""Configuration and the request/retry logic that ``Client`` and ``AsyncClient`` share."""

from __future__ import annotations

import os
import random
import uuid
from collections.abc import Callable, Mapping
from typing import Any

import httpx

from governance_client._call import Call
from governance_client._errors import APIConnectionError, APITimeoutError, GovernanceError
from governance_client._retry import backoff_delay, should_retry
from governance_client._version import __version__

API_PREFIX = "/api/v1"
DEFAULT_TIMEOUT_S = 60.0
DEFAULT_MAX_RETRIES = 2
URL_ENV = "GOVERNANCE_URL"
TOKEN_ENV = "GOVERNANCE_TOKEN"  # noqa: S105 (a variable name, not a secret)
USER_AGENT = f"governance-client-python/{__version__}"

# Transport failures worth another try: the request may not have reached the
# service, or its answer was lost. A bad URL or proxy set-up is not among them.
_TRANSIENT = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)


def normalize_base_url(url: str) -> str:
    """``http://host:8080``, ``http://host:8080/`` and ``http://host:8080/api/v1/`` all
    become ``http://host:8080/api/v1``; a path prefix before ``/api/v1`` is kept."""
    url = url.strip().rstrip("/")
    scheme = url.partition("://")[0].lower()
    if scheme not in ("http", "https"):
        raise ValueError(f"base_url must be an http or https URL, got {url!r}")
    return url if url.endswith(API_PREFIX) else url + API_PREFIX


class BaseClient:
    """What both clients know: where the service is, who calls, how hard to retry."""

    def __init__(
        self,
        *,
        base_url: str | None,
        token: str | None,
        timeout: float | httpx.Timeout | None,
        max_retries: int,
        headers: Mapping[str, str] | None,
        rand: Callable[[], float] | None,
    ) -> None:
        url = base_url if base_url is not None else os.environ.get(URL_ENV)
        if not url:
            raise GovernanceError(
                f"No service address: pass base_url=... or set the {URL_ENV} environment variable."
            )
        if max_retries < 0:
            raise ValueError("max_retries must be 0 or more")
        self.base_url = normalize_base_url(url)
        # Where /healthz, /readyz and /metrics are: the base URL without its /api/v1.
        self.service_root = self.base_url.removesuffix(API_PREFIX)
        self._token = token if token is not None else os.environ.get(TOKEN_ENV) or None
        self.timeout = timeout
        self.max_retries = max_retries
        self._headers = {"User-Agent": USER_AGENT, "Accept": "application/json", **(headers or {})}
        self._rand = rand or random.random

    def __repr__(self) -> str:
        return f"{type(self).__name__}(base_url={self.base_url!r})"

    def _max_retries(self, call: Call[Any]) -> int:
        return self.max_retries if call.max_retries is None else call.max_retries

    def _request_headers(self, call: Call[Any]) -> dict[str, str]:
        headers = dict(self._headers)
        if call.authenticated and self._token:
            headers["Authorization"] = f"Bearer {self._token}"
        if call.body is not None:
            headers["Content-Type"] = call.content_type
        key = call.idempotency_key
        if key is None and call.auto_idempotency_key and self._max_retries(call) > 0:
            key = str(uuid.uuid4())
        if key is not None:
            headers["Idempotency-Key"] = key
        headers.update(call.headers)
        return headers

    def _build_request(
        self, http: httpx.Client | httpx.AsyncClient, call: Call[Any]
    ) -> httpx.Request:
        request = http.build_request(
            call.method,
            (self.service_root if call.root else self.base_url) + call.path,
            params=call.params or None,
            content=call.body,
            headers=self._request_headers(call),
        )
        timeout = self._timeout(call)
        if timeout is not None:
            request.extensions["timeout"] = timeout.as_dict()
        return request

    def _timeout(self, call: Call[Any]) -> httpx.Timeout | None:
        """The call's own timeout, if it differs from the client's."""
        if call.timeout_given:
            return httpx.Timeout(call.timeout)
        if call.min_timeout is None or self.timeout is None:
            return None  # ``timeout=None`` means no limit
        # An upload may take longer than the client's timeout, never shorter.
        current = httpx.Timeout(self.timeout)
        longest = max(call.min_timeout, current.read or 0.0, current.write or 0.0)
        return httpx.Timeout(longest, connect=current.connect, pool=current.pool)

    def _retry_delay(
        self,
        call: Call[Any],
        request: httpx.Request,
        attempt: int,
        status: int | None,
        retry_after: float | None,
    ) -> float | None:
        """Seconds to wait before trying ``request`` again, or None to give up now.
        An ``idempotent`` call may be repeated without a key."""
        if attempt >= self._max_retries(call):
            return None
        repeatable = call.idempotent or "idempotency-key" in request.headers
        if not should_retry(request.method, status, repeatable):
            return None
        return backoff_delay(attempt, retry_after, rand=self._rand)

    def _transport_failure(
        self, call: Call[Any], exc: httpx.TransportError, request: httpx.Request, attempt: int
    ) -> tuple[APIConnectionError, float | None]:
        """The error to raise for a failed exchange, and how long to wait before a retry."""
        error = connection_error(exc, request)
        transient = isinstance(exc, _TRANSIENT)
        delay = self._retry_delay(call, request, attempt, None, None) if transient else None
        return error, delay


def connection_error(exc: httpx.TransportError, request: httpx.Request) -> APIConnectionError:
    cls = APITimeoutError if isinstance(exc, httpx.TimeoutException) else APIConnectionError
    return cls(f"{request.method} {request.url}: {exc or type(exc).__name__}", request=request)
