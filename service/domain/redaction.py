"""Lineage that redacts: nodes the caller may not read become stand-ins, pure Python
over what a walk statement returned (each node's `domain` and `private` beside it).

A stand-in keeps its place in the path (its distance, its side, its edges under the
stand-in's id), so no path is cut and every count stays complete, but tells nothing of
the asset beyond the team owning its domain: its id is `redacted:<n>`, numbering the
stand-ins of one answer, and its name is that id.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from service.domain.access import domain_rules
from service.domain.access.principal import Principal

Node = dict[str, Any]
PLACE_KEYS = ("domain", "private")  # what the statements return beside a node's shape


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
) -> Redacted:
    """The nodes with each hidden one replaced by a stand-in (numbered in the order
    given) and the edges renamed to match; `domain` and `private` dropped from every
    node, as they are no part of the answer. `elsewhere` places the edge ends that are
    no node of this page (an earlier page's): a hidden one gets a stand-in id too."""
    renamed: dict[str, str] = {}
    shown: list[Node] = []
    for node in nodes:
        if unreadable(principal, node):
            stand_in = f"redacted:{len(renamed) + 1}"
            renamed[str(node["id"])] = stand_in
            shown.append(_stand_in(stand_in, node, teams.get(str(node["domain"]))))
        else:
            shown.append({k: v for k, v in node.items() if k not in PLACE_KEYS})
    count = len(renamed)
    for end, place in sorted((elsewhere or {}).items()):
        if end not in renamed and unreadable(principal, place):
            renamed[end] = f"redacted:{len(renamed) + 1}"
    return Redacted(shown, rename_edges(edges, renamed.get), count, renamed)


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
    """Only the place in the path and the owning team; name, type, platform and tags are
    neutral so every reader of a node's shape still renders it."""
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
    }
