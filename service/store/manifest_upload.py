"""A dbt manifest upload from spooled bytes to the summary: the one path the API, the
dashboard's Ingest page and the CLI (which posts to the API) share.

The body was spooled once with its gzip decided once (`service.store.spool`); here it
is parsed as it streams from the spool (inflating with a ceiling, so memory follows
what is kept, not the size of the body), or whole when it is small, in a worker
thread (within the process's inflation budget when gzip), then its namespace settled
and `service.store.manifest` plans and writes it within the configured manifest
timeout.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from service.domain.access.principal import Principal
from service.domain.assets import placing
from service.domain.datasets import DatasetNameError
from service.domain.dbt.identity import upload_namespace
from service.domain.dbt.slim import Unstreamable, slim_manifest
from service.domain.dbt_manifest import ManifestContents, ManifestError, read_manifest
from service.domain.decompress import Corrupt, TooLarge, gunzip
from service.errors import (
    FieldError,
    PayloadTooLarge,
    Unavailable,
    Unprocessable,
    validation_error,
)
from service.graph import Graph
from service.models.manifest import ManifestSummary
from service.settings import Settings
from service.store import domain_guard
from service.store import manifest as store
from service.store.spool import Spooled, parse_json, parse_upload

T = TypeVar("T")
# A body that inflates to at most this many bytes is parsed whole, in C (orjson), in
# about half the streaming parser's time; what it holds meanwhile (the bytes and the
# whole document, about 3x) stays small beside what a streamed upload may keep.
WHOLE_BYTES = 4 * 1024 * 1024


class Budget(Protocol):
    """Runs CPU-bound work in a worker thread, a bounded number at once
    (`service.store.inflation.InflationBudget`)."""

    async def run(self, fn: Callable[..., T], *args: Any) -> T: ...


@dataclass(frozen=True)
class ManifestUpload:
    """What the sender asked for besides the bytes."""

    actor: str
    project: str | None = None
    namespace: str | None = None  # None: the one configured for the manifest's adapter
    prune: bool = True
    column_lineage: bool = True
    # Whose rights in each asset's domain the upload is held to (None: nobody's, the
    # command line's own path with direct database access).
    principal: Principal | None = None


async def ingest_upload(
    graph: Graph, body: Spooled, upload: ManifestUpload, settings: Settings, budget: Budget
) -> ManifestSummary:
    """Parse, plan and write a spooled manifest: 413 past the manifest limit after
    inflation, 422 for what is no manifest (nothing written), 403 `domain_forbidden` for
    assets the principal may not write (nothing written), then the summary."""
    contents, namespace = await read_upload(body, upload, settings, budget)
    if upload.principal is not None:
        await domain_guard.require_writable(
            graph,
            upload.principal,
            [asset.id for asset in contents.assets],
            new_fields={asset.id: placing(asset.id, asset) for asset in contents.assets},
        )
    return await store.ingest(
        graph,
        contents,
        prune=upload.prune,
        actor=upload.actor,
        namespace=namespace,
        timeout_s=settings.limits.manifest_timeout_s,
    )


async def read_upload(
    body: Spooled, upload: ManifestUpload, settings: Settings, budget: Budget
) -> tuple[ManifestContents, str | None]:
    """The manifest read off the event loop (413 past the manifest limit after inflation,
    422 for what is no manifest) and the namespace its tables live in: what an upload
    writes, and what a change-impact check compares without writing."""
    limit = settings.limits.max_manifest_bytes
    args = (body, limit, upload.project, upload.column_lineage)
    if body.gzipped:
        contents = await budget.run(read_contents, *args)
    else:
        contents = await asyncio.to_thread(read_contents, *args)
    return contents, namespace_for(upload.namespace, settings.dataset_namespaces, contents)


def read_contents(
    body: Spooled, limit: int, project: str | None, column_lineage: bool
) -> ManifestContents:
    """CPU-bound: runs in a worker thread so the event loop keeps serving."""
    document = read_document(body, limit)
    try:
        return read_manifest(document, project, column_lineage=column_lineage)
    except ManifestError as exc:
        raise invalid(exc.msg, exc.loc) from exc


def read_document(body: Spooled, limit: int) -> Any:
    """The manifest without what `read_manifest` never reads, parsed as the spool is
    read. A body the streaming parser refuses is parsed whole, which decides the answer
    (the error, or the document) exactly as the whole-document parser would; so is a
    small one (`_small_body`), the same answer sooner."""
    small = _small_body(body, limit)
    if small is not None:
        return parse_json(small, invalid)
    try:
        return slim_manifest(body.inflated(limit))
    except TooLarge as exc:
        raise PayloadTooLarge(str(exc)) from exc
    except Corrupt as exc:
        raise invalid(str(exc)) from exc
    except Unstreamable:
        body.file.seek(0)
        return parse_upload(body.file.read(), limit, body.gzipped, invalid)


def _small_body(body: Spooled, limit: int) -> bytes | None:
    """The body inflated, when it is at most WHOLE_BYTES so, else None (it streams).
    Inflating stops past WHOLE_BYTES: a small gzip body that inflates to more holds no
    more than that before it streams."""
    body.file.seek(0, os.SEEK_END)
    if body.file.tell() > WHOLE_BYTES:
        return None
    body.file.seek(0)
    raw = body.file.read()
    if not body.gzipped:
        return raw
    try:
        return gunzip(raw, min(limit, WHOLE_BYTES))
    except TooLarge as exc:
        if limit <= WHOLE_BYTES:
            raise PayloadTooLarge(str(exc)) from exc
        return None
    except Corrupt as exc:
        raise invalid(str(exc)) from exc


def invalid(msg: str, loc: tuple[str | int, ...] = ()) -> Unprocessable:
    return Unprocessable(
        f"Not a dbt manifest this service can read: {msg}",
        code="invalid_manifest",
        errors=[FieldError(("body", *loc), msg, "invalid_manifest")],
    )


def namespace_for(
    given: str | None, configured: tuple[tuple[str, str], ...], contents: ManifestContents
) -> str | None:
    """The upload's `namespace`, else the one configured for its adapter: 422 when the
    given one is no namespace; a configured one that is none is a setting to fix (503)."""
    if given is not None:
        try:
            return upload_namespace(given, None, ())
        except DatasetNameError as exc:
            raise validation_error(("query", "namespace"), str(exc), "invalid_dataset") from exc
    try:
        return upload_namespace(None, contents.adapter, configured)
    except DatasetNameError as exc:
        raise Unavailable(
            f"GOVERNANCE_DATASET_NAMESPACES holds no valid namespace for {contents.adapter}: {exc}",
            code="misconfigured",
        ) from exc
