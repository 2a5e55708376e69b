"""Quality rule reads over `cypher/quality/`."""

from __future__ import annotations

from service.errors import NotFound
from service.graph import Graph
from service.models.quality import QualityRule


async def page(
    graph: Graph,
    asset_id: str | None,
    status: str | None,
    type_: str | None,
    after: str,
    limit: int,
) -> list[QualityRule]:
    rows = await graph.read(
        "quality.list_rules", asset_id=asset_id, status=status, type=type_, after=after, limit=limit
    )
    return [QualityRule.from_node(r["rule"]) for r in rows]


async def get(graph: Graph, rule_id: str) -> QualityRule:
    rows = await graph.read("quality.get_rule", id=rule_id)
    if not rows:
        raise NotFound(f"No quality rule with id {rule_id!r}.", code="quality_rule_not_found")
    return QualityRule.from_node(rows[0]["rule"])
