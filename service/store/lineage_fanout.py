"""A lineage walk with a fan-out cap: one statement per hop, in one read transaction,
each node reached expanded once (`cypher/lineage/fanout_*.cypher`); the page is cut
from the whole capped neighbourhood by `domain.fanout`."""

from __future__ import annotations

from service import clock
from service.domain.fanout import Reach, fanout_page
from service.domain.lineage_pages import (
    UNSHUFFLED,
    After,
    Page,
    Shuffle,
    Walk,
    check_root,
    take,
)
from service.graph import Graph, Reader


async def page(
    graph: Graph,
    walk: Walk,
    after: After,
    limit: int,
    token_hash: str | None,
    readable: tuple[str, ...] | None = None,
    access: list[str] | None = None,
    shuffle: Shuffle = UNSHUFFLED,
) -> Page:
    """One page of `walk` (which has a `fanout`): every page walks the whole capped
    neighbourhood again, so its cost is the neighbourhood's, whatever the page.
    `readable`: the private domains the caller may read (None: all), for the filters;
    `access`: the remembered caller's role and grants, re-checked with the token;
    `shuffle`: the order of the stand-ins among themselves."""
    fanout = walk.fanout or 1

    async def work(tx: Reader) -> Page:
        row = (
            await tx.run(
                "lineage.fanout_root",
                id=walk.root,
                token_hash=token_hash,
                access=access,
                now=clock.now_iso(),
            )
        )[0]
        check_root(row["authorised"], row["root"], walk)
        root = row["root"]
        reaches = [
            await _side(tx, Reach(side, root["id"]), walk.depth, fanout, shuffle)
            for side in walk.sides
        ]
        return fanout_page(walk, root, reaches, after, take(limit, after), readable)

    return await graph.read_session(work)


async def _side(tx: Reader, reach: Reach, depth: int, fanout: int, shuffle: Shuffle) -> Reach:
    frontier = [reach.root]
    for distance in range(1, depth + 1):
        if not frontier:
            break
        rows = await tx.run(
            "lineage.fanout_hop",
            ids=frontier,
            downstream=reach.side == "downstream",
            fanout=fanout,
            shuffle=shuffle.params(),
        )
        frontier = [
            fresh
            for row in rows
            for fresh in reach.expand(row["id"], row["kept"], int(row["total"]), distance)
        ]
    return reach
