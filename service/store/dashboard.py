"""Reads that only the dashboard's pages make (overview, asset and lineage)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from service.domain.event_types import TypeFilter
from service.domain.finding_privacy import concealed, redact_finding
from service.graph import Graph
from service.models.datasets import Dataset
from service.models.events import Event
from service.models.quality import QualityRule


@dataclass(frozen=True)
class Counts:
    assets: int
    edges: int
    policies: int
    rules: int
    failing: int
    violations: int


@dataclass(frozen=True)
class LineageDetails:
    """Beside a lineage view: asset id -> the dataset it holds (only those holding
    one), and (source, target) -> the writers asserting that edge."""

    datasets: dict[str, Dataset]
    origins: dict[tuple[str, str], list[str]]


@dataclass(frozen=True)
class OpenViolation:
    policy_id: str
    policy_name: str | None
    severity: str | None
    asset_id: str
    reason: str
    path: list[str] | None
    path_assets: list[str] | None
    far_end: str | None
    opened_at: str


async def counts(graph: Graph, readable: tuple[str, ...] | None) -> Counts:
    """The overview's figures, of what a viewer who may read the private domains
    `readable` (None: all) may read: totals would tell how much is hidden."""
    listed = None if readable is None else list(readable)
    row = (await graph.read("dashboard.counts", readable=listed))[0]
    return Counts(**{name: int(row[name]) for name in Counts.__dataclass_fields__})


async def open_violations(
    graph: Graph, asset_id: str | None, limit: int, readable: tuple[str, ...] | None = None
) -> list[OpenViolation]:
    """`readable` (None: all) lists the private domains whose assets' violations may show;
    a path's steps in others show as stand-ins."""
    rows = await graph.read(
        "dashboard.violations",
        asset_id=asset_id,
        limit=limit,
        readable=None if readable is None else list(readable),
    )
    return [
        OpenViolation(
            **redact_finding(row["violation"], concealed(row["hidden"], readable)),
            policy_name=row["policy_name"],
            severity=row["severity"],
        )
        for row in rows
    ]


async def failing_rules(
    graph: Graph, limit: int, readable: tuple[str, ...] | None = None
) -> list[QualityRule]:
    """`readable` (None: all) lists the private domains whose assets' rules may show."""
    rows = await graph.read("dashboard.failing_rules", limit=limit, readable=readable)
    return [QualityRule.from_node(r["rule"]) for r in rows]


async def asset_names(graph: Graph, ids: Iterable[str]) -> dict[str, str]:
    """Asset id -> display name for the ids a page is about to show (one read)."""
    rows = await graph.read("dashboard.asset_names", ids=sorted(set(ids)))
    return {str(r["id"]): str(r["name"]) for r in rows}


async def lineage_details(
    graph: Graph, ids: Iterable[str], edges: Iterable[tuple[str, str]]
) -> LineageDetails:
    """The datasets of the assets and the origins of the edges a lineage view reached,
    in one read however many there are."""
    targets: dict[str, set[str]] = {}
    for source, target in edges:
        targets.setdefault(source, set()).add(target)
    outgoing = [{"source": s, "targets": sorted(t)} for s, t in sorted(targets.items())]
    row = (await graph.read("dashboard.lineage_details", ids=sorted(set(ids)), edges=outgoing))[0]
    return LineageDetails(
        datasets={
            str(d["id"]): Dataset(namespace=d["namespace"], name=d["name"]) for d in row["datasets"]
        },
        origins={(str(e["source"]), str(e["target"])): list(e["origins"]) for e in row["origins"]},
    )


async def latest_events(graph: Graph, limit: int, view: TypeFilter) -> list[Event]:
    """The newest events a reader may see (`view`: its hidden and owned prefixes)."""
    rows = await graph.read(
        "dashboard.latest_events",
        limit=limit,
        view=view.view(),
    )
    return [Event.from_node(r["event"]) for r in rows]
