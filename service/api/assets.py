"""/api/v1/assets: create, read, update, delete and list the assets of the catalogue."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.api.versioned import Text, Versioned
from service.domain import datasets
from service.domain.access import domain_rules
from service.domain.access.scopes import Scope
from service.domain.assets import placing
from service.domain.preconditions import Expected
from service.errors import BadRequest, validation_error
from service.graph import Graph
from service.http import json_response, path_param, read_json
from service.ids import id_problem
from service.models.asset_history import AssetHistoryPage, AssetVersion
from service.models.assets import Asset, AssetCreate, AssetFields, AssetPage, AssetReplace
from service.models.columns import AssetColumns
from service.models.datasets import MAX_DATASET_PART
from service.models.validation import validate
from service.openapi import PAGING, Doc, Param
from service.params import Params
from service.routing import Replay, Route, bearer
from service.store import asset_versions, column_tags, domain_guard
from service.store import assets as store
from service.store.assets import AssetFilter

BASE = "/api/v1/assets"
MAX_VERSION = 2**63 - 1  # a Neo4j integer


async def _upsert(
    graph: Graph, asset_id: str, fields: AssetFields, expected: Expected | None, actor: str
) -> tuple[Asset, bool]:
    """PUT may create, so the path's id obeys the rules a POSTed id does."""
    problem = id_problem(asset_id)
    if problem:
        raise validation_error(("path", "asset_id"), f"id {problem}", "invalid_id")
    return await store.upsert(graph, asset_id, fields, expected, actor)


async def _readable(request: Request, asset_id: str) -> None:
    await domain_guard.require_readable(deps.graph(request), deps.principal(request), asset_id)


async def _writable(request: Request, asset_id: str) -> None:
    await domain_guard.require_writable(deps.graph(request), deps.principal(request), [asset_id])


async def _writable_if_held(request: Request, asset_id: str) -> None:
    """PUT's check before its body: an asset it would create is judged by where the body
    places it (`_placeable`), as POST judges one."""
    await domain_guard.require_writable_if_held(
        deps.graph(request), deps.principal(request), asset_id
    )


async def _placeable(request: Request, asset_id: str, change: Any) -> None:
    await domain_guard.require_placeable(
        deps.graph(request), deps.principal(request), asset_id, change
    )


ASSETS = Versioned(
    base=BASE,
    param="asset_id",
    converter=":path",  # an asset id may hold a slash
    name="asset",
    tag="assets",
    model=Asset,
    fields=AssetFields,
    replace=AssetReplace,
    get=store.get,
    put=_upsert,
    patch=store.patch,
    delete=store.delete,
    patch_also=("id",),
    put_creates=True,
    write_errors=(409,),
    read_guard=_readable,
    write_guard=_writable,
    put_guard=_writable_if_held,
    change_guard=_placeable,
)


async def list_assets(request: Request) -> Response:
    params = Params(request)
    where = AssetFilter(
        type=params.text("type"),
        platform=params.text("platform"),
        owner=params.text("owner"),
        tags=tuple(params.many("tag")),
        placeholder=params.flag("placeholder"),
        q=params.text("q"),
        domain=params.text("domain"),
        readable=domain_rules.readable_private(deps.principal(request)),
        **_dataset_filter(params),
    )
    if where.q is not None:
        return await _search(request, where)
    paging = deps.paging(request)
    rows = await store.page(deps.graph(request), where, paging.after, paging.fetch)
    return paging.respond(rows, key=lambda a: a.id)


def _dataset_filter(params: Params) -> dict[str, str]:
    """`dataset_namespace` alone lists a namespace; with `dataset_name`, its holder.
    Both are normalised as stored, so any spelling of the dataset finds it."""
    namespace = params.text("dataset_namespace", MAX_DATASET_PART)
    name = params.text("dataset_name", MAX_DATASET_PART)
    if name is not None and namespace is None:
        raise validation_error(
            ("query", "dataset_namespace"), "dataset_name needs dataset_namespace", "missing"
        )
    if namespace is None:
        return {}
    try:
        ref = datasets.normalise(namespace, name or "_")
    except datasets.DatasetNameError as exc:
        raise validation_error(
            ("query", f"dataset_{exc.field}"), str(exc), "invalid_dataset"
        ) from exc
    if name is None:
        return {"dataset_namespace": ref.namespace}
    return {"dataset_key": ref.key}


