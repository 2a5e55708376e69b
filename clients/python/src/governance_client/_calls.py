"""What the service, catalogue, lineage and event operations send and how their
answers are read, shared by both clients (policies, quality and queries are in
``_governance_calls.py``; tokens, users and webhooks in ``_admin_calls.py``)."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

from governance_client._call import (
    Call,
    as_list,
    create,
    delete,
    dump,
    encode_segment,
    fields,
    get,
    gzipped_artifact,
    item_path,
    json_body,
    no_body,
    query,
    replace,
    text_body,
)
from governance_client.types import (
    Asset,
    AssetColumns,
    AssetVersion,
    BulkResult,
    Column,
    ColumnGraph,
    ColumnMappingInput,
    ColumnTagRule,
    Dataset,
    Edge,
    EdgeInput,
    Event,
    Health,
    ImpactReport,
    LineageDiff,
    LineageGraph,
    ManifestSummary,
    MappingKind,
    Me,
    OpenLineageResult,
    Page,
    PropertyValue,
    ServiceInfo,
    SqlResult,
    SqlStatement,
)

MAX_BULK_EDGES = 10_000
"""The most edges the service takes in one ``POST /lineage/bulk``."""
MAX_OPENLINEAGE_EVENTS = 10_000
"""The most run events the service takes in one ``POST /lineage/openlineage``."""
MAX_SQL_STATEMENTS = 10_000
"""The most statements of a query log the service takes in one ``POST /lineage/sql``."""
UPLOAD_TIMEOUT_S = 600.0
"""How long manifest and dbt result uploads wait: a large project takes a while."""

OPTIONAL_EDGE_FIELDS = ("transformation", "columns")
EMPTY_BULK_RESULT: BulkResult = {"received": 0, "created": 0, "existing": 0, "assets_created": 0}
EMPTY_OPENLINEAGE_RESULT: OpenLineageResult = {
    "received": 0,
    "complete": 0,
    "runs": 0,
    "edges": {"created": 0, "existing": 0},
    "column_mappings": {"created": 0, "existing": 0},
    "assets": {"created": 0, "updated": 0},
    "warnings": [],
}

S = TypeVar("S", bound=Mapping[str, Any])
T = TypeVar("T")
EdgeEnd = str | Dataset
"""An edge's end: an asset id (or a former one), or the dataset the asset holding it holds."""
EdgeLike = (
    EdgeInput | Mapping[str, Any] | tuple[EdgeEnd, EdgeEnd] | tuple[EdgeEnd, EdgeEnd, str | None]
)
SqlStatements = Iterable[str | SqlStatement]
Artifact = str | os.PathLike[str] | bytes
Instant = str | datetime
"""A moment: an RFC 3339 string, sent as it is, or a timezone-aware ``datetime``."""


# -- service ----------------------------------------------------------------


def service_info() -> Call[ServiceInfo]:
    return Call("GET", "", json_body, authenticated=False)


def openapi() -> Call[dict[str, Any]]:
    return Call("GET", "/openapi.json", json_body, authenticated=False)


def health() -> Call[Health]:
    return Call("GET", "/healthz", json_body, authenticated=False, root=True)


def readiness() -> Call[Health]:
    return Call("GET", "/readyz", json_body, authenticated=False, root=True)


def metrics() -> Call[str]:
    accept = (("Accept", "text/plain"),)
    return Call("GET", "/metrics", text_body, headers=accept, authenticated=False, root=True)


def me() -> Call[Me]:
    return get("/me")


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
    dataset: Dataset | None,
) -> dict[str, Any]:
    return fields(
        name=name,
        type=type,
        platform=platform,
        description=description,
        owners=None if owners is None else list(owners),
        tags=None if tags is None else list(as_list(tags) or []),
        columns=None if columns is None else [dict(c) for c in columns],
        properties=None if properties is None else dict(properties),
        dataset=None if dataset is None else dataset_payload(dataset),
    )


def dataset_payload(dataset: Mapping[str, Any]) -> dict[str, Any]:
    """``{"namespace", "name"}`` as JSON, from a ``Dataset`` or any mapping."""
    return dict(dataset)


