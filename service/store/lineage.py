"""Lineage writes and traversals over `cypher/lineage/`."""

from __future__ import annotations

from service import clock
from service.domain.lineage import Reached, assemble, endpoint_ids, fold
from service.errors import FieldError, NotFound, Unprocessable
from service.events.outbox import emit
from service.graph import Graph, Reader, Tx
from service.models.lineage import BulkResult, Edge, EdgeIn, LineageGraph

API_ORIGIN = "api"
WALKS = {"upstream": "lineage.upstream", "downstream": "lineage.downstream"}


async def _ensure_endpoints(tx: Tx, ids: list[str], strict: bool, now: str) -> int:
    if strict:
        missing = (await tx.run("lineage.missing_assets", ids=ids))[0]["missing"]
        if missing:
            raise Unprocessable(
                f"{len(missing)} asset(s) do not exist: {', '.join(missing[:10])}",
                code="unknown_assets",
                errors=[
                    FieldError(("body",), f"unknown asset {m!r}", "unknown_asset") for m in missing
                ],
                extra={"unknown_assets": missing},
            )
        return 0
    return int((await tx.run("lineage.merge_placeholders", ids=ids, now=now))[0]["created"])


async def _merge(tx: Tx, edges: list[EdgeIn], origin: str, strict: bool) -> tuple[BulkResult, int]:
    """(summary, number of existing edges that changed)."""
    now = clock.now_iso()
    folded = fold(edges)
    assets_created = await _ensure_endpoints(tx, endpoint_ids(folded), strict, now)
    rows = await tx.run(
        "lineage.merge_edges",
        edges=[e.model_dump() for e in folded],
        origin=origin,
        now=now,
    )
    created = int(rows[0]["created"] or 0)
    summary = BulkResult(
        received=len(edges),
        created=created,
        existing=len(folded) - created,
        assets_created=assets_created,
    )
    return summary, int(rows[0]["updated"] or 0)


async def write_bulk(
    graph: Graph, edges: list[EdgeIn], strict: bool, actor: str, origin: str = API_ORIGIN
) -> BulkResult:
    """All or nothing, in one transaction; repeating it changes nothing (and, having
    changed nothing, announces nothing). One summary event, not one per edge."""

    async def work(tx: Tx) -> BulkResult:
        summary, updated = await _merge(tx, edges, origin, strict)
        if summary.created or summary.assets_created or updated:
            await emit(tx, "lineage.bulk.ingested", summary, actor)
        return summary

    return await graph.write_tx(work)


async def write_one(
    graph: Graph, edge: EdgeIn, strict: bool, actor: str, origin: str = API_ORIGIN
) -> tuple[Edge, bool]:
    async def work(tx: Tx) -> tuple[Edge, bool]:
        summary, updated = await _merge(tx, [edge], origin, strict)
        rows = await tx.run("lineage.get_edge", source=edge.source, target=edge.target)
        saved = Edge(**rows[0]["edge"])
        if summary.created:
            await emit(tx, "lineage.edge.created", saved, actor)
        elif updated:
            await emit(tx, "lineage.edge.updated", saved, actor)
        return saved, summary.created == 1

    return await graph.write_tx(work)


async def page_edges(
    graph: Graph,
    source: str | None,
    target: str | None,
    origin: str | None,
    after: list[str],
    limit: int,
) -> list[Edge]:
    rows = await graph.read(
        "lineage.list_edges",
        source=source,
        target=target,
        origin=origin,
        after_source=after[0],
        after_target=after[1],
        limit=limit,
    )
    return [Edge(**r["edge"]) for r in rows]


async def delete_edge(graph: Graph, source: str, target: str, actor: str) -> None:
    async def work(tx: Tx) -> None:
        rows = await tx.run("lineage.get_edge", source=source, target=target)
        if not rows:
            raise NotFound(f"No edge {source!r} -> {target!r}.", code="edge_not_found")
        await tx.run("lineage.delete_edge", source=source, target=target)
        await emit(tx, "lineage.edge.deleted", Edge(**rows[0]["edge"]), actor)

    await graph.write_tx(work)


async def traverse(
    graph: Graph, root_id: str, direction: str, depth: int, limit: int
) -> LineageGraph:
    """Nodes within `depth` hops (fewest-hop distance), nearest first, at most `limit`
    with the root: two or three single-row statements, none enumerating paths."""

    async def work(tx: Reader) -> LineageGraph:
        reached: list[Reached] = []
        for side in ("upstream", "downstream"):
            if direction in (side, "both"):
                rows = await tx.run(WALKS[side], {"depth": depth}, id=root_id, limit=limit)
                reached += [
                    Reached(r["node"], int(r["distance"]), side) for r in rows[0]["reached"]
                ]
        kept_down = [root_id] + [r.node["id"] for r in reached if r.direction == "downstream"]
        kept_up = [root_id] + [r.node["id"] for r in reached if r.direction == "upstream"]
        adjacent = await tx.run(
            "lineage.adjacent",
            id=root_id,
            down_ids=kept_down if direction != "upstream" else [],
            up_ids=kept_up if direction != "downstream" else [],
        )
        if adjacent[0]["root"] is None:
            raise NotFound(f"No asset with id {root_id!r}.", code="asset_not_found")
        nodes, edges, truncated = assemble(
            adjacent[0]["root"],
            reached,
            ((a[0], a[1], a[2], a[3]) for a in adjacent[0]["edges"]),
            limit,
        )
        return LineageGraph(
            root=root_id,
            direction=direction,
            depth=depth,
            nodes=nodes,
            edges=edges,
            truncated=truncated,
        )

    return await graph.read_session(work)
