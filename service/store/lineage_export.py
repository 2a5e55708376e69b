"""A lineage neighbourhood for export: the API's own traversal (`lineage.traverse`),
so an export never disagrees with `GET /lineage/{id}`, plus one read of what an
export writes beside it (`lineage.export_details`)."""

from __future__ import annotations

from service.domain.access.principal import Principal
from service.domain.lineage_export import Neighbourhood, assemble
from service.graph import Graph
from service.store import lineage


async def neighbourhood(
    graph: Graph,
    root_id: str,
    direction: str,
    depth: int,
    limit: int,
    *,
    token_hash: str | None = None,
    as_of: str | None = None,
    viewer: Principal | None = None,
) -> Neighbourhood:
    """The traversal with datasets, columns and column mappings. As of an instant, the
    nodes and edges are those of that instant, the datasets today's (what names the
    assets), and columns and column mappings are left out: an export does not read
    their history (yet), and today's would not match the graph of that instant. With
    `viewer`, what that caller may not read is a stand-in, with no details."""
    view = await lineage.traverse(
        graph, root_id, direction, depth, limit, token_hash=token_hash, as_of=as_of, viewer=viewer
    )
    targets: dict[str, set[str]] = {}
    for edge in view.edges:
        targets.setdefault(edge["source"], set()).add(edge["target"])
    row = (
        await graph.read(
            "lineage.export_details",
            ids=sorted({node["id"] for node in view.nodes}),
            edges=[]
            if as_of
            else [{"source": s, "targets": sorted(t)} for s, t in targets.items()],
        )
    )[0]
    assets = row["assets"]
    if as_of:
        assets = [{**asset, "columns_json": None} for asset in assets]
    return assemble(view, assets, row["mappings"])
