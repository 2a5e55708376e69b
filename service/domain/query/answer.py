"""Pages: where a cursor resumes, and the answer built from a statement's one record.

A cursor holds the sort key of the last item of its page (`[distance, id]` for nodes
and graphs, `[source, target]` for edges, an offset into the found paths), so a page
is a range seek, not a skip over everything before it. A cursor of another form, or
one that was tampered with, is 400 `invalid_cursor`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from service.domain.query.filters import Params
from service.errors import BadRequest
from service.models.query import QueryEdge, QueryNode


def _invalid() -> BadRequest:
    return BadRequest("The cursor cannot be decoded.", code="invalid_cursor")


def position(form: str, after: Any, path_cap: int, params: Params) -> int:
    """Add the cursor's position as parameters; answer the paths offset (else 0)."""
    if form in ("nodes", "graph"):
        distance, node_id = _pair(after, (-1, ""), int, str)
        params.add("after_distance", distance)
        params.add("after_id", node_id)
    elif form == "edges":
        source, target = _pair(after, ("", ""), str, str)
        params.add("after_source", source)
        params.add("after_target", target)
    elif form == "paths":
        offset = 0 if after is None else after
        if type(offset) is not int or not 0 <= offset <= path_cap:
            raise _invalid()
        params.add("after_offset", offset)
        return offset
    elif after is not None:
        raise _invalid()
    return 0


def _pair(after: Any, first: tuple[Any, Any], *kinds: type) -> tuple[Any, Any]:
    if after is None:
        return first
    if not isinstance(after, list) or len(after) != 2:
        raise _invalid()
    if any(type(value) is not kind for value, kind in zip(after, kinds, strict=True)):
        raise _invalid()
    return after[0], after[1]


def assemble(
    form: str, limit: int, offset: int, is_path: bool, row: Mapping[str, Any]
) -> tuple[dict[str, Any], Any]:
    """(the answer's parts, the next page's position or None)."""
    parts: dict[str, Any] = {}
    after: Any = None
    if form in ("nodes", "graph"):
        found = [_node(item) for item in row.get("nodes") or []]
        parts["nodes"] = found[:limit]
        if len(found) > limit:
            after = [found[limit - 1].distance, found[limit - 1].id]
    if form in ("edges", "graph"):
        edges = [QueryEdge(**item) for item in row.get("edges") or []]
        parts["edges"] = edges if form == "graph" else edges[:limit]
        if form == "edges" and len(edges) > limit:
            after = [edges[limit - 1].source, edges[limit - 1].target]
    if form == "paths":
        paths = [list(p) for p in row.get("paths") or []]
        parts["paths"] = number_hidden(paths[:limit])
        if len(paths) > limit:
            after = offset + limit
    if form == "count":
        parts["count"] = int(row.get("count") or 0)
    if is_path:
        parts["truncated"] = bool(row.get("truncated") or False)
    return parts, after


def number_hidden(paths: list[list[Any]]) -> list[list[str]]:
    """Each asset the statement named `[<element id>]` (one the caller may not read) as
    a stand-in `redacted:<n>`, numbered in order of appearance in this answer: the same
    asset is the same stand-in on every path of it."""
    stand_ins: dict[str, str] = {}

    def named(asset: Any) -> str:
        if isinstance(asset, str):
            return asset
        return stand_ins.setdefault(str(asset[0]), f"redacted:{len(stand_ins) + 1}")

    return [[named(asset) for asset in path] for path in paths]


def _node(item: Mapping[str, Any]) -> QueryNode:
    return QueryNode(
        id=item["id"],
        name=item.get("name") or item["id"],
        type=item.get("type") or "unknown",
        platform=item.get("platform"),
        tags=list(item.get("tags") or []),
        placeholder=bool(item.get("placeholder") or False),
        distance=int(item["distance"]),
    )
