"""What every versioned node's store shares (assets, policies, quality rules): read one
by id; lock one, check If-Match and change it in one transaction; apply a JSON Merge
Patch to its writable document and validate the result whole. One implementation, so
the three cannot drift; what a change means (an asset's merges, a policy's audit, a
rule's asset) is the `change` each store passes in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from service.domain import merge_patch
from service.domain.preconditions import Expected
from service.errors import NotFound
from service.graph import Graph, Tx
from service.models.validation import validate
from service.store.locking import locked

V = TypeVar("V")
F = TypeVar("F", bound=BaseModel)
T = TypeVar("T")
Node = dict[str, Any]


async def _as_asked(tx: Tx, node_id: str) -> str:
    return node_id


@dataclass(frozen=True)
class Kind(Generic[V]):
    """One label of versioned node: its two named queries, what a row becomes, the
    404 for an id that names none, and how an asked id names a node (assets resolve
    former ids; the others take the id as asked)."""

    get_query: str  # answers one row with the node's map when it exists
    lock_query: str  # the same, with the node's write lock held until commit
    from_node: Callable[[Node], V]
    missing: Callable[[str], NotFound]
    resolve: Callable[[Tx, str], Awaitable[str]] = _as_asked


async def get(graph: Graph, kind: Kind[V], node_id: str) -> V:
    rows = await graph.read(kind.get_query, id=node_id)
    if not rows:
        raise kind.missing(node_id)
    return kind.from_node(next(iter(rows[0].values())))


async def _locked(tx: Tx, kind: Kind[V], node_id: str, expected: Expected | None) -> Node:
    target = await kind.resolve(tx, node_id)
    return await locked(tx, kind.lock_query, target, expected, kind.missing(node_id))


async def write(
    graph: Graph,
    kind: Kind[V],
    node_id: str,
    expected: Expected | None,
    change: Callable[[Tx, Node], Awaitable[T]],
) -> T:
    """`change` applied to the node's current properties under its lock, once If-Match
    holds: 404 for no such node, 412 for another version, in the same transaction."""

    async def work(tx: Tx) -> T:
        return await change(tx, await _locked(tx, kind, node_id, expected))

    return await graph.write_tx(work)


async def patch(
    graph: Graph,
    kind: Kind[V],
    node_id: str,
    document: dict[str, Any],
    expected: Expected | None,
    writable: Callable[[V], dict[str, Any]],
    model: type[F],
    change: Callable[[Tx, Node, F], Awaitable[V]],
) -> V:
    """A merge patch over the current node's `writable` document, validated whole as
    `model` (422 naming the field), then `change`d like any write. The document names
    only the model's fields: `service.http.read_merge_patch` refused any other key."""

    async def patched(tx: Tx, current: Node) -> V:
        merged = merge_patch.apply(writable(kind.from_node(current)), document)
        return await change(tx, current, validate(model, merged))

    return await write(graph, kind, node_id, expected, patched)
