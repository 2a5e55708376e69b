"""One HTTP exchange described as data, and the pure helpers that build them.

Each operation's builder (``_calls.py``, ``_governance_calls.py``,
``_admin_calls.py``) returns a ``Call``; ``Client`` and ``AsyncClient`` differ
only in how they perform it.
"""

from __future__ import annotations

import dataclasses
import gzip
import itertools
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypedDict, TypeVar
from urllib.parse import quote

import httpx

T = TypeVar("T")
JSON = "application/json"
MERGE_PATCH_JSON = "application/merge-patch+json"
GZIP_MAGIC = b"\x1f\x8b"
REQUEST_ID_HEADER = "X-Request-ID"

QueryValue = str | int | bool | Sequence[str] | None
Headers = tuple[tuple[str, str], ...]


class RequestOptions(TypedDict, total=False):
    """Per-call settings, accepted by every operation as ``options=``.

    ``timeout``: seconds for each attempt of this call (instead of the client's);
    ``max_retries``: instead of the client's; ``idempotency_key``: the key of a
    ``POST`` (the client makes one for the ``POST``s it retries); ``headers``:
    extra headers; ``request_id``: sent as ``X-Request-ID``, which the service
    logs and echoes.
    """

    timeout: float | None
    max_retries: int
    idempotency_key: str
    headers: Mapping[str, str]
    request_id: str


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    params: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None
    content_type: str = JSON
    headers: Headers = ()
    idempotency_key: str | None = None
    # A POST the client may retry: it gets an Idempotency-Key made for it.
    auto_idempotency_key: bool = False
    # A POST that is idempotent by nature: it only reads (a query), or what it writes
    # is merged (bulk edges, OpenLineage events), so a repeat changes nothing. Retried
    # like a GET, with no key of the client's: the service would store a keyed answer
    # for replay, an extra round trip to its database on every such request.
    idempotent: bool = False
    authenticated: bool = True
    # The path is under the service's root (``/healthz``), not under ``/api/v1``.
    root: bool = False
    # Seconds this call needs at least, when longer than the client's timeout (uploads).
    min_timeout: float | None = None
    # Set by ``RequestOptions``: exactly this timeout per attempt (None: no limit).
    timeout: float | None = None
    timeout_given: bool = False
    max_retries: int | None = None

    def with_options(self, options: RequestOptions | None) -> Call[T]:
        """This call with the caller's per-call settings applied."""
        if not options:
            return self
        headers = list(self.headers)
        if "request_id" in options:
            headers.append((REQUEST_ID_HEADER, options["request_id"]))
        headers.extend(options.get("headers", {}).items())
        changes: dict[str, Any] = {"headers": tuple(headers)}
        if "timeout" in options:
            changes.update(timeout=options["timeout"], timeout_given=True)
        if "max_retries" in options:
            if options["max_retries"] < 0:
                raise ValueError("max_retries must be 0 or more")
            changes["max_retries"] = options["max_retries"]
        if "idempotency_key" in options:
            changes["idempotency_key"] = options["idempotency_key"]
        return dataclasses.replace(self, **changes)


# -- pure helpers -----------------------------------------------------------


def encode_segment(value: str) -> str:
    """Percent-encode ``value`` as one path segment: everything but ``A-Z a-z 0-9 - . _ ~``.

    ``.`` and ``..`` are dot-segments that URL normalisation would resolve away,
    so they are sent as ``%2E`` and ``%2E%2E``."""
    if not value:
        raise ValueError("an id must not be empty")
    if value in (".", ".."):
        return "%2E" * len(value)
    return quote(value, safe="")


def chunk_options(options: RequestOptions | None, index: int) -> RequestOptions | None:
    """The options of request ``index`` of a chunked upload: each chunk has its own
    body, so a given idempotency key gets a ``-<index>`` suffix after the first."""
    if not options or index == 0 or "idempotency_key" not in options:
        return options
    chunk = options.copy()
    chunk["idempotency_key"] = f"{options['idempotency_key']}-{index}"
    return chunk


