"""What each operation sends and how its answer is read, shared by both clients.

Each builder returns a ``Call``: a description of one HTTP exchange. ``Client``
and ``AsyncClient`` differ only in how they perform it.
"""

from __future__ import annotations

import gzip
import itertools
import json
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import quote

import httpx

from governance_client.types import (
    Asset,
    BulkResult,
    Column,
    Edge,
    EdgeInput,
    Event,
    LineageGraph,
    ManifestSummary,
    Page,
    PropertyValue,
    ServiceInfo,
    Token,
    TokenCreated,
)

T = TypeVar("T")
JSON = "application/json"
MERGE_PATCH_JSON = "application/merge-patch+json"
MAX_BULK_EDGES = 10_000
"""The most edges the service takes in one ``POST /lineage/bulk`` (CONTRACT §1, Limits)."""
MANIFEST_TIMEOUT_S = 600.0
"""How long ``lineage.upload_manifest`` waits: a large dbt project takes a while to ingest."""
GZIP_MAGIC = b"\x1f\x8b"

QueryValue = str | int | bool | Sequence[str] | None
EdgeLike = EdgeInput | Mapping[str, Any] | tuple[str, str] | tuple[str, str, str | None]


@dataclass(frozen=True)
class Call(Generic[T]):
    method: str
    path: str
    parse: Callable[[httpx.Response], T]
    params: tuple[tuple[str, str], ...] = ()
    body: bytes | None = None
    content_type: str = JSON
    headers: tuple[tuple[str, str], ...] = ()
    idempotency_key: str | None = None
    # A POST the client may retry: it gets an Idempotency-Key made for it.
    auto_idempotency_key: bool = False
    # A POST that only reads (a query): retried like a GET, with no key, so that the
    # service does not store its answer for replay.
    safe: bool = False
    authenticated: bool = True
    # Seconds for this request instead of the client's timeout (None: the client's).
    timeout: float | None = None


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


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """Consecutive lists of at most ``size`` items, read lazily."""
    if size < 1:
        raise ValueError("size must be at least 1")
    iterator = iter(items)
    while chunk := list(itertools.islice(iterator, size)):
        yield chunk


def edge_payload(edge: EdgeLike) -> dict[str, Any]:
    """The JSON object for one edge, from a mapping or a ``(source, target[, transformation])``."""
    if isinstance(edge, tuple):
        source, target, *rest = edge
        payload: dict[str, Any] = {"source": source, "target": target}
        if rest and rest[0] is not None:
            payload["transformation"] = rest[0]
        return payload
    return {k: v for k, v in edge.items() if not (k == "transformation" and v is None)}


def empty_bulk_result() -> BulkResult:
    return {"received": 0, "created": 0, "existing": 0, "assets_created": 0}


def add_bulk_results(total: BulkResult, part: BulkResult) -> BulkResult:
    return {
        "received": total["received"] + part["received"],
        "created": total["created"] + part["created"],
        "existing": total["existing"] + part["existing"],
        "assets_created": total["assets_created"] + part["assets_created"],
    }


def check_chunk_size(chunk_size: int) -> int:
    if not 1 <= chunk_size <= MAX_BULK_EDGES:
        raise ValueError(f"chunk_size must be between 1 and {MAX_BULK_EDGES}")
    return chunk_size


def if_match_header(value: int | str | None) -> tuple[tuple[str, str], ...]:
    """``If-Match`` from an asset's ``version`` (``3`` -> ``"3"``), or an entity tag as is."""
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


def dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def json_body(response: httpx.Response) -> Any:
    return response.json()


def no_body(response: httpx.Response) -> None:
    return None


def as_list(values: str | Sequence[str] | None) -> Sequence[str] | None:
    """A lone string stands for a list of one (``tags="pii"``), not a list of letters."""
    return [values] if isinstance(values, str) else values


# -- service ----------------------------------------------------------------


def service_info() -> Call[ServiceInfo]:
    return Call("GET", "", json_body, authenticated=False)


def openapi() -> Call[dict[str, Any]]:
    return Call("GET", "/openapi.json", json_body, authenticated=False)


# -- assets -----------------------------------------------------------------


def asset_fields(
    *,
    name: str,
    type: str,
    platform: str | None,
    description: str | None,
    owners: Sequence[str] | None,
    tags: Sequence[str] | None,
    columns: Sequence[Column | Mapping[str, Any]] | None,
    properties: Mapping[str, PropertyValue] | None,
) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "name": name,
        "type": type,
        "platform": platform,
        "description": description,
        "owners": None if owners is None else list(owners),
        "tags": None if tags is None else list(as_list(tags) or []),
        "columns": None if columns is None else [dict(c) for c in columns],
        "properties": None if properties is None else dict(properties),
    }
    return {k: v for k, v in fields.items() if v is not None}


def list_assets(
    *,
    type: str | None,
    platform: str | None,
    tags: str | Sequence[str] | None,
    owner: str | None,
    q: str | None,
    placeholder: bool | None,
    limit: int | None,
    cursor: str | None,
) -> Call[Page[Asset]]:
    params = query(
        type=type,
        platform=platform,
        tag=as_list(tags),
        owner=owner,
        q=q,
        placeholder=placeholder,
        limit=limit,
        cursor=cursor,
    )
    return Call("GET", "/assets", json_body, params=params)


