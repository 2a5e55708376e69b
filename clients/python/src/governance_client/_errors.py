"""Every failure a caller can see.

    GovernanceError
    ├── APIError                    the service answered with an error status
    │   ├── BadRequestError           400, 405, 413, 415 and other 4xx (a 3xx is a plain APIError)
    │   ├── AuthenticationError       401
    │   ├── PermissionDeniedError     403
    │   │   └── DomainForbiddenError      403 ``domain_forbidden`` (``assets`` names them)
    │   ├── NotFoundError             404
    │   ├── ConflictError             409 (never retried)
    │   ├── PreconditionFailedError   412 (If-Match did not match)
    │   ├── ValidationError           422 (``errors`` lists the bad fields)
    │   ├── RateLimitedError          429
    │   └── ServerError               5xx
    │       └── UnavailableError        503
    ├── APIConnectionError          no answer at all
    │   └── APITimeoutError
    └── WebhookVerificationError    a webhook delivery failed ``verify_webhook``

An ``APIError`` carries the RFC 9457 problem body as the service sent it
(``problem``), and the fields a caller usually wants from it (``status``,
``code``, ``detail``, ``request_id``, ``errors``, ``retry_after``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, TypedDict

import httpx

from governance_client._retry import parse_retry_after

__all__ = [
    "APIConnectionError",
    "APIError",
    "APITimeoutError",
    "AuthenticationError",
    "BadRequestError",
    "ConflictError",
    "DomainForbiddenError",
    "ForbiddenAsset",
    "GovernanceError",
    "NotFoundError",
    "PermissionDeniedError",
    "PreconditionFailedError",
    "RateLimitedError",
    "ServerError",
    "UnavailableError",
    "ValidationError",
    "WebhookVerificationError",
    "error_kind",
]


class GovernanceError(Exception):
    """The base of every error this library raises."""


class APIConnectionError(GovernanceError):
    """The request got no answer: refused, reset, DNS failure, broken protocol."""

    def __init__(self, message: str, *, request: httpx.Request | None = None) -> None:
        super().__init__(message)
        self.request = request


class APITimeoutError(APIConnectionError):
    """The request timed out (connecting, writing, or waiting for the answer)."""


class WebhookVerificationError(GovernanceError):
    """A webhook delivery is not genuine or not fresh: a header is missing, no
    signature matches, the timestamp is too far from now, or the body is not JSON."""


class APIError(GovernanceError):
    """The service answered with an error status (4xx, 5xx) or an unexpected redirect."""

    kind: ClassVar[str] = "api"

    def __init__(
        self,
        *,
        status: int,
        problem: Mapping[str, Any] | None = None,
        request_id: str | None = None,
        headers: Mapping[str, str] | None = None,
        response: httpx.Response | None = None,
    ) -> None:
        self.status = status
        self.problem: dict[str, Any] = dict(problem or {})
        self.code: str | None = _text(self.problem.get("code"))
        self.title: str | None = _text(self.problem.get("title"))
        self.detail: str | None = _text(self.problem.get("detail"))
        self.request_id = request_id or _text(self.problem.get("request_id"))
        raw_errors = self.problem.get("errors")
        self.errors: list[dict[str, Any]] = list(raw_errors) if isinstance(raw_errors, list) else []
        self.headers: dict[str, str] = dict(headers or {})
        self.retry_after = parse_retry_after(self.headers.get("retry-after"))
        self.response = response
        super().__init__(self._message())

    def _message(self) -> str:
        text = f"{self.status}"
        if self.code:
            text += f" {self.code}"
        if self.detail or self.title:
            text += f": {self.detail or self.title}"
        if self.request_id:
            text += f" (request_id={self.request_id})"
        return text


class BadRequestError(APIError):
    kind = "bad_request"


class AuthenticationError(APIError):
    kind = "authentication"


class PermissionDeniedError(APIError):
    kind = "permission"


class ForbiddenAsset(TypedDict):
    id: str
    domain: str | None


class DomainForbiddenError(PermissionDeniedError):
    """A write touched assets where the caller may not write; nothing was written.
    ``assets`` lists them (the first 100) with their domains (None: outside every
    domain, where the global role decides); ``assets_count`` counts them all."""

    @property
    def assets(self) -> list[ForbiddenAsset]:
        listed = self.problem.get("assets")
        if not isinstance(listed, list):
            return []
        return [
            {"id": a["id"], "domain": _text(a.get("domain"))}
            for a in listed
            if isinstance(a, dict) and isinstance(a.get("id"), str)
        ]

    @property
    def assets_count(self) -> int:
        """How many assets were refused in all (``assets`` lists at most 100)."""
        count = self.problem.get("assets_count")
        return count if isinstance(count, int) else len(self.assets)


class NotFoundError(APIError):
    kind = "not_found"


class ConflictError(APIError):
    kind = "conflict"


class PreconditionFailedError(APIError):
    kind = "precondition_failed"


class ValidationError(APIError):
    kind = "validation"


class RateLimitedError(APIError):
    kind = "rate_limited"


class ServerError(APIError):
    kind = "server"


class UnavailableError(ServerError):
    kind = "unavailable"


_BY_STATUS: dict[int, type[APIError]] = {
    400: BadRequestError,
    401: AuthenticationError,
    403: PermissionDeniedError,
    404: NotFoundError,
    409: ConflictError,
    412: PreconditionFailedError,
    422: ValidationError,
    429: RateLimitedError,
    503: UnavailableError,
}


_BY_CODE: dict[tuple[int, str], type[APIError]] = {
    (403, "domain_forbidden"): DomainForbiddenError,
}


def error_class(status: int, code: str | None = None) -> type[APIError]:
    """The exception class for an error answer. The status decides; ``code`` picks a
    subclass of that status's class where one says more (``domain_forbidden``)."""
    if code is not None and (status, code) in _BY_CODE:
        return _BY_CODE[(status, code)]
    if status in _BY_STATUS:
        return _BY_STATUS[status]
    if status >= 500:
        return ServerError
    return BadRequestError if status >= 400 else APIError


def error_kind(status: int, code: str | None = None) -> str:
    """The kind name shared by every client library (``clients/contract/vectors.json``)."""
    return error_class(status, code).kind


def error_from_response(response: httpx.Response) -> APIError:
    """The error for an answer that is not a success: 4xx, 5xx, or a redirect (never
    followed, since it would drop the token or turn a POST into a GET)."""
    problem = _problem_of(response)
    if response.is_redirect:
        where = response.headers.get("location", "elsewhere")
        problem.setdefault("detail", f"The service redirected to {where}; use that as base_url.")
    cls = error_class(response.status_code, _text(problem.get("code")))
    return cls(
        status=response.status_code,
        problem=problem,
        request_id=response.headers.get("x-request-id"),
        headers={k.lower(): v for k, v in response.headers.items()},
        response=response,
    )


def _problem_of(response: httpx.Response) -> dict[str, Any]:
    """The problem body; a non-JSON answer (a proxy's HTML page) becomes a short detail."""
    try:
        body = response.json()
    except ValueError:
        text = response.text.strip()
        return {"detail": text[:500]} if text else {}
    return body if isinstance(body, dict) else {}


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None
