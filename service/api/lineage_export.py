"""GET /api/v1/lineage/{id}/export: an asset's lineage neighbourhood as a file, in
OpenLineage, GraphViz DOT, Mermaid or CSV (`service.domain.lineage_export*`). The
dashboard serves the same handler behind its session."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service import clock
from service.api import deps
from service.api.lineage import BASE, DIRECTIONS
from service.domain.access.scopes import Scope
from service.domain.lineage_export import content_disposition
from service.domain.lineage_export_formats import FORMATS, NAMES
from service.errors import validation_error
from service.http import path_param
from service.openapi import Configured, Content, Doc, Param, configured_integer
from service.params import Params
from service.routing import Route, bearer
from service.store.lineage_export import neighbourhood

TRUNCATED_HEADER = "Lineage-Truncated"


async def export(request: Request) -> Response:
    asset_id = path_param(request, "asset_id")  # a broken path is 400 before any query check
    limits = deps.settings(request).limits
    params = Params(request)
    if request.query_params.get("format") is None:
        raise validation_error(("query", "format"), "format is required", "missing")
    fmt = FORMATS[params.choice("format", NAMES, NAMES[0])]
    direction = params.choice("direction", DIRECTIONS, "both")
    depth = params.integer("depth", limits.default_lineage_depth, 1, limits.max_lineage_depth)
    limit = params.integer("limit", limits.max_export_nodes, 1, limits.max_export_nodes)
    graph = await neighbourhood(
        deps.graph(request),
        asset_id,
        direction,
        depth,
        limit,
        token_hash=deps.token_to_recheck(request),
        as_of=params.instant("as_of"),
        viewer=deps.principal(request),
    )
    headers = {
        "Content-Disposition": content_disposition(graph.root, fmt.extension),
        TRUNCATED_HEADER: "true" if graph.truncated else "false",
    }
    body = fmt.render(graph, clock.now_iso())
    return Response(body, headers=headers, media_type=fmt.media_type)


routes = [
    Route(
        BASE + "/{asset_id}/export",
        export,
        methods=["GET"],
        name="export_lineage",
        policy=bearer(Scope.READ, rechecked=True),
    ),
]

_TEXT = {"type": "string"}
docs = {
    "export_lineage": Doc(
        "Export an asset's lineage neighbourhood as a file",
        "lineage",
        description="The traversal of `GET /lineage/{id}` (same `direction`, `depth`, `as_of`; "
        "`limit` up to `GOVERNANCE_MAX_EXPORT_NODES`, which is also its default, and 422 "
        "naming `limit` beyond it) written as a file, with `Content-Disposition: attachment` "
        "and a file name made from the root's id. A neighbourhood larger than `limit` is cut "
        "as the traversal cuts it: the `Lineage-Truncated` header says `true`, and DOT and "
        "Mermaid say so in a comment.\n\n"
        "- `openlineage` (`application/json`): an array of COMPLETE RunEvents that "
        "`POST /lineage/openlineage` takes back into the same graph (same asset ids, edges, "
        "transformations, column mappings and columns). One job per asset, namespace "
        "`governance.export`, named by the asset's id, its events' output the asset and "
        "inputs the sources of its edges (one event per distinct transformation, which is "
        "the `sql` job facet); all events carry the export's instant as `eventTime`. A "
        "dataset is the one the asset holds, else namespace `governance:asset` and the "
        "asset's id as name, which ingestion reads as that asset. Column mappings are the "
        "output's `columnLineage` facet, declared columns the `schema` facet.\n"
        "- `dot` (`text/vnd.graphviz`): a left-to-right digraph, each asset a box named by "
        "its id, the root bold, each edge's transformation its tooltip.\n"
        "- `mermaid` (`text/vnd.mermaid`): a left-to-right flowchart, nodes `n0`, `n1`, ... "
        "labelled with the asset id.\n"
        "- `csv` (`text/csv`): one table with a header; `kind` tells a `node` row (id in "
        "`source`), an `edge` row and a `column` row (a column mapping) apart. A text cell "
        "starting with `=`, `+`, `-`, `@`, tab or carriage return is prefixed with `'`, so a "
        "spreadsheet does not run it as a formula.\n\n"
        "Ids are escaped for each format (quotes, brackets, `#`, line breaks in names). As "
        "of an instant, columns and column mappings are left out. 404 `asset_not_found` "
        "for an unknown root (or one that did not exist at `as_of`); 422 naming the "
        "parameter for a missing or unknown `format` and for any other bad parameter.",
        params=(
            Param(
                "format",
                required=True,
                schema={"enum": list(NAMES)},
                description="the file's format",
            ),
            Param("direction", schema={"enum": list(DIRECTIONS), "default": "both"}),
            Param("depth", schema=configured_integer("max_lineage_depth", "default_lineage_depth")),
            Param(
                "limit",
                schema={
                    "type": "integer",
                    "minimum": 1,
                    "maximum": Configured("max_export_nodes"),
                    "default": Configured("max_export_nodes"),
                },
                description="most assets in the export, the root included",
            ),
            Param(
                "as_of",
                schema={"type": "string", "format": "date-time"},
                description="the lineage as it stood at this RFC 3339 instant",
            ),
        ),
        responses={
            200: Content(
                "the neighbourhood as a file in the asked format",
                {
                    "application/json": {
                        "type": "array",
                        "items": {"$ref": "#/components/schemas/RunEvent"},
                    },
                    "text/vnd.graphviz": _TEXT,
                    "text/vnd.mermaid": _TEXT,
                    "text/csv": _TEXT,
                },
                headers={
                    "Content-Disposition": 'attachment; filename="lineage-<root>.<ext>"',
                    TRUNCATED_HEADER: "`true` when the neighbourhood was cut at `limit`",
                },
            )
        },
        errors=(404, 422),
    ),
}