async def _search(request: Request, where: AssetFilter) -> Response:
    """With `q` the list is ranked; its cursor holds the last item's [rank, id]."""
    paging = deps.paging(request, first=[None, ""])
    rank, after_id = paging.after
    if after_id == "" and rank is None:
        after = None
    elif isinstance(rank, int | float) and not isinstance(rank, bool) and isinstance(after_id, str):
        after = (float(rank), after_id)
    else:
        raise BadRequest("The cursor cannot be decoded.", code="invalid_cursor")
    rows = await store.search(deps.graph(request), where, after, paging.fetch)
    return paging.respond(
        rows, key=lambda r: [r.rank, r.asset.id], render=lambda r: r.asset.model_dump(mode="json")
    )


async def create_asset(request: Request) -> Response:
    body = validate(AssetCreate, await read_json(request))
    await domain_guard.require_writable(
        deps.graph(request),
        deps.principal(request),
        [body.id],
        new_fields={body.id: placing(body.id, body)},
    )
    asset = await store.create(deps.graph(request), body.id, body, deps.actor(request))
    return ASSETS.answer(asset, created=True)


async def asset_history(request: Request) -> Response:
    """Newest first; the cursor holds the last version shown (0: none yet)."""
    paging = deps.paging(request, first=0)
    if not 0 <= paging.after <= MAX_VERSION:
        raise BadRequest("The cursor cannot be decoded.", code="invalid_cursor")
    asset_id = path_param(request, "asset_id")
    await _readable(request, asset_id)
    versions = await asset_versions.history(
        deps.graph(request), asset_id, paging.after, paging.fetch
    )
    return paging.respond(versions, key=lambda v: v.version, render=_version_json)


async def asset_columns(request: Request) -> Response:
    graph = deps.graph(request)
    asset_id = path_param(request, "asset_id")
    await _readable(request, asset_id)
    asset = await store.get(graph, asset_id)
    listing = await column_tags.listing(graph, asset, deps.principal(request))
    return json_response(listing)


def _version_json(version: AssetVersion) -> object:
    return version.model_dump(mode="json", by_alias=True)


routes = [
    Route(BASE, list_assets, methods=["GET"], name="list_assets", policy=bearer(Scope.READ)),
    Route(
        BASE,
        create_asset,
        methods=["POST"],
        name="create_asset",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT, per_domain=True),
    ),
    # Before the item routes, whose `:path` would take `<id>/history` for an id.
    Route(
        BASE + "/{asset_id}/history",
        asset_history,
        methods=["GET"],
        name="asset_history",
        policy=bearer(Scope.READ),
    ),
    Route(
        BASE + "/{asset_id}/columns",
        asset_columns,
        methods=["GET"],
        name="asset_columns",
        policy=bearer(Scope.READ),
    ),
    *ASSETS.routes(),
]

