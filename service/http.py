"""Request parsing and response rendering shared by every handler.

Bodies are parsed with orjson and validated by pydantic in strict mode, so a
wrong type is a 422 naming the field rather than a silent coercion.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar
from urllib.parse import quote, unquote

import orjson
from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import Scope

from service.domain.decompress import Corrupt, TooLarge, gunzip
from service.domain.preconditions import etag
from service.errors import (
    MAX_FIELD_ERRORS,
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

M = TypeVar("M", bound=BaseModel)
DEFAULT_BODY_LIMIT = 10 * 1024 * 1024
JSON = "application/json"
MERGE_PATCH_JSON = "application/merge-patch+json"
MAX_JSON_DEPTH = 200


def dump(value: Any) -> bytes:
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    return orjson.dumps(value)


def json_response(
    value: Any, status: int = 200, headers: Mapping[str, str] | None = None
) -> Response:
    return Response(dump(value), status_code=status, headers=dict(headers or {}), media_type=JSON)


def versioned(
    value: BaseModel, version: int, status: int = 200, location: str | None = None
) -> Response:
    """A resource that carries `version`: answered with its ETag (and Location when new)."""
    headers = {"ETag": etag(version)}
    if location is not None:
        headers["Location"] = location
    return json_response(value, status=status, headers=headers)


async def read_merge_patch(request: Request) -> dict[str, Any]:
    """A JSON Merge Patch body (RFC 7396), which must be an object."""
    document = await read_json(request, accept=(MERGE_PATCH_JSON, JSON))
    if not isinstance(document, dict):
        raise validation_error(("body",), "a merge patch must be a JSON object")
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
    return Response(
        orjson.dumps(problem.body),
        status_code=problem.status,
        headers=problem.headers,
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
    """Iterative, so a deep document cannot exhaust the Python stack."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False


def validate(model: type[M], data: Any, loc_prefix: tuple[str | int, ...] = ("body",)) -> M:
    if isinstance(data, dict):
        _refuse_unknown_key_flood(model, data, loc_prefix)
    try:
        return model.model_validate(data, strict=True)
    except ValidationError as exc:
        raise unprocessable_from(exc, loc_prefix) from exc


def _refuse_unknown_key_flood(
    model: type[M], data: dict[str, Any], loc: tuple[str | int, ...]
) -> None:
    """Stop early on an object with more unknown keys than a problem would list.

    Pydantic would build one error per key (a million keys: ten seconds of the event
    loop); a linear pass over the keys names the first ones instead.
    """
    if len(data) <= MAX_FIELD_ERRORS or model.model_config.get("extra") != "forbid":
        return
    known = {*model.model_fields, *(f.alias for f in model.model_fields.values() if f.alias)}
    unknown = [key for key in data if key not in known]
    if len(unknown) > MAX_FIELD_ERRORS:
        raise Unprocessable(
            f"Invalid request: {len(unknown)} unknown fields.",
            errors=[
                FieldError((*loc, key), "Extra inputs are not permitted", "extra_forbidden")
                for key in unknown[:MAX_FIELD_ERRORS]
            ],
            extra={"errors_omitted": len(unknown) - MAX_FIELD_ERRORS},
        )


def unprocessable_from(exc: ValidationError, loc_prefix: tuple[str | int, ...]) -> Unprocessable:
    errors = [
        FieldError((*loc_prefix, *err["loc"]), err["msg"], err["type"])
        for err in exc.errors(include_url=False)
    ]
    fields = ", ".join(".".join(str(p) for p in e.loc) for e in errors[:5])
    return Unprocessable(f"Invalid request: {fields}.", errors=errors)


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


def encode_cursor(position: Mapping[str, Any]) -> str:
    return base64.urlsafe_b64encode(orjson.dumps(position)).decode().rstrip("=")


def decode_cursor(cursor: str, keys: Sequence[str]) -> dict[str, Any]:
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        position = orjson.loads(base64.urlsafe_b64decode(padded.encode("ascii")))
    except (ValueError, binascii.Error, orjson.JSONDecodeError, UnicodeEncodeError) as exc:
        raise BadRequest("The cursor cannot be decoded.", code="invalid_cursor") from exc
    if not isinstance(position, dict) or set(position) != set(keys):
        raise BadRequest("The cursor cannot be decoded.", code="invalid_cursor")
    return position