def list_assets(
    *,
    type: str | None,
    platform: str | None,
    tags: str | Sequence[str] | None,
    owner: str | None,
    q: str | None,
    placeholder: bool | None,
    dataset_namespace: str | None,
    dataset_name: str | None,
    domain: str | None,
    limit: int | None,
    cursor: str | None,
) -> Call[Page[Asset]]:
    return get(
        "/assets",
        type=type,
        platform=platform,
        tag=as_list(tags),
        owner=owner,
        q=q,
        placeholder=placeholder,
        dataset_namespace=dataset_namespace,
        dataset_name=dataset_name,
        domain=domain,
        limit=limit,
        cursor=cursor,
    )


def create_asset(asset_id: str, body: dict[str, Any], idempotency_key: str | None) -> Call[Asset]:
    return create("/assets", {"id": asset_id, **body}, idempotency_key)


def put_asset(asset_id: str, body: dict[str, Any], if_match: int | str | None) -> Call[Asset]:
    return replace(item_path("/assets", asset_id), body, if_match)


def list_history(
    asset_id: str, *, limit: int | None, cursor: str | None
) -> Call[Page[AssetVersion]]:
    return get(item_path("/assets", asset_id, "/history"), limit=limit, cursor=cursor)


def asset_columns(asset_id: str) -> Call[AssetColumns]:
    return get(item_path("/assets", asset_id, "/columns"))


def get_column_tag_rule(tag: str) -> Call[ColumnTagRule]:
    return get(item_path("/column-tags", tag))


def put_column_tag_rule(tag: str, stops: Iterable[MappingKind]) -> Call[ColumnTagRule]:
    return replace(item_path("/column-tags", tag), {"stops": list(stops)}, None)


# -- time -------------------------------------------------------------------


def instant(value: Instant | None, name: str) -> str | None:
    """``value`` as the service reads an instant: a string as it is (the service
    judges it), a ``datetime`` in UTC with millisecond precision and ``Z``. A naive
    ``datetime`` names no instant (its zone is a guess), so it is refused."""
    if value is None or isinstance(value, str):
        return value
    if not isinstance(value, datetime):
        raise TypeError(f"{name} must be an RFC 3339 string or a datetime")
    if value.utcoffset() is None:
        raise ValueError(f"{name} must be timezone-aware (e.g. datetime.now(UTC))")
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# -- lineage ----------------------------------------------------------------


def edge_payload(edge: EdgeLike) -> dict[str, Any]:
    """The JSON object for one edge, from a mapping or a ``(source, target[, transformation])``;
    either end may be a dataset (``{"namespace", "name"}``) instead of an asset id."""
    if isinstance(edge, tuple):
        source, target, *rest = edge
        payload: dict[str, Any] = {"source": end_payload(source), "target": end_payload(target)}
        if rest and rest[0] is not None:
            payload["transformation"] = rest[0]
        return payload
    payload = {k: v for k, v in edge.items() if v is not None or k not in OPTIONAL_EDGE_FIELDS}
    for end in ("source", "target"):
        if end in payload:
            payload[end] = end_payload(payload[end])
    if "columns" in payload:
        payload["columns"] = [fields(**dict(c)) for c in payload["columns"]]
    return payload


def end_payload(end: EdgeEnd | Mapping[str, Any]) -> str | dict[str, Any]:
    return end if isinstance(end, str) else dataset_payload(end)


def add_counts(total: S, part: S) -> S:
    """Two summaries added up: numbers add, lists join, nested objects add likewise."""
    return cast(S, _added(total, part))


def _added(total: Mapping[str, Any], part: Mapping[str, Any]) -> dict[str, Any]:
    summed = dict(total)
    for key, value in part.items():
        mine = summed.get(key)
        if isinstance(value, Mapping) and isinstance(mine, Mapping):
            summed[key] = _added(mine, value)
        elif _addable(mine, value):
            summed[key] = mine + value
        else:
            summed[key] = value
    return summed


def _addable(mine: Any, value: Any) -> bool:
    numbers = all(isinstance(v, int | float) and not isinstance(v, bool) for v in (mine, value))
    return numbers or (isinstance(mine, list) and isinstance(value, list))


def one_replacement(chunks: Iterator[list[T]], size: int) -> list[T]:
    """The only chunk of a replacement: an origin's edge set is replaced by one
    request, so edges beyond one chunk are refused before anything is sent."""
    first = next(chunks, [])
    if next(chunks, None) is not None:
        raise ValueError(f"a replacement is one request: at most {size} edges (chunk_size)")
    return first