def create_asset(asset_id: str, fields: dict[str, Any], idempotency_key: str | None) -> Call[Asset]:
    return Call(
        "POST",
        "/assets",
        json_body,
        body=dump({"id": asset_id, **fields}),
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
    )


def get_asset(asset_id: str) -> Call[Asset]:
    return Call("GET", f"/assets/{encode_segment(asset_id)}", json_body)


def put_asset(asset_id: str, fields: dict[str, Any], if_match: int | str | None) -> Call[Asset]:
    return Call(
        "PUT",
        f"/assets/{encode_segment(asset_id)}",
        json_body,
        body=dump(fields),
        headers=if_match_header(if_match),
    )


def patch_asset(
    asset_id: str, changes: Mapping[str, Any], if_match: int | str | None
) -> Call[Asset]:
    return Call(
        "PATCH",
        f"/assets/{encode_segment(asset_id)}",
        json_body,
        body=dump(dict(changes)),
        content_type=MERGE_PATCH_JSON,
        headers=if_match_header(if_match),
    )


def delete_asset(asset_id: str, if_match: int | str | None) -> Call[None]:
    return Call(
        "DELETE",
        f"/assets/{encode_segment(asset_id)}",
        no_body,
        headers=if_match_header(if_match),
    )


# -- lineage ----------------------------------------------------------------


def add_edge(
    source: str,
    target: str,
    transformation: str | None,
    strict: bool,
    idempotency_key: str | None,
) -> Call[Edge]:
    return Call(
        "POST",
        "/lineage",
        json_body,
        params=query(strict=True if strict else None),
        body=dump(edge_payload((source, target, transformation))),
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
    )


def bulk(edges: Iterable[EdgeLike], strict: bool, idempotency_key: str | None) -> Call[BulkResult]:
    return Call(
        "POST",
        "/lineage/bulk",
        json_body,
        params=query(strict=True if strict else None),
        body=dump([edge_payload(e) for e in edges]),
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
    )


def list_edges(
    *,
    source: str | None,
    target: str | None,
    origin: str | None,
    limit: int | None,
    cursor: str | None,
) -> Call[Page[Edge]]:
    params = query(source=source, target=target, origin=origin, limit=limit, cursor=cursor)
    return Call("GET", "/lineage/edges", json_body, params=params)


def delete_edge(source: str, target: str) -> Call[None]:
    return Call("DELETE", "/lineage/edges", no_body, params=query(source=source, target=target))


def traverse(
    asset_id: str,
    *,
    direction: str | None,
    depth: int | None,
    limit: int | None,
    path: str = "",
) -> Call[LineageGraph]:
    return Call(
        "GET",
        f"/lineage/{encode_segment(asset_id)}{path}",
        json_body,
        params=query(depth=depth, direction=direction, limit=limit),
    )


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


def manifest_body(manifest: str | os.PathLike[str] | bytes) -> bytes:
    """The gzipped bytes of a dbt ``manifest.json``: read from a path, or given as
    bytes (sent as they are if already gzipped)."""
    if isinstance(manifest, Mapping):
        raise TypeError("manifest must be a path (str or Path) or bytes")
    return gzipped_artifact(manifest, "manifest")


def upload_manifest(
    manifest: str | os.PathLike[str] | bytes,
    *,
    project: str | None,
    prune: bool,
    idempotency_key: str | None,
) -> Call[ManifestSummary]:
    # Ingesting a manifest twice gives the same graph, so it may be retried.
    return Call(
        "POST",
        "/lineage/manifest",
        json_body,
        params=query(project=project, prune=prune),
        body=manifest_body(manifest),
        headers=(("Content-Encoding", "gzip"),),
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
        timeout=MANIFEST_TIMEOUT_S,
    )


# -- events -----------------------------------------------------------------


def list_events(
    *,
    after: int | None,
    types: str | Sequence[str] | None,
    limit: int | None,
    cursor: str | None,
) -> Call[Page[Event]]:
    patterns = as_list(types)
    params = query(
        after=after,
        types=",".join(patterns) if patterns else None,
        limit=limit,
        cursor=cursor,
    )
    return Call("GET", "/events", json_body, params=params)


# -- tokens -----------------------------------------------------------------


def list_tokens(*, limit: int | None, cursor: str | None) -> Call[Page[Token]]:
    return Call("GET", "/tokens", json_body, params=query(limit=limit, cursor=cursor))


def create_token(
    name: str, scopes: Sequence[str], expires_in_days: int | None
) -> Call[TokenCreated]:
    body: dict[str, Any] = {"name": name, "scopes": as_list(scopes)}
    if expires_in_days is not None:
        body["expires_in_days"] = expires_in_days
    # No automatic Idempotency-Key, so no retry: the service would keep the answer,
    # secret included, for replay.
    return Call("POST", "/tokens", json_body, body=dump(body))


def get_token(token_id: str) -> Call[Token]:
    return Call("GET", f"/tokens/{encode_segment(token_id)}", json_body)


def revoke_token(token_id: str) -> Call[None]:
    return Call("DELETE", f"/tokens/{encode_segment(token_id)}", no_body)
