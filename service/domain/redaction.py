"""Lineage that redacts: nodes the caller may not read become stand-ins, pure Python
over what a walk statement returned (each node's `domain` and `private` beside it).

A stand-in keeps its place in the path (its distance, its side, its edges under the
stand-in's id), so no path is cut and every count stays complete, but tells nothing of
the asset beyond the team owning its domain: its id is `redacted:<n>`, numbering the
stand-ins of one answer, and its name is that id. Stand-ins numbered outside a page's
own order (a diff's, the ends of edges reaching back to earlier pages) are numbered in
a fresh random order per answer: by id, their numbers would tell how the hidden ids
sort against each other.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from service.domain.access import domain_rules
from service.domain.access.principal import Principal
from service.models.lineage import ColumnEdge, ColumnNode, ColumnRef, RedactedColumnNode

Node = dict[str, Any]
T = TypeVar("T")
_RANDOM = random.SystemRandom()


def shuffled(items: Sequence[T]) -> list[T]:
    """`items` in a random order, a new one each call (the default `arrange`)."""
    return _RANDOM.sample(list(items), len(items))


PLACE_KEYS = ("domain", "private")  # what the statements return beside a node's shape
# ... with the shuffled key that orders a stand-in (`lineage_pages.position`): none of
# them part of the answer
NOT_SHOWN = (*PLACE_KEYS, "standin_key")


def unreadable(principal: Principal | None, node: Mapping[str, Any]) -> bool:
    """Whether `node` (with its `domain` and `private`) is hidden from the caller; None
    is the service itself, from whom nothing is hidden."""
    if principal is None:
        return False
    return not domain_rules.can_read(principal, node.get("domain"), bool(node.get("private")))


def hidden_domains(principal: Principal | None, nodes: Iterable[Mapping[str, Any]]) -> set[str]:
    """The domains of the nodes hidden from the caller: whose owning teams to look up."""
    return {str(n["domain"]) for n in nodes if unreadable(principal, n)}


@dataclass(frozen=True)
class Redacted:
    nodes: list[Node]
    edges: list[dict[str, Any]]
    count: int
    renamed: dict[str, str]  # real id -> stand-in id, for this answer only


def redact(
    principal: Principal | None,
    nodes: Sequence[Mapping[str, Any]],
    edges: Iterable[Mapping[str, Any]],
    teams: Mapping[str, str],
    elsewhere: Mapping[str, Mapping[str, Any]] | None = None,
    arrange: Callable[[Sequence[str]], list[str]] = shuffled,
) -> Redacted:
    """The nodes with each hidden one replaced by a stand-in (numbered in the order
    given) and the edges renamed to match; `domain`, `private` and `standin_key` dropped
    from every node, as they are no part of the answer. `elsewhere` places the edge ends that are
    no node of this page (an earlier page's): a hidden one gets a stand-in id too, in
    the order `arrange` gives them."""
    renamed: dict[str, str] = {}
    shown: list[Node] = []
    for node in nodes:
        if unreadable(principal, node):
            stand_in = f"redacted:{len(renamed) + 1}"
            renamed[str(node["id"])] = stand_in
            shown.append(_stand_in(stand_in, node, teams.get(str(node["domain"]))))
        else:
            shown.append({k: v for k, v in node.items() if k not in NOT_SHOWN})
    count = len(renamed)
    ends = (elsewhere or {}).items()
    hidden = [end for end, place in ends if end not in renamed and unreadable(principal, place)]
    for end in arrange(sorted(hidden)):
        renamed[end] = f"redacted:{len(renamed) + 1}"
    return Redacted(shown, rename_edges(edges, renamed.get), count, renamed)


def sorted_as_shown(edges: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Edges by source, then target, as the caller sees them: sorted by the real ids
    before the renaming, an edge touching a stand-in would sit where its hidden id
    sorts among the readable ones."""
    return sorted((dict(e) for e in edges), key=_ends)


def renamed_caps(
    capped: Iterable[Mapping[str, Any]], renamed: Mapping[str, str]
) -> list[dict[str, Any]]:
    """A capped walk's cuts (`id`, `direction`, ...) under the stand-ins' ids, sorted as
    shown (by the real ids, a stand-in's place would tell of its hidden id)."""
    shown = ({**c, "id": renamed.get(str(c["id"]), c["id"])} for c in capped)
    return sorted(shown, key=lambda c: (str(c["id"]), str(c["direction"])))


def foreign_ends(
    nodes: Iterable[Mapping[str, Any]], edges: Iterable[Mapping[str, Any]]
) -> set[str]:
    """The edge ends that are no node of this page: earlier pages' nodes."""
    here = {str(n["id"]) for n in nodes}
    return {str(e[end]) for e in edges for end in ("source", "target")} - here


def rename_edges(
    edges: Iterable[Mapping[str, Any]], rename: Callable[[str], str | None]
) -> list[dict[str, Any]]:
    """Edges with each end a stand-in replaced by that stand-in's id, shape kept; the
    transformation of an edge touching a stand-in is dropped (its SQL names the asset)."""
    out = []
    for edge in edges:
        source, target = rename(edge["source"]), rename(edge["target"])
        if source is None and target is None:
            out.append(dict(edge))
            continue
        out.append(
            {
                **edge,
                "source": source or edge["source"],
                "target": target or edge["target"],
                "transformation": None,
            }
        )
    return out


def _stand_in(stand_in: str, node: Mapping[str, Any], team: str | None) -> Node:
    """Only the place in the path and the owning team (and, in a compared view, whether
    it was added or removed); name, type, platform and tags are neutral so every reader
    of a node's shape still renders it."""
    marked = {"change": node["change"]} if "change" in node else {}
    return {
        "id": stand_in,
        "redacted": True,
        "team": team,
        "name": stand_in,
        "type": "redacted",
        "platform": None,
        "tags": [],
        "placeholder": False,
        "distance": node["distance"],
        "direction": node["direction"],
        **marked,
    }


def redact_diff(
    principal: Principal | None,
    changes: Mapping[str, Mapping[str, Sequence[Mapping[str, Any]]]],
    places: Mapping[str, Mapping[str, Any]],
    teams: Mapping[str, str],
    arrange: Callable[[Sequence[str]], list[str]] = shuffled,
) -> tuple[dict[str, dict[str, list[dict[str, Any]]]], int]:
    """A lineage diff (`added`, `removed`: nodes and edges; `changed`: edges) with what
    the caller may not read as stand-ins, numbered once across the whole answer (added
    nodes, then removed ones, then edge ends that are neither; within each, in the
    order `arrange` gives them), so one asset is one stand-in wherever it appears.
    `places` holds the domain of every node of both walks (each edge's ends among
    them). An edge touching a stand-in loses both its transformations. (the diff, how
    many stand-ins)"""
    parts = ("added", "removed")
    sizes = [len(changes[part]["nodes"]) for part in parts]
    nodes = [n for part in parts for n in _arranged(principal, changes[part]["nodes"], arrange)]
    lists = [list(changes[part]["edges"]) for part in parts] + [list(changes["changed"]["edges"])]
    every = [e for edges in lists for e in edges]
    ends = {i: places[i] for i in foreign_ends(nodes, every) if i in places}
    shown = redact(principal, nodes, every, teams, ends, arrange)
    split, edges, stand_ins = sizes[0], iter(shown.edges), set(shown.renamed.values())
    renamed = [
        sorted((_without_previous(next(edges), stand_ins) for _ in part), key=_ends)
        for part in lists
    ]
    added, removed = shown.nodes[:split], shown.nodes[split:]
    return {
        "added": {"nodes": sorted(added, key=_stand_in_last), "edges": renamed[0]},
        "removed": {"nodes": sorted(removed, key=_stand_in_last), "edges": renamed[1]},
        "changed": {"edges": renamed[2]},
    }, len(shown.renamed)


def _arranged(
    principal: Principal | None,
    nodes: Sequence[Mapping[str, Any]],
    arrange: Callable[[Sequence[str]], list[str]],
) -> list[Mapping[str, Any]]:
    """`nodes` (sorted by id) with the hidden ones among themselves as `arrange` puts
    their ids: the order `redact` numbers them in."""
    hidden = {str(n["id"]): n for n in nodes if unreadable(principal, n)}
    order = iter(arrange(sorted(hidden)))
    return [hidden[next(order)] if str(n["id"]) in hidden else n for n in nodes]


def _stand_in_last(node: Mapping[str, Any]) -> bool:
    """Stand-ins after the readable nodes (a stable sort keeps the rest by id): where a
    hidden id would sort among the others tells of it."""
    return bool(node.get("redacted"))


def _ends(edge: Mapping[str, Any]) -> tuple[str, str]:
    return (str(edge["source"]), str(edge["target"]))


def _without_previous(edge: dict[str, Any], stand_ins: set[str]) -> dict[str, Any]:
    """A changed edge touching a stand-in keeps no earlier transformation either."""
    if "previous_transformation" in edge and stand_ins & {edge["source"], edge["target"]}:
        return {**edge, "previous_transformation": None}
    return edge


@dataclass(frozen=True)
class RedactedColumns:
    nodes: list[ColumnNode | RedactedColumnNode]
    edges: list[ColumnEdge]
    count: int


def redact_columns(
    principal: Principal | None,
    nodes: Sequence[ColumnNode],
    edges: Iterable[ColumnEdge],
    places: Mapping[str, Mapping[str, Any]],
    teams: Mapping[str, str],
) -> RedactedColumns:
    """A column traversal with each column of an asset the caller may not read as a
    stand-in (`places`: each asset's `domain` and `private`): the asset becomes
    `redacted:<n>` (one per asset) and the column `redacted:<m>` (one per column), in
    the order of `nodes`, since a column's name tells the hidden asset's schema. Edges
    keep their place under the stand-ins; one touching a stand-in loses its
    transformation."""
    assets: dict[str, str] = {}
    columns: dict[tuple[str, str], ColumnRef] = {}
    shown: list[ColumnNode | RedactedColumnNode] = []
    for node in nodes:
        place = places.get(node.asset, {})
        if not unreadable(principal, place):
            shown.append(node)
            continue
        asset = assets.setdefault(node.asset, f"redacted:{len(assets) + 1}")
        ref = ColumnRef(asset=asset, column=f"redacted:{len(columns) + 1}")
        columns[(node.asset, node.column)] = ref
        team = teams.get(str(place.get("domain")))
        shown.append(
            RedactedColumnNode(**ref.model_dump(), distance=node.distance, redacted=True, team=team)
        )
    edges_shown = sorted((_column_edge(e, columns) for e in edges), key=_column_edge_key)
    return RedactedColumns(sorted(shown, key=_readable_first), edges_shown, len(columns))


def _readable_first(node: ColumnNode) -> tuple[int, bool]:
    """Stand-ins after the readable columns of their distance (a stable sort keeps the
    rest in order): where a hidden asset's id would sort among the others tells of it."""
    return node.distance, isinstance(node, RedactedColumnNode)


def _column_edge_key(edge: ColumnEdge) -> tuple[str, str, str, str]:
    return (edge.source.asset, edge.source.column, edge.target.asset, edge.target.column)


def _column_edge(edge: ColumnEdge, columns: Mapping[tuple[str, str], ColumnRef]) -> ColumnEdge:
    source = columns.get((edge.source.asset, edge.source.column))
    target = columns.get((edge.target.asset, edge.target.column))
    if source is None and target is None:
        return edge
    return ColumnEdge(source=source or edge.source, target=target or edge.target)