def check_chunk_size(chunk_size: int, most: int) -> int:
    if not 1 <= chunk_size <= most:
        raise ValueError(f"chunk_size must be between 1 and {most}")
    return chunk_size


def add_edge(
    source: EdgeEnd,
    target: EdgeEnd,
    transformation: str | None,
    columns: Sequence[ColumnMappingInput | Mapping[str, Any]] | None,
    strict: bool,
    idempotency_key: str | None,
) -> Call[Edge]:
    edge: dict[str, Any] = {"source": source, "target": target}
    edge.update(fields(transformation=transformation, columns=columns))
    return Call(
        "POST",
        "/lineage",
        json_body,
        params=query(strict=True if strict else None),
        body=dump(edge_payload(edge)),
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
    )


def bulk(
    edges: Iterable[EdgeLike],
    strict: bool,
    idempotency_key: str | None,
    origin: str | None = None,
    replace: bool = False,
) -> Call[BulkResult]:
    # The service merges edges, so a repeat writes nothing new: retried without a key.
    # A replacement repeated replaces with the same set, so it may be retried too.
    if replace and origin is None:
        raise ValueError("replace needs an origin: the edge set it replaces is that origin's")
    return Call(
        "POST",
        "/lineage/bulk",
        json_body,
        params=query(
            strict=True if strict else None, origin=origin, replace=True if replace else None
        ),
        body=dump([edge_payload(e) for e in edges]),
        idempotency_key=idempotency_key,
        idempotent=True,
    )


