"""Names for the actors an audit trail records, read in one statement per page."""

from __future__ import annotations

from collections.abc import Iterable

from service.domain import actor_names
from service.graph import Graph


async def labels(graph: Graph, actors: Iterable[str]) -> dict[str, str]:
    """Each actor that still names a token or user, with the words to show for it."""
    token_ids, user_ids = actor_names.split(actors)
    if not token_ids and not user_ids:
        return {}
    rows = await graph.read("users.actor_names", token_ids=token_ids, user_ids=user_ids)
    named = {
        str(row["actor"]): actor_names.label(row["username"], row["token_name"]) for row in rows
    }
    return {actor: text for actor, text in named.items() if text}
