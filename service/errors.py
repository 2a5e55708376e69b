"""Every failure a client can see, and the one table that renders it.

    ServiceError                       status  code
    ├── BadRequest                       400   malformed_json, malformed_multipart, ...
    ├── Unauthenticated                  401   unauthenticated, invalid_token
    ├── InsufficientScope                403   insufficient_scope
    ├── DomainForbidden                  403   domain_forbidden (+ assets, assets_count)
    ├── Forbidden                        403   csrf_refused (a dashboard script's POST)
    ├── NotFound                         404   not_found
    ├── MethodNotAllowed                 405   method_not_allowed
    ├── RequestTimeout                   408   body_timeout
    ├── Conflict                         409   already_exists, idempotency_key_in_use
    ├── PreconditionFailed               412   precondition_failed
    ├── PayloadTooLarge                  413   payload_too_large
    ├── UnsupportedMediaType             415   unsupported_media_type
    ├── Unprocessable                    422   validation_error, weak_password, ...
    ├── RateLimited                      429   rate_limited          (+ Retry-After)
    └── Unavailable                      503   neo4j_unavailable, server_busy (+ Retry-After)

Driver exceptions are translated to these in `service.driver_errors`, so handlers
never catch Neo4j errors themselves. A 5xx body carries a fixed sentence: never
a stack trace, a Cypher text or a credential.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

PROBLEM_JSON = "application/problem+json"


@dataclass(frozen=True)
class FieldError:
    loc: tuple[str | int, ...]
    msg: str
    type: str

    def as_dict(self) -> dict[str, Any]:
        return {"loc": list(self.loc), "msg": self.msg, "type": self.type}


class ServiceError(Exception):
    status: int = 500
    code: str = "internal_error"
    title: str = "Internal server error"

    def __init__(
        self,
        detail: str | None = None,
        *,
        code: str | None = None,
        errors: list[FieldError] | None = None,
        headers: dict[str, str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(detail or self.title)
        self.detail = detail or self.title
        if code is not None:
            self.code = code
        self.errors = errors
        self.headers = headers or {}
        self.extra = extra or {}


class BadRequest(ServiceError):
    status, code, title = 400, "bad_request", "Bad request"


class Unauthenticated(ServiceError):
    status, code, title = 401, "unauthenticated", "Authentication required"


BEARER_REALM = 'Bearer realm="governance"'


def invalid_token() -> Unauthenticated:
    """An unknown, revoked or expired bearer token (RFC 6750 `invalid_token`)."""
    return Unauthenticated(
        "The bearer token is not valid.",
        code="invalid_token",
        headers={"WWW-Authenticate": BEARER_REALM + ', error="invalid_token"'},
    )


class InsufficientScope(ServiceError):
    status, code, title = 403, "insufficient_scope", "Insufficient scope"


class DomainForbidden(ServiceError):
    """Assets in domains (or outside every domain) where the caller may not do this."""

    status, code, title = 403, "domain_forbidden", "Outside the caller's domains"


class Forbidden(ServiceError):
    status, code, title = 403, "forbidden", "Forbidden"


class NotFound(ServiceError):
    status, code, title = 404, "not_found", "Not found"


class MethodNotAllowed(ServiceError):
    status, code, title = 405, "method_not_allowed", "Method not allowed"


class Conflict(ServiceError):
    status, code, title = 409, "conflict", "Conflict"


class RequestTimeout(ServiceError):
    status, code, title = 408, "request_timeout", "Request timeout"


class PreconditionFailed(ServiceError):
    status, code, title = 412, "precondition_failed", "Precondition failed"


class PayloadTooLarge(ServiceError):
    status, code, title = 413, "payload_too_large", "Payload too large"


class UnsupportedMediaType(ServiceError):
    status, code, title = 415, "unsupported_media_type", "Unsupported media type"


class Unprocessable(ServiceError):
    status, code, title = 422, "validation_error", "Validation failed"


class RateLimited(ServiceError):
    status, code, title = 429, "rate_limited", "Too many requests"


class Unavailable(ServiceError):
    status, code, title = 503, "service_unavailable", "Service unavailable"


def validation_error(
    loc: tuple[str | int, ...], msg: str, type_: str = "value_error"
) -> Unprocessable:
    """The common case: one field is wrong."""
    return Unprocessable(msg, errors=[FieldError(loc, msg, type_)])


def weak_password(problem: str, loc: tuple[str | int, ...] = ("body", "password")) -> Unprocessable:
    """A password that breaks one of the rules (`problem` says which)."""
    return Unprocessable(
        f"The password {problem}.",
        code="weak_password",
        errors=[FieldError(loc, f"password {problem}", "weak_password")],
    )


def malformed_form(problem: str, multipart: bool) -> BadRequest:
    """A form body that cannot be parsed (no boundary, too many parts or fields, ...)."""
    kind = "multipart" if multipart else "form"
    error = BadRequest(f"The {kind} body cannot be read: {problem}", code=f"malformed_{kind}")
    error.title = f"Malformed {kind} body"
    return error


@dataclass(frozen=True)
class Problem:
    """A rendered RFC 9457 problem, ready to serialise."""

    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


MAX_FIELD_ERRORS = 100  # a problem lists at most this many; `errors_omitted` counts the rest


def render(exc: ServiceError, *, instance: str, request_id: str) -> Problem:
    body: dict[str, Any] = {
        "type": f"/problems/{exc.code}",
        "title": exc.title,
        "status": exc.status,
        "detail": exc.detail if exc.status < 500 else _fixed_detail(exc),
        "instance": instance,
        "code": exc.code,
        "request_id": request_id,
    }
    if exc.errors:
        body["errors"] = [e.as_dict() for e in exc.errors[:MAX_FIELD_ERRORS]]
        if len(exc.errors) > MAX_FIELD_ERRORS:
            body["errors_omitted"] = len(exc.errors) - MAX_FIELD_ERRORS
    body.update(exc.extra)
    return Problem(exc.status, body, dict(exc.headers))


_FIXED_5XX = {
    500: "The server failed to handle the request; the request id identifies it in the logs.",
    503: "The graph database is unreachable or busy; retry after the indicated delay.",
}

# A 5xx whose cause is not the graph says so in its own fixed sentence.
_FIXED_BY_CODE = {
    "server_busy": "The server is busy with other uploads; retry after the indicated delay.",
    "secret_key_missing": "Webhook secrets are encrypted at rest and no "
    "GOVERNANCE_SECRET_KEY is configured.",
    "secret_key_mismatch": "The webhook's secret cannot be decrypted with any configured "
    "GOVERNANCE_SECRET_KEY; a key that sealed it is missing from the list.",
}


def _fixed_detail(exc: ServiceError) -> str:
    return _FIXED_BY_CODE.get(exc.code) or _FIXED_5XX.get(exc.status, exc.title)