_DATASET_RULES = (
    "With `dataset`, the asset holds that physical dataset: when a placeholder, an asset "
    "made by OpenLineage or SQL ingestion, or a dbt source holds it, that asset is merged "
    "into this one in the same transaction (its edges, column lineage, quality rules, owners "
    "and tags move over, its id becomes an alias of this asset, one `asset.merged` event). "
    "When another asset created explicitly holds it: 409 `dataset_taken` with `holder`."
)
_PLACED = (
    "The domains' rules place the asset by its new fields (its tags, its "
    "`properties.dbt_project`): a write that would move it into a domain where the caller "
    "may not write (or out of every domain while the caller's global role may not write "
    "there) is 403 `domain_forbidden` listing the asset with that destination (null for a "
    "private domain the caller may not read), nothing written."
)
_HISTORY = (
    "Every change to the asset is a version: creating, replacing or patching it, a dbt "
    "manifest upload rewriting it, an OpenLineage schema facet changing its columns, a "
    "placeholder made by lineage and later made real, a merge (the asset merged away ends "
    "with a version that says `deleted` and `merged_into`), and its deletion (a last version "
    "with `deleted` true, so a deleted asset's history stays readable; one created again "
    "continues it). A write that changes nothing adds no version. Each version lists its "
    "`changes` from the one before: each changed field with its `from` and `to` value "
    "(`properties.<key>` for a property, `dataset` as namespace and name), and each column "
    "`added`, `removed`, `retyped` or `changed` (description or tags), its `from` and `to` "
    "being the column as declared. The first version (or the oldest one retention kept) is "
    "compared with nothing: every field with a value reads as `set` from null and every "
    "column as `added`. Versions made for assets that existed before history was kept have "
    "the actor `system` and the asset's creation time. Paged like every list: `limit`, and "
    "`next_cursor` to continue with older versions. A former id (an asset merged into "
    "another) answers its own versions, or when it has none, those of the asset it names. "
    "404 `asset_not_found` for an id that never named an asset. The id is one "
    "percent-encoded path segment."
)
_COLUMNS = (
    "Column classification: each column's own `tags` (set through the asset's `columns`) "
    "and the tags it `inherited` along column lineage, each with the column it came `from` "
    "and the `path` that brought it (fewest mappings; each step names the kind of the "
    "mapping into it). A tag follows a mapping unless the mapping's kind stops it: "
    "`masking`, `aggregation` and `indirect` stop every tag; `identity`, `transformation` "
    "and `unknown` carry it. Kinds come from OpenLineage column-lineage facets, from the SQL "
    "expression computing the column (dbt manifests, SQL ingestion), or from the mapping as "
    "written (`columns[].kind`, else read from its `transformation`). Lists the declared "
    "columns in order, then columns known only to column lineage that hold or inherit a "
    "tag. A former id answers the asset it names; 404 `asset_not_found` otherwise. The id is "
    "one percent-encoded path segment. Details: docs/column-classification.md."
)
docs = {
    "list_assets": Doc(
        "List assets",
        "assets",
        params=(
            *PAGING,
            Param("type"),
            Param("platform"),
            Param("owner"),
            Param(
                "tag",
                schema={"type": "array", "items": {"type": "string"}},
                description="repeatable; every tag must match",
            ),
            Param(
                "q",
                description="case-insensitive substring of id, name or description (any "
                "characters; none is special). With q the items are ranked, best first: id or "
                "name equal to q, then name containing it, then id, then description only, and "
                "within each by full-text relevance; the cursor continues that order",
            ),
            Param("placeholder", schema={"type": "boolean"}),
            Param(
                "dataset_namespace",
                schema={"type": "string", "maxLength": MAX_DATASET_PART},
                description="assets whose dataset lies in this namespace (normalised first: "
                "`postgres://DB` finds `postgres://db:5432`)",
            ),
            Param(
                "dataset_name",
                schema={"type": "string", "maxLength": MAX_DATASET_PART},
                description="with dataset_namespace: the one asset holding that dataset (0 or 1 "
                "items), found by any spelling the platform's naming rules make equal",
            ),
            Param("domain", description="assets in the domain with this id (see `domain`)"),
        ),
        responses={200: AssetPage},
        errors=(422,),
    ),
    "create_asset": Doc(
        "Create an asset",
        "assets",
        description="409 if a real asset has the id (or the id is a former id of one); a "
        "placeholder (made by lineage) is claimed and keeps its edges. Read-only fields in the "
        "body are ignored. Accepts Idempotency-Key. " + _DATASET_RULES,
        body=AssetCreate,
        responses={201: Asset},
        errors=(409, 413, 415, 422),
    ),
    "asset_history": Doc(
        "An asset's versions, newest first",
        "assets",
        description=_HISTORY,
        params=PAGING,
        responses={200: AssetHistoryPage},
        errors=(404,),
    ),
    "asset_columns": Doc(
        "An asset's columns with their direct and inherited tags",
        "assets",
        description=_COLUMNS,
        responses={200: AssetColumns},
        errors=(404,),
    ),
    **ASSETS.docs(
        get=Text("Get an asset", "A former id (alias) answers the asset it names."),
        put=Text(
            "Create or replace an asset",
            "Idempotent upsert for sync jobs: 201 when the id held no real asset, else 200. "
            "An unchanged body keeps the version. A former id (alias) replaces the asset it "
            "names. " + _PLACED + " " + _DATASET_RULES,
        ),
        patch=Text(
            "Update an asset (JSON Merge Patch)",
            "The id may be repeated as read. " + _PLACED,
        ),
        delete=Text("Delete an asset and its lineage edges"),
    ),
}
