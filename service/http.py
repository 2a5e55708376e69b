"""Request parsing and response rendering shared by every handler, and the one way a
middleware adds headers to an answer.

Bodies are parsed with orjson here and validated by `service.models.validation`
(pydantic in strict mode), so a wrong type is a 422 naming the field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import quote, unquote

import orjson
from pydantic import BaseModel
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Message, Scope, Send

from service.domain.decompress import Corrupt, TooLarge, gunzip
from service.errors import (
    PROBLEM_JSON,
    BadRequest,
    FieldError,
    PayloadTooLarge,
    ServiceError,
    Unprocessable,
    UnsupportedMediaType,
    render,
    validation_error,
)
from service.ids import normalise
from service.settings import Limits

# Only where no BodyLimitMiddleware ran (an app built without it): the configured default.
DEFAULT_BODY_LIMIT: int = Limits.model_fields["max_body_bytes"].default
JSON = "application/json"
MERGE_PATCH_JSON = "application/merge-patch+json"
# A client that closed its connection before its body had arrived (the status proxies use).
CLIENT_CLOSED_REQUEST = 499
MAX_JSON_DEPTH = 200
EXTRA_FORBIDDEN = "Extra inputs are not permitted"  # pydantic's words for an unknown field


def dump(value: Any) -> bytes:
    if isinstance(value, BaseModel):
        # pydantic-core writes the JSON itself, in Rust: the same bytes as model_dump
        # followed by orjson, without building the intermediate dicts in Python.
        return value.__pydantic_serializer__.to_json(value)
    return orjson.dumps(value)


def json_response(
    value: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    return Response(dump(value), status_code=status, headers=dict(headers or {}), media_type=JSON)


async def read_merge_patch(
    request: Request, model: type[BaseModel], also: Iterable[str] = ()
) -> dict[str, Any]:
    """A JSON Merge Patch body (RFC 7396) of `model`, which must be an object naming
    only `model`'s fields (or `also`). A null removes a key, so a null for a key that
    is no field would otherwise pass validation and reach the store: 422 as for any
    unknown field, whatever its value."""
    document = await read_json(request, accept=(MERGE_PATCH_JSON, JSON))
    if not isinstance(document, dict):
        raise validation_error(("body",), "a merge patch must be a JSON object")
    known = {field.alias or name for name, field in model.model_fields.items()}.union(also)
    unknown = [key for key in document if key not in known]
    if unknown:
        errors = [FieldError(("body", key), EXTRA_FORBIDDEN, "extra_forbidden") for key in unknown]
        named = ", ".join(map(repr, unknown[:5])) + (", ..." if len(unknown) > 5 else "")
        raise Unprocessable(f"Unknown field(s): {named}.", errors=errors)
    return document


def created_with_secret(value: BaseModel, location: str) -> Response:
    """201 for a resource whose answer holds a secret shown once: never cached."""
    return json_response(
        value, status=201, headers={"Location": location, "Cache-Control": "no-store"}
    )


def request_id_of(scope: Scope) -> str:
    return str(scope.get("state", {}).get("request_id", ""))


def problem_response(exc: ServiceError, scope: Scope) -> Response:
    problem = render(exc, instance=scope.get("path", ""), request_id=request_id_of(scope))
    # nosniff: a browser must never take a problem's text (which may echo input) as
    # anything but the JSON it says it is.
    return Response(
        orjson.dumps(problem.body),
        status_code=problem.status,
        headers={**problem.headers, "X-Content-Type-Options": "nosniff"},
        media_type=PROBLEM_JSON,
    )


def media_type(request: Request) -> str:
    return request.headers.get("content-type", "").split(";", 1)[0].strip().lower()


def content_codings(header: str | None) -> list[str]:
    """The codings of a Content-Encoding header, lower-cased, `identity` left out."""
    found = (c.strip().lower() for c in (header or "").split(","))
    return [c for c in found if c and c != "identity"]


def body_limit(request: Request) -> int:
    """The byte ceiling `BodyLimitMiddleware` applied to this request's body."""
    return int(request.scope.get("state", {}).get("body_limit", DEFAULT_BODY_LIMIT))


async def read_json(request: Request, accept: Sequence[str] = (JSON,)) -> Any:
    """The parsed body: 415 for another media type, 400 for bytes that are not JSON.

    A gzip body is inflated up to the same ceiling as a plain one (413 past it).
    """
    kind = media_type(request)
    if kind not in accept:
        raise UnsupportedMediaType(
            f"Content-Type must be {' or '.join(accept)}, got {kind or 'none'}."
        )
    raw = await request.body()
    if content_codings(request.headers.get("content-encoding")) == ["gzip"]:
        raw = _inflate(raw, body_limit(request))
    return parse_json_bytes(raw)


def _inflate(raw: bytes, limit: int) -> bytes:
    try:
        return gunzip(raw, limit)
    except TooLarge as exc:
        raise PayloadTooLarge(f"The request body {exc}.") from exc
    except Corrupt as exc:
        raise BadRequest(f"The gzip body cannot be read: {exc}.", code="malformed_json") from exc


def parse_json_bytes(raw: bytes) -> Any:
    if not raw.strip():
        raise BadRequest(
            "The request body is empty; a JSON document is required.", code="malformed_json"
        )
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise BadRequest(
            f"The body is not valid JSON: {_json_reason(exc)}", code="malformed_json"
        ) from exc
    if _too_deep(value, MAX_JSON_DEPTH):
        raise BadRequest(
            f"JSON nesting deeper than {MAX_JSON_DEPTH} levels.", code="malformed_json"
        )
    return value


def _json_reason(exc: orjson.JSONDecodeError) -> str:
    text = str(exc)
    if "recursion" in text.lower():
        return "nesting too deep"
    return text.split(":", 1)[0] if "utf-8" not in text.lower() else "invalid UTF-8"


def _too_deep(value: Any, limit: int) -> bool:
    """Level by level, so a deep document cannot exhaust the Python stack, and with no
    generator per container (a 10,000-edge body has 10,000 of them). orjson makes only
    dicts and lists as containers, so exact type checks suffice."""
    level = [value] if type(value) is dict or type(value) is list else []
    depth = 0
    while level:
        depth += 1
        if depth > limit:
            return True
        below = []
        for item in level:
            for child in item.values() if type(item) is dict else item:
                if type(child) is dict or type(child) is list:
                    below.append(child)
        level = below
    return False


def path_param(request: Request, name: str) -> str:
    """Path parameters arrive percent-encoded (see `RawPathMiddleware`); decode once, here,
    to the NFC spelling every stored id has.

    `%FF` or a lone surrogate byte sequence is the client's mistake: 400, never 500.
    """
    try:
        return normalise(unquote(str(request.path_params[name]), errors="strict"))
    except UnicodeDecodeError as exc:
        raise BadRequest(
            f"The path segment {name} is not valid percent-encoded UTF-8.",
            code="invalid_path",
            errors=[FieldError(("path", name), "not valid percent-encoded UTF-8", "invalid_path")],
        ) from exc


def quote_segment(value: str) -> str:
    return quote(value, safe="")


Header = tuple[bytes, bytes]


def appending(send: Send, headers: Callable[[Message], Iterable[Header]]) -> Send:
    """`send`, with `headers(start)` appended to the answer's headers; `headers` is called
    once, when the answer starts, so it can say what only then is known (a duration)."""

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *headers(message)]
        await send(message)

    return send_with_headers
