"""Change impact of a candidate dbt manifest over `cypher/impact/`: reads only.

The stored project is read in one statement and the candidate compared with it
(`service.domain.impact`); the walk downstream of the breaking changes reads one
level per statement (`service.domain.impact_walk` keeps what was seen), so its cost
follows the nodes and edges reached and its statements the depth.
"""

from __future__ import annotations

from typing import Any

import orjson

from service.domain.access import domain_rules
from service.domain.access.principal import Principal
from service.domain.dbt.identity import asset_datasets, decide, redirected
from service.domain.dbt_manifest import ManifestContents
from service.domain.impact import Change, StoredAsset, StoredRule, classify, excluded
from service.domain.impact_redaction import Hiding, hiding
from service.domain.impact_walk import Reached, Step, Walk, label
from service.domain.lineage import column_key
from service.domain.redaction import hidden_domains
from service.errors import NotFound
from service.graph import Graph, Reader
from service.models.impact import (
    ImpactChange,
    ImpactedAsset,
    ImpactReport,
    RedactedImpactChange,
    RedactedImpactedAsset,
)
from service.store import domain_guard, identity


async def check(
    graph: Graph,
    contents: ManifestContents,
    namespace: str | None,
    depth: int,
    viewer: Principal | None = None,
) -> ImpactReport:
    """The candidate's changes against the stored project and what reads them downstream,
    at most `depth` hops away; 404 when no upload of the project is stored. What
    `viewer` may not read comes back as stand-ins (`service.domain.impact_redaction`)."""
    contents = await _landing(graph, contents, namespace)
    origin = f"dbt:{contents.project}"
    ids = [asset.id for asset in contents.assets]
    row = (
        await graph.read("impact.project_state", project=contents.project, origin=origin, ids=ids)
    )[0]
    if not row["assets"] and not row["rules"]:
        raise NotFound(
            f"No upload of the dbt project {contents.project!r} is stored: upload the "
            "project's manifest from its main branch first (POST /lineage/manifest), or "
            "name the project it was uploaded as (`project`).",
            code="unknown_project",
        )
    changes = classify(_stored_assets(row["assets"]), _stored_rules(row["rules"]), contents)
    walk = Walk([seed for change in changes if (seed := change.seed)], depth)
    await graph.read_session(lambda reader: _walk(reader, walk))
    reached = walk.reached(excluded(changes))
    hidden = await _hiding(graph, viewer, changes, reached)
    changes, reached = (
        sorted(changes, key=hidden.change_order),
        sorted(reached, key=hidden.reached_order),
    )
    hidden.number(
        [(c.asset, c.column) for c in changes]
        + [n for r in reached for n in ((r.asset, r.column), *r.path)]
    )
    return ImpactReport(
        project=contents.project,
        changes=[_change(c, hidden) for c in changes],
        impacted=[_impacted(r, hidden) for r in reached],
        breaking=any(change.breaking for change in changes),
        depth=depth,
        redacted=hidden.count,
    )


async def _hiding(
    graph: Graph, viewer: Principal | None, changes: list[Change], reached: list[Reached]
) -> Hiding:
    """Stand-ins for the report's nodes `viewer` may not read: their assets' domains
    read in one statement (none for a global admin)."""
    if viewer is None or domain_rules.sees_everything(viewer):
        return Hiding()
    nodes = [(c.asset, c.column) for c in changes] + [n for r in reached for n in r.path]
    found = await domain_guard.placed_if_domains(graph, {asset for asset, _ in nodes})
    places = {i: {"domain": p.domain, "private": p.private} for i, p in found.items()}
    teams = await domain_guard.owner_teams(graph, hidden_domains(viewer, places.values()))
    return hiding(viewer, nodes, places, teams)


def _impacted(reached: Reached, hidden: Hiding) -> ImpactedAsset:
    asset, column = hidden.node((reached.asset, reached.column))
    via = [label(hidden.node(node)) for node in reached.path]
    if not hidden.hidden(reached.asset):
        return ImpactedAsset(
            asset=asset,
            column=column,
            distance=reached.distance,
            owners=list(reached.owners),
            via=via,
        )
    return RedactedImpactedAsset(
        asset=asset,
        column=column,
        distance=reached.distance,
        owners=[],
        via=via,
        redacted=True,
        team=hidden.team(reached.asset),
    )


async def _landing(
    graph: Graph, contents: ManifestContents, namespace: str | None
) -> ManifestContents:
    """The candidate as its upload would land: sources whose table another asset holds,
    and nodes whose id is a former id, named by that asset (as the upload decides)."""
    datasets = asset_datasets(contents, namespace)[0] if namespace else {}
    ids = [asset.id for asset in contents.assets]
    keys = [ref.key for ref in datasets.values()]

    async def read(reader: Reader) -> Any:
        return await identity.aliased(reader, ids), await identity.holders(reader, keys)

    aliases, holders = await graph.read_session(read)
    decision = decide({a.id: a for a in contents.assets}, datasets, holders, aliases)
    return redirected(contents, decision.redirects)


async def _walk(reader: Reader, walk: Walk) -> None:
    while not walk.done:
        columns = [
            {"asset": asset, "column": column, "key": column_key(asset, column)}
            for asset, column in walk.columns()
        ]
        rows = await reader.run("impact.downstream_level", assets=walk.assets(), columns=columns)
        walk.advance(
            Step(
                (row["source_asset"], row["source_column"]),
                (row["target_asset"], row["target_column"]),
                tuple(row["owners"] or ()),
            )
            for row in rows
        )


def _stored_assets(rows: list[list[Any]]) -> dict[str, StoredAsset]:
    found = {}
    for asset_id, type_, columns_json, materialized, relation in rows:
        columns = orjson.loads(columns_json) if columns_json else []
        found[asset_id] = StoredAsset(
            asset_id,
            type_ or "unknown",
            tuple((c["name"], c.get("type")) for c in columns),
            materialized,
            relation,
        )
    return found


def _stored_rules(rows: list[list[Any]]) -> dict[str, StoredRule]:
    return {rule_id: StoredRule(rule_id, asset_id, column) for rule_id, asset_id, column in rows}


def _change(change: Change, hidden: Hiding) -> ImpactChange:
    if hidden.hidden(change.asset):
        asset, column = hidden.node((change.asset, change.column))
        return RedactedImpactChange(
            kind=change.kind,
            asset=asset,
            column=column,
            from_=None,
            to=None,
            breaking=change.breaking,
            redacted=True,
            team=hidden.team(change.asset),
        )
    return ImpactChange(
        kind=change.kind,
        asset=change.asset,
        column=change.column,
        from_=change.before,
        to=change.after,
        breaking=change.breaking,
    )
