"""Data migrations that run once per database (`cypher/meta/*migration*`).

A backfill that reads the whole graph (histories for edges from before history was
kept, versions for assets from before versions were, the index of writers' edge
sets) is idempotent, but reading a million edges at every start would hold back
each restart. Once a run ends, a `(:Migration {name})` node records it and later
starts skip the work. A run cut short (the process stopped, Neo4j went away) leaves
no mark, so the next start does it again from the beginning: each backfill writes
only what is missing, so a second pass is safe.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from service import clock
from service.graph import Graph


async def once(graph: Graph, name: str, work: Callable[[Graph], Awaitable[int]]) -> int | None:
    """`work(graph)`'s answer, or None when the migration `name` already ran here."""
    if (await graph.read("meta.migration_done", name=name))[0]["done"]:
        return None
    done = await work(graph)
    await graph.write("meta.mark_migration", name=name, now=clock.now_iso())
    return done