def openlineage(events: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> Call[OpenLineageResult]:
    # Events arriving twice converge to the same graph: retried without a key.
    body = dict(events) if isinstance(events, Mapping) else [dict(e) for e in events]
    return Call("POST", "/lineage/openlineage", json_body, body=dump(body), idempotent=True)


def list_edges(
    *,
    source: str | None,
    target: str | None,
    origin: str | None,
    limit: int | None,
    cursor: str | None,
) -> Call[Page[Edge]]:
    return get(
        "/lineage/edges", source=source, target=target, origin=origin, limit=limit, cursor=cursor
    )


def delete_edge(source: str, target: str) -> Call[None]:
    return delete("/lineage/edges", source=source, target=target)


@dataclass(frozen=True)
class WalkOptions:
    """What a traversal's pages share besides the root: each filter any of its values
    (a ``str`` is one value), all given filters; ``fanout`` caps each node's expansion."""

    types: str | Sequence[str] | None = None
    platforms: str | Sequence[str] | None = None
    tags: str | Sequence[str] | None = None
    owners: str | Sequence[str] | None = None
    fanout: int | None = None


def traverse(
    asset_id: str,
    *,
    direction: str | None,
    depth: int | None,
    limit: int | None,
    as_of: Instant | None = None,
    path: str = "",
    cursor: str | None = None,
    walk: WalkOptions = WalkOptions(),
) -> Call[LineageGraph]:
    return get(
        item_path("/lineage", asset_id, path),
        depth=depth,
        direction=direction,
        limit=limit,
        as_of=instant(as_of, "as_of"),
        cursor=cursor,
        type=walk.types,
        platform=walk.platforms,
        tag=walk.tags,
        owner=walk.owners,
        fanout=walk.fanout,
    )


def traverse_column(
    asset_id: str,
    column: str,
    direction: str,
    *,
    depth: int | None,
    limit: int | None,
    as_of: Instant | None = None,
) -> Call[ColumnGraph]:
    path = item_path("/lineage", asset_id, f"/columns/{encode_segment(column)}/{direction}")
    return get(path, depth=depth, limit=limit, as_of=instant(as_of, "as_of"))


def diff(
    asset_id: str,
    from_: Instant,
    to: Instant | None,
    *,
    direction: str | None,
    depth: int | None,
    limit: int | None,
) -> Call[LineageDiff]:
    start = instant(from_, "from_")
    end = instant(to, "to")
    params = query(direction=direction, depth=depth, limit=limit, **{"from": start, "to": end})
    return Call("GET", item_path("/lineage", asset_id, "/diff"), json_body, params=params)


def export_lineage(
    asset_id: str,
    format: str,
    *,
    direction: str | None,
    depth: int | None,
    limit: int | None,
    as_of: Instant | None,
) -> Call[str]:
    params = query(
        format=format, direction=direction, depth=depth, limit=limit, as_of=instant(as_of, "as_of")
    )
    return Call("GET", item_path("/lineage", asset_id, "/export"), text_body, params=params)


def manifest_body(manifest: Artifact) -> bytes:
    """The gzipped bytes of a dbt ``manifest.json``: read from a path, or given as
    bytes (sent as they are if already gzipped)."""
    if isinstance(manifest, Mapping):
        raise TypeError("manifest must be a path (str or Path) or bytes")
    return gzipped_artifact(manifest, "manifest")


def upload_manifest(
    manifest: Artifact,
    *,
    project: str | None,
    namespace: str | None,
    prune: bool,
    idempotency_key: str | None,
) -> Call[ManifestSummary]:
    # Ingesting a manifest twice gives the same graph, so it may be retried.
    return Call(
        "POST",
        "/lineage/manifest",
        json_body,
        params=query(project=project, namespace=namespace, prune=prune),
        body=manifest_body(manifest),
        headers=(("Content-Encoding", "gzip"),),
        idempotency_key=idempotency_key,
        auto_idempotency_key=True,
        min_timeout=UPLOAD_TIMEOUT_S,
    )


def check_manifest(
    manifest: Artifact,
    *,
    project: str | None,
    namespace: str | None,
    depth: int | None,
    idempotency_key: str | None,
) -> Call[ImpactReport]:
    # The check writes nothing, so a repeat is harmless: retried like a read, no key.
    return Call(
        "POST",
        "/impact/manifest",
        json_body,
        params=query(project=project, namespace=namespace, depth=depth),
        body=manifest_body(manifest),
        headers=(("Content-Encoding", "gzip"),),
        idempotency_key=idempotency_key,
        idempotent=True,
        min_timeout=UPLOAD_TIMEOUT_S,
    )


def empty_sql_result(source: str | None) -> SqlResult:
    """What ingesting no statement does: the start of a sum over chunks."""
    return {
        "origin": f"sql:{source or 'api'}",
        "statements": {"received": 0, "with_lineage": 0, "without_lineage": 0, "failed": 0},
        "edges": {"created": 0, "existing": 0},
        "column_mappings": {"created": 0, "existing": 0},
        "assets_created": 0,
        "failures": [],
        "warnings": [],
    }


def logged_statement(statement: str | SqlStatement) -> dict[str, Any]:
    """One entry of a query log: a statement's text alone, or ``{"sql", "query_id"?, ...}``."""
    if isinstance(statement, str):
        return {"sql": statement}
    return fields(**statement)


def ingest_sql(
    sql: str | Sequence[str | SqlStatement],
    *,
    dialect: str,
    namespace: str,
    default_database: str | None,
    default_schema: str | None,
    source: str | None,
) -> Call[SqlResult]:
    """A script (a ``str``) or a query log. Statements read twice give the same
    edges, so it may be retried."""
    script = sql if isinstance(sql, str) else None
    log = None if isinstance(sql, str) else [logged_statement(s) for s in sql]
    body = fields(
        dialect=dialect,
        namespace=namespace,
        default_database=default_database,
        default_schema=default_schema,
        source=source,
        sql=script,
        statements=log,
    )
    return create("/lineage/sql", body, None)


def offset_failures(result: SqlResult, offset: int) -> SqlResult:
    """A chunk's result with each failure's ``index`` counted from the whole log's start."""
    if not offset or not result.get("failures"):
        return result
    failures = [{**f, "index": f["index"] + offset} for f in result["failures"]]
    return cast(SqlResult, {**result, "failures": failures})


# -- events -----------------------------------------------------------------


def type_patterns(types: str | Sequence[str] | None) -> str | None:
    patterns = as_list(types)
    return ",".join(patterns) if patterns else None


def list_events(
    *,
    after: int | None,
    types: str | Sequence[str] | None,
    limit: int | None,
    cursor: str | None,
) -> Call[Page[Event]]:
    return get("/events", after=after, types=type_patterns(types), limit=limit, cursor=cursor)


def stream_events(types: str | Sequence[str] | None, last_event_id: int | None) -> Call[None]:
    """``GET /events/stream``, resuming after ``last_event_id`` when there is one."""
    headers = [("Accept", "text/event-stream"), ("Cache-Control", "no-cache")]
    if last_event_id is not None:
        headers.append(("Last-Event-ID", str(last_event_id)))
    params = query(types=type_patterns(types))
    return Call("GET", "/events/stream", no_body, params=params, headers=tuple(headers))