def item_path(base: str, item_id: str, tail: str = "") -> str:
    """``/base/<id>/tail`` with the id as one encoded segment."""
    return f"{base}/{encode_segment(item_id)}{tail}"


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of at most ``size`` items, read lazily."""
    if size < 1:
        raise ValueError("size must be at least 1")
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def if_match_header(value: int | str | None) -> Headers:
    """``If-Match`` from a ``version`` (``3`` -> ``"3"``), or an entity tag as is."""
    if value is None:
        return ()
    if isinstance(value, bool):
        raise TypeError("if_match must be a version number or an entity tag")
    text = str(value)
    if isinstance(value, str) and (text == "*" or text.startswith(('"', "W/"))):
        return (("If-Match", text),)
    return (("If-Match", f'"{text}"'),)


def query(**values: QueryValue) -> tuple[tuple[str, str], ...]:
    """Query parameters, leaving out None; a sequence repeats its name."""
    pairs: list[tuple[str, str]] = []
    for name, value in values.items():
        if value is None:
            continue
        if isinstance(value, bool):
            pairs.append((name, "true" if value else "false"))
        elif isinstance(value, int | str):
            pairs.append((name, str(value)))
        else:
            pairs.extend((name, str(v)) for v in value)
    return tuple(pairs)


def paging(limit: int | None, cursor: str | None) -> tuple[tuple[str, str], ...]:
    return query(limit=limit, cursor=cursor)


def fields(**values: Any) -> dict[str, Any]:
    """A body of the fields given, None left out (the service's default applies)."""
    return {k: v for k, v in values.items() if v is not None}


def dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def json_body(response: httpx.Response) -> Any:
    return response.json()


def text_body(response: httpx.Response) -> str:
    return response.text


def no_body(response: httpx.Response) -> None:
    return None


def as_list(values: str | Sequence[str] | None) -> Sequence[str] | None:
    """A lone string stands for a list of one (``tags="pii"``), not a list of letters."""
    return [values] if isinstance(values, str) else values


def gzipped_artifact(
    artifact: str | os.PathLike[str] | bytes | Mapping[str, Any], what: str
) -> bytes:
    """The gzipped bytes of a dbt artifact (``manifest.json``, ``run_results.json``):
    read from a path, given as bytes (sent as they are if already gzipped), or given
    as the parsed document."""
    if isinstance(artifact, bytes | bytearray | memoryview):
        data = bytes(artifact)
    elif isinstance(artifact, str | os.PathLike):
        with open(artifact, "rb") as file:
            data = file.read()
    elif isinstance(artifact, Mapping):
        data = dump(dict(artifact))
    else:
        raise TypeError(f"{what} must be a path (str or Path), bytes or a dict")
    return data if data.startswith(GZIP_MAGIC) else gzip.compress(data, mtime=0)


def create(path: str, body: Any, idempotency_key: str | None) -> Call[Any]:
    """A ``POST`` that creates and may be retried: it carries an Idempotency-Key."""
    return Call(
        "POST",
        path,
        json_body,
        body=dump(body),
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
    )


def merge_patch(path: str, changes: Mapping[str, Any], if_match: int | str | None) -> Call[Any]:
    """A JSON Merge Patch: ``None`` removes a field. Not retried (no key)."""
    return Call(
        "PATCH",
        path,
        json_body,
        body=dump(dict(changes)),
        content_type=MERGE_PATCH_JSON,
        headers=if_match_header(if_match),
    )


def replace(path: str, body: Any, if_match: int | str | None) -> Call[Any]:
    return Call("PUT", path, json_body, body=dump(body), headers=if_match_header(if_match))


def delete(path: str, if_match: int | str | None = None, **params: QueryValue) -> Call[None]:
    return Call("DELETE", path, no_body, params=query(**params), headers=if_match_header(if_match))


def get(path: str, **params: QueryValue) -> Call[Any]:
    return Call("GET", path, json_body, params=query(**params))
