"""/api/v1/assets: create, read, update, delete and list the assets of the catalogue."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from service.api import deps
from service.domain import datasets
from service.domain.access.scopes import Scope
from service.domain.preconditions import etag
from service.errors import BadRequest, validation_error
from service.http import (
    JSON,
    MERGE_PATCH_JSON,
    path_param,
    quote_segment,
    read_json,
    read_merge_patch,
    versioned,
)
from service.ids import id_problem
from service.models.assets import Asset, AssetCreate, AssetFields, AssetPage, AssetReplace
from service.models.datasets import MAX_DATASET_PART
from service.models.validation import validate
from service.openapi import IF_MATCH, PAGING, Doc, MergePatch, Param
from service.params import Params
from service.routing import Replay, Route, bearer
from service.store import assets as store
from service.store.assets import AssetFilter

BASE = "/api/v1/assets"


def _one(asset: Asset, status: int = 200, created: bool = False) -> Response:
    location = f"{BASE}/{quote_segment(asset.id)}" if created else None
    return versioned(asset, asset.version, status, location)


async def list_assets(request: Request) -> Response:
    params = Params(request)
    where = AssetFilter(
        type=params.text("type"),
        platform=params.text("platform"),
        owner=params.text("owner"),
        tags=tuple(params.many("tag")),
        placeholder=params.flag("placeholder"),
        q=params.text("q"),
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
    asset = await store.create(deps.graph(request), body.id, body, deps.actor(request))
    return _one(asset, 201, created=True)


async def get_asset(request: Request) -> Response:
    asset = await store.get(deps.graph(request), path_param(request, "asset_id"))
    if request.headers.get("if-none-match") == etag(asset.version):
        return Response(status_code=304, headers={"ETag": etag(asset.version)})
    return _one(asset)


async def put_asset(request: Request) -> Response:
    asset_id = path_param(request, "asset_id")
    problem = id_problem(asset_id)
    if problem:  # PUT may create: the path id obeys the rules a POSTed id does
        raise validation_error(("path", "asset_id"), f"id {problem}", "invalid_id")
    body = validate(AssetReplace, await read_json(request))
    if body.id is not None and body.id != asset_id:
        raise validation_error(("body", "id"), "id in the body differs from the id in the path")
    asset, created = await store.upsert(
        deps.graph(request), asset_id, body, deps.if_match(request), deps.actor(request)
    )
    return _one(asset, 201 if created else 200, created=created)


async def patch_asset(request: Request) -> Response:
    asset = await store.patch(
        deps.graph(request),
        path_param(request, "asset_id"),
        await read_merge_patch(request, AssetFields, also=("id",)),
        deps.if_match(request),
        deps.actor(request),
    )
    return _one(asset)


async def delete_asset(request: Request) -> Response:
    await store.delete(
        deps.graph(request),
        path_param(request, "asset_id"),
        deps.if_match(request),
        deps.actor(request),
    )
    return Response(status_code=204)


routes = [
    Route(BASE, list_assets, methods=["GET"], name="list_assets", policy=bearer(Scope.READ)),
    Route(
        BASE,
        create_asset,
        methods=["POST"],
        name="create_asset",
        policy=bearer(Scope.WRITE, replay=Replay.KEPT),
    ),
    Route(
        BASE + "/{asset_id:path}",
        get_asset,
        methods=["GET"],
        name="get_asset",
        policy=bearer(Scope.READ),
    ),
    Route(
        BASE + "/{asset_id:path}",
        put_asset,
        methods=["PUT"],
        name="put_asset",
        policy=bearer(Scope.WRITE),
    ),
    Route(
        BASE + "/{asset_id:path}",
        patch_asset,
        methods=["PATCH"],
        name="patch_asset",
        policy=bearer(Scope.WRITE),
    ),
    Route(
        BASE + "/{asset_id:path}",
        delete_asset,
        methods=["DELETE"],
        name="delete_asset",
        policy=bearer(Scope.WRITE),
    ),
]

_IF_MATCH = IF_MATCH
_DATASET_RULES = (
    "With `dataset`, the asset holds that physical dataset: when a placeholder, an asset "
    "made by OpenLineage or SQL ingestion, or a dbt source holds it, that asset is merged "
    "into this one in the same transaction (its edges, column lineage, quality rules, owners "
    "and tags move over, its id becomes an alias of this asset, one `asset.merged` event). "
    "When another asset created explicitly holds it: 409 `dataset_taken` with `holder`."
)
_ID_ERRORS = (404, 409, 412, 415, 422)
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
    "get_asset": Doc(
        "Get an asset", "assets", responses={200: Asset, 304: "not modified"}, errors=(404,)
    ),
    "put_asset": Doc(
        "Create or replace an asset",
        "assets",
        description="Idempotent upsert for sync jobs: 201 when the id held no real asset, else "
        "200. An unchanged body keeps the version. A former id (alias) replaces the asset it "
        "names. " + _DATASET_RULES,
        body=AssetReplace,
        params=(_IF_MATCH,),
        responses={200: Asset, 201: Asset},
        errors=_ID_ERRORS,
    ),
    "patch_asset": Doc(
        "Update an asset (JSON Merge Patch)",
        "assets",
        body=MergePatch(AssetFields),
        body_media_types=(MERGE_PATCH_JSON, JSON),
        params=(_IF_MATCH,),
        responses={200: Asset},
        errors=_ID_ERRORS,
    ),
    "delete_asset": Doc(
        "Delete an asset and its lineage edges",
        "assets",
        params=(_IF_MATCH,),
        responses={204: None},
        errors=(404, 412),
    ),
}
