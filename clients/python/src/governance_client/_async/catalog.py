"""Assets and lineage."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from typing import Any

from governance_client import _calls as calls
from governance_client._async.paging import paginate
from governance_client._async.resource import AsyncResource, AsyncVersioned
from governance_client._call import Call, RequestOptions, chunk_options, chunked
from governance_client._calls import (
    EMPTY_BULK_RESULT,
    EMPTY_OPENLINEAGE_RESULT,
    MAX_BULK_EDGES,
    MAX_OPENLINEAGE_EVENTS,
    MAX_SQL_STATEMENTS,
    Artifact,
    EdgeEnd,
    EdgeLike,
    Instant,
    SqlStatements,
)
from governance_client.types import (
    Asset,
    AssetColumns,
    AssetVersion,
    BulkResult,
    Column,
    ColumnGraph,
    ColumnMappingInput,
    ColumnTagRule,
    Dataset,
    Direction,
    Edge,
    ExportFormat,
    ImpactReport,
    LineageDiff,
    LineageGraph,
    ManifestSummary,
    MappingKind,
    OpenLineageResult,
    Page,
    PropertyValue,
    SqlResult,
    SqlStatement,
)

OpenLineageEvents = Mapping[str, Any] | Iterable[Mapping[str, Any]]


class AsyncAssets(AsyncVersioned[Asset]):
    """``/assets``: data sets, models, dashboards and anything else lineage can link.
    ``get``, ``patch`` and ``delete`` (which deletes the asset's edges too) take an
    asset id."""

    path = "/assets"

    async def list(
        self,
        *,
        type: str | None = None,
        platform: str | None = None,
        tags: str | Sequence[str] | None = None,
        owner: str | None = None,
        q: str | None = None,
        placeholder: bool | None = None,
        dataset_namespace: str | None = None,
        dataset_name: str | None = None,
        domain: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Page[Asset]:
        """One page of assets ordered by id. ``tags``: every one must match;
        ``q``: a case-insensitive substring of id, name or description;
        ``dataset_namespace``: the assets holding a dataset there, and with
        ``dataset_name`` the one holding that dataset (0 or 1 items; both are
        normalised as the service stores them, so any spelling finds it);
        ``domain``: the assets in that domain."""
        call = calls.list_assets(
            type=type,
            platform=platform,
            tags=tags,
            owner=owner,
            q=q,
            placeholder=placeholder,
            dataset_namespace=dataset_namespace,
            dataset_name=dataset_name,
            domain=domain,
            limit=limit,
            cursor=cursor,
        )
        return await self._client._call(call, options)

    def iter(
        self,
        *,
        type: str | None = None,
        platform: str | None = None,
        tags: str | Sequence[str] | None = None,
        owner: str | None = None,
        q: str | None = None,
        placeholder: bool | None = None,
        dataset_namespace: str | None = None,
        dataset_name: str | None = None,
        domain: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[Asset]:
        """Every matching asset, fetching page after page (``limit`` assets each) as
        the loop goes on; ``cursor``: start at that page."""
        return paginate(
            lambda at: self.list(
                type=type,
                platform=platform,
                tags=tags,
                owner=owner,
                q=q,
                placeholder=placeholder,
                dataset_namespace=dataset_namespace,
                dataset_name=dataset_name,
                domain=domain,
                limit=limit,
                cursor=at,
                options=options,
            ),
            cursor,
        )

    async def create(
        self,
        id: str,
        *,
        name: str,
        type: str,
        platform: str | None = None,
        description: str | None = None,
        owners: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        columns: Sequence[Column | Mapping[str, Any]] | None = None,
        properties: Mapping[str, PropertyValue] | None = None,
        dataset: Dataset | None = None,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> Asset:
        """Create an asset; ``ConflictError`` if a real asset has that id (a
        placeholder made by lineage is claimed and keeps its edges). ``dataset``:
        the physical dataset it is; a placeholder holding it is merged in (its id
        becomes one of ``aliases``), another asset holding it is ``ConflictError``
        with code ``dataset_taken`` (``problem["holder"]`` names that asset)."""
        body = calls.asset_fields(
            name=name,
            type=type,
            platform=platform,
            description=description,
            owners=owners,
            tags=tags,
            columns=columns,
            properties=properties,
            dataset=dataset,
        )
        return await self._client._call(calls.create_asset(id, body, idempotency_key), options)

    async def put(
        self,
        id: str,
        *,
        name: str,
        type: str,
        platform: str | None = None,
        description: str | None = None,
        owners: Sequence[str] | None = None,
        tags: Sequence[str] | None = None,
        columns: Sequence[Column | Mapping[str, Any]] | None = None,
        properties: Mapping[str, PropertyValue] | None = None,
        dataset: Dataset | None = None,
        if_match: int | str | None = None,
        options: RequestOptions | None = None,
    ) -> Asset:
        """Create or wholly replace an asset (fields left out are cleared, ``dataset``
        too): 201 or 200, which ``with_raw_response`` tells apart. ``if_match=version``:
        ``PreconditionFailedError`` if it changed meanwhile."""
        body = calls.asset_fields(
            name=name,
            type=type,
            platform=platform,
            description=description,
            owners=owners,
            tags=tags,
            columns=columns,
            properties=properties,
            dataset=dataset,
        )
        return await self._client._call(calls.put_asset(id, body, if_match), options)

    async def list_history(
        self,
        id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Page[AssetVersion]:
        """One page of the asset's versions, newest first: each ``{"version", "at",
        "actor", "changes"}``, the changes naming each field with its old and new
        value and each column added, removed or retyped."""
        call = calls.list_history(id, limit=limit, cursor=cursor)
        return await self._client._call(call, options)

    def iter_history(
        self,
        id: str,
        *,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[AssetVersion]:
        """Every version of the asset, newest first, page after page."""
        return paginate(
            lambda at: self.list_history(id, limit=limit, cursor=at, options=options), cursor
        )

    async def columns(self, id: str, *, options: RequestOptions | None = None) -> AssetColumns:
        """The asset's columns with their own ``tags`` and the tags each ``inherited``
        along column lineage, each with the column it came from and the path it took
        (docs/column-classification.md). ``NotFoundError`` for an unknown asset."""
        return await self._client._call(calls.asset_columns(id), options)

    async def get_column_tag_rule(
        self, tag: str, *, options: RequestOptions | None = None
    ) -> ColumnTagRule:
        """Which mapping kinds stop column tag ``tag`` downstream; a tag with no rule
        of its own answers the default (``default`` true)."""
        return await self._client._call(calls.get_column_tag_rule(tag), options)

    async def put_column_tag_rule(
        self,
        tag: str,
        stops: Iterable[MappingKind],
        *,
        options: RequestOptions | None = None,
    ) -> ColumnTagRule:
        """Set the mapping kinds that stop ``tag`` (``[]``: none does); the service
        recomputes where the tag is inherited. Idempotent."""
        return await self._client._call(calls.put_column_tag_rule(tag, stops), options)


class AsyncLineage(AsyncResource):
    """``/lineage``: directed edges ``source -> target`` (with column mappings),
    traversals over them, and ingestion from dbt and OpenLineage."""

    path = "/lineage"

    async def add_edge(
        self,
        source: EdgeEnd,
        target: EdgeEnd,
        transformation: str | None = None,
        *,
        columns: Sequence[ColumnMappingInput | Mapping[str, Any]] | None = None,
        strict: bool = False,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> Edge:
        """Create or update one edge (201 or 200). ``columns``: column mappings
        ``{"source", "target", "transformation"?}``, added to those the edge has.
        ``source`` and ``target`` are asset ids or datasets (``{"namespace", "name"}``,
        resolved to the asset holding them). Unknown ids, and datasets nobody holds,
        become placeholder assets (a dataset's is ``<namespace>/<name>``) unless
        ``strict``, which raises ``ValidationError`` (``unknown_assets``)."""
        call = calls.add_edge(source, target, transformation, columns, strict, idempotency_key)
        return await self._client._call(call, options)

    async def bulk(
        self,
        edges: Iterable[EdgeLike],
        *,
        strict: bool = False,
        origin: str | None = None,
        replace: bool = False,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> BulkResult:
        """Write 1 to 10,000 edges in one atomic request: mappings ``{"source",
        "target", "transformation"?, "columns"?}`` or tuples ``(source, target[,
        transformation])``, each end an asset id or a dataset. See ``push_bulk`` for more.
        ``origin``: the writer the edges are asserted by (default ``api``); with
        ``replace``, these edges become that origin's whole set: those it asserted
        before and not now are retired (counted in ``retired``; an edge no other origin
        asserts leaves the graph, counted in ``retired["edges_removed"]``). The service
        merges edges, so a repeat writes nothing new: it is retried with no
        Idempotency-Key unless you give one."""
        call = calls.bulk(edges, strict, idempotency_key, origin, replace)
        return await self._client._call(call, options)

    async def push_bulk(
        self,
        edges: Iterable[EdgeLike],
        *,
        strict: bool = False,
        origin: str | None = None,
        replace: bool = False,
        chunk_size: int = MAX_BULK_EDGES,
        options: RequestOptions | None = None,
    ) -> BulkResult:
        """Write any number of edges, ``chunk_size`` per request, and add up the
        results. Each request is atomic; the whole is not, but repeating it is safe.
        A replacement (``replace``) is one request, sent even with no edges (the origin
        then asserts none), so its edges must fit in one chunk: more raise
        ``ValueError`` before anything is sent."""
        size = calls.check_chunk_size(chunk_size, MAX_BULK_EDGES)
        chunks = chunked(edges, size)
        if replace:
            chunks = iter([calls.one_replacement(chunks, size)])
        total = EMPTY_BULK_RESULT
        for index, chunk in enumerate(chunks):
            each = chunk_options(options, index)
            part = await self.bulk(
                chunk, strict=strict, origin=origin, replace=replace, options=each
            )
            total = calls.add_counts(total, part)
        return total

    async def ingest_openlineage(
        self,
        events: OpenLineageEvents,
        *,
        chunk_size: int = MAX_OPENLINEAGE_EVENTS,
        options: RequestOptions | None = None,
    ) -> OpenLineageResult:
        """Ingest OpenLineage run events (one event, or any iterable of them, sent
        ``chunk_size`` per request and the summaries added up). COMPLETE events
        become edges with origin ``openlineage:<job namespace>/<job name>`` between
        datasets ``<namespace>/<name>``, with their column lineage and schemas; the
        other event types record the run's state. Events sent twice converge, so it
        is retried, with no Idempotency-Key unless ``options`` gives one."""
        if isinstance(events, Mapping):
            return await self._client._call(calls.openlineage(events), options)
        size = calls.check_chunk_size(chunk_size, MAX_OPENLINEAGE_EVENTS)
        total = EMPTY_OPENLINEAGE_RESULT
        for index, chunk in enumerate(chunked(events, size)):
            call = calls.openlineage(chunk)
            part = await self._client._call(call, chunk_options(options, index))
            total = calls.add_counts(total, part)
        return total

    async def upload_manifest(
        self,
        manifest: Artifact,
        *,
        project: str | None = None,
        namespace: str | None = None,
        prune: bool = True,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> ManifestSummary:
        """Ingest a dbt ``manifest.json`` (a path, or its bytes, gzipped or not):
        its models, sources, seeds and snapshots become assets, their dependencies
        edges and their tests quality rules. ``namespace`` is where the project's
        tables live (``snowflake://acme-prod``): each node then holds the dataset
        ``(namespace, database.schema.identifier)``, and a placeholder holding it is
        merged in (default: the namespace the service has configured for the
        adapter, else none). ``prune`` removes what an earlier upload for the same
        ``project`` made and this one no longer has. Sent gzipped, with a 600 s
        timeout; safe to repeat, so it is retried."""
        call = calls.upload_manifest(
            manifest,
            project=project,
            namespace=namespace,
            prune=prune,
            idempotency_key=idempotency_key,
        )
        return await self._client._call(call, options)

    async def check_manifest(
        self,
        manifest: Artifact,
        *,
        project: str | None = None,
        namespace: str | None = None,
        depth: int | None = None,
        idempotency_key: str | None = None,
        options: RequestOptions | None = None,
    ) -> ImpactReport:
        """What uploading a candidate dbt ``manifest.json`` would break, writing
        nothing (``POST /impact/manifest``; the manifest and ``project``/``namespace``
        as for ``upload_manifest``): its ``changes`` against the stored project (models
        and columns removed, columns retyped, tests removed, ...), each ``breaking`` or
        not, and every asset downstream of a breaking change (``impacted``, at column
        level where column lineage says, with its ``owners`` and the path ``via``).
        ``breaking`` tells whether any change is. A CI step fails the pull request on
        it. ``depth``: the most hops walked downstream (default: the service's maximum).
        A project never uploaded is ``NotFoundError`` (``unknown_project``). Sent
        gzipped, with a 600 s timeout; retried, as it writes nothing."""
        call = calls.check_manifest(
            manifest,
            project=project,
            namespace=namespace,
            depth=depth,
            idempotency_key=idempotency_key,
        )
        return await self._client._call(call, options)

    async def ingest_sql(
        self,
        sql: str | SqlStatements,
        *,
        dialect: str,
        namespace: str,
        default_database: str | None = None,
        default_schema: str | None = None,
        source: str | None = None,
        chunk_size: int = MAX_SQL_STATEMENTS,
        options: RequestOptions | None = None,
    ) -> SqlResult:
        """Ingest SQL as lineage: a ``str`` is one statement or a ``;``-separated
        script; any other iterable is a query log, each entry a statement's text or
        ``{"sql", "query_id"?, "user"?, "timestamp"?}``, sent ``chunk_size`` per
        request (a generator read one chunk at a time) and the results added up,
        failure indexes counted from the log's start. Parsed in ``dialect``
        (``snowflake``, ``postgres``, ``bigquery``, ...); each table, completed with
        ``default_database`` and ``default_schema``, is the dataset ``(namespace,
        db.schema.table)``, resolved to the asset holding it (a placeholder is made
        when none does). A statement that writes a table from others becomes edges
        with column mappings, origin ``sql:<source>`` (default ``sql:api``); one that
        does not parse is listed in ``failures``. Safe to repeat, so it is retried."""

        def call(part: str | list[str | SqlStatement]) -> Call[SqlResult]:
            return calls.ingest_sql(
                part,
                dialect=dialect,
                namespace=namespace,
                default_database=default_database,
                default_schema=default_schema,
                source=source,
            )

        if isinstance(sql, str):
            return await self._client._call(call(sql), options)
        size = calls.check_chunk_size(chunk_size, MAX_SQL_STATEMENTS)
        total = calls.empty_sql_result(source)
        offset = 0
        for index, chunk in enumerate(chunked(sql, size)):
            part = await self._client._call(call(chunk), chunk_options(options, index))
            total = calls.add_counts(total, calls.offset_failures(part, offset))
            offset += len(chunk)
        return total

    async def list_edges(
        self,
        *,
        source: str | None = None,
        target: str | None = None,
        origin: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> Page[Edge]:
        """One page of edges ordered by (source, target), each with its ``columns``."""
        call = calls.list_edges(
            source=source, target=target, origin=origin, limit=limit, cursor=cursor
        )
        return await self._client._call(call, options)

    def iter_edges(
        self,
        *,
        source: str | None = None,
        target: str | None = None,
        origin: str | None = None,
        limit: int | None = None,
        cursor: str | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[Edge]:
        """Every matching edge, fetching page after page (``limit`` edges each) as
        the loop goes on; ``cursor``: start at that page."""
        return paginate(
            lambda at: self.list_edges(
                source=source,
                target=target,
                origin=origin,
                limit=limit,
                cursor=at,
                options=options,
            ),
            cursor,
        )

    async def delete_edge(
        self, source: str, target: str, *, options: RequestOptions | None = None
    ) -> None:
        """Delete one edge and its column mappings; ``NotFoundError`` if there is none."""
        await self._client._call(calls.delete_edge(source, target), options)

    async def get(
        self,
        id: str,
        *,
        direction: Direction | None = None,
        depth: int | None = None,
        limit: int | None = None,
        as_of: Instant | None = None,
        cursor: str | None = None,
        types: str | Sequence[str] | None = None,
        platforms: str | Sequence[str] | None = None,
        tags: str | Sequence[str] | None = None,
        owners: str | Sequence[str] | None = None,
        fanout: int | None = None,
        options: RequestOptions | None = None,
    ) -> LineageGraph:
        """One page of the lineage graph around an asset: ``direction`` both
        (default), upstream or downstream; ``depth`` hops (1-50, default 5); at most
        ``limit`` nodes (the root, on the first page, included). ``cursor``: a page's
        ``next_cursor``, to go on with the same parameters (``lineage_pages`` follows
        them). ``types``, ``platforms``, ``tags``, ``owners``: show only assets with
        one of the values of each filter given (the walk goes through the others,
        counted in ``hidden``); ``fanout``: each asset expands at most that many
        neighbours (the cut ones in ``capped``). ``as_of``: the graph as it stood at
        that moment (``NotFoundError`` if the asset did not exist then; not with
        filters or ``fanout``). Every traversal takes these."""
        walk = calls.WalkOptions(types, platforms, tags, owners, fanout)
        call = calls.traverse(
            id,
            direction=direction,
            depth=depth,
            limit=limit,
            as_of=as_of,
            cursor=cursor,
            walk=walk,
        )
        return await self._client._call(call, options)

    async def upstream(
        self,
        id: str,
        *,
        depth: int | None = None,
        limit: int | None = None,
        as_of: Instant | None = None,
        cursor: str | None = None,
        types: str | Sequence[str] | None = None,
        platforms: str | Sequence[str] | None = None,
        tags: str | Sequence[str] | None = None,
        owners: str | Sequence[str] | None = None,
        fanout: int | None = None,
        options: RequestOptions | None = None,
    ) -> LineageGraph:
        """What ``id`` is made from (or was, ``as_of`` a moment), to ``depth`` hops:
        one page, as ``get``."""
        walk = calls.WalkOptions(types, platforms, tags, owners, fanout)
        call = calls.traverse(
            id,
            direction=None,
            depth=depth,
            limit=limit,
            as_of=as_of,
            path="/upstream",
            cursor=cursor,
            walk=walk,
        )
        return await self._client._call(call, options)

    async def downstream(
        self,
        id: str,
        *,
        depth: int | None = None,
        limit: int | None = None,
        as_of: Instant | None = None,
        cursor: str | None = None,
        types: str | Sequence[str] | None = None,
        platforms: str | Sequence[str] | None = None,
        tags: str | Sequence[str] | None = None,
        owners: str | Sequence[str] | None = None,
        fanout: int | None = None,
        options: RequestOptions | None = None,
    ) -> LineageGraph:
        """What is made from ``id`` (or was, ``as_of`` a moment), to ``depth`` hops:
        one page, as ``get``."""
        walk = calls.WalkOptions(types, platforms, tags, owners, fanout)
        call = calls.traverse(
            id,
            direction=None,
            depth=depth,
            limit=limit,
            as_of=as_of,
            path="/downstream",
            cursor=cursor,
            walk=walk,
        )
        return await self._client._call(call, options)

    async def lineage_pages(
        self,
        id: str,
        *,
        direction: Direction | None = None,
        depth: int | None = None,
        limit: int | None = None,
        as_of: Instant | None = None,
        cursor: str | None = None,
        types: str | Sequence[str] | None = None,
        platforms: str | Sequence[str] | None = None,
        tags: str | Sequence[str] | None = None,
        owners: str | Sequence[str] | None = None,
        fanout: int | None = None,
        options: RequestOptions | None = None,
    ) -> AsyncIterator[LineageGraph]:
        """Every page of the traversal ``get`` answers (same arguments; ``limit`` is
        each page's size), fetching the next only when the loop reaches it, until
        ``next_cursor`` is null: together they hold every node and edge of the
        neighbourhood once. ``cursor``: start at that page."""
        while True:
            page = await self.get(
                id,
                direction=direction,
                depth=depth,
                limit=limit,
                as_of=as_of,
                cursor=cursor,
                types=types,
                platforms=platforms,
                tags=tags,
                owners=owners,
                fanout=fanout,
                options=options,
            )
            yield page
            cursor = page["next_cursor"]
            if cursor is None:
                return

    async def diff(
        self,
        id: str,
        from_: Instant,
        to: Instant | None = None,
        *,
        direction: Direction | None = None,
        depth: int | None = None,
        limit: int | None = None,
        options: RequestOptions | None = None,
    ) -> LineageDiff:
        """How the lineage around ``id`` changed from one moment to another (``to``:
        now by default), over both neighbourhoods (``direction``, ``depth``, ``limit``
        as for ``get``): ``added`` and ``removed``, each ``{"nodes", "edges"}`` in the
        shapes of a traversal, and ``changed["edges"]``, those in both whose
        transformation changed. ``NotFoundError`` if the asset existed at neither."""
        call = calls.diff(id, from_, to, direction=direction, depth=depth, limit=limit)
        return await self._client._call(call, options)

    async def export(
        self,
        id: str,
        format: ExportFormat,
        *,
        direction: Direction | None = None,
        depth: int | None = None,
        limit: int | None = None,
        as_of: Instant | None = None,
        options: RequestOptions | None = None,
    ) -> str:
        """The lineage around ``id`` as a file's text: ``openlineage`` (a JSON array of
        RunEvents that ``ingest_openlineage`` takes back), ``dot``, ``mermaid`` or
        ``csv``; ``direction``, ``depth``, ``as_of`` as for ``get``, ``limit`` up to the
        service's export maximum. ``NotFoundError`` for an unknown asset."""
        call = calls.export_lineage(
            id, format, direction=direction, depth=depth, limit=limit, as_of=as_of
        )
        return await self._client._call(call, options)

    async def column_upstream(
        self,
        id: str,
        column: str,
        *,
        depth: int | None = None,
        limit: int | None = None,
        as_of: Instant | None = None,
        options: RequestOptions | None = None,
    ) -> ColumnGraph:
        """The columns that ``column`` of asset ``id`` is made from (or was, ``as_of``
        a moment), to ``depth`` hops: ``nodes`` ``{"asset", "column", "distance"}`` and
        the mappings among them."""
        call = calls.traverse_column(id, column, "upstream", depth=depth, limit=limit, as_of=as_of)
        return await self._client._call(call, options)

    async def column_downstream(
        self,
        id: str,
        column: str,
        *,
        depth: int | None = None,
        limit: int | None = None,
        as_of: Instant | None = None,
        options: RequestOptions | None = None,
    ) -> ColumnGraph:
        """The columns made from ``column`` of asset ``id`` (or that were, ``as_of`` a
        moment), to ``depth`` hops."""
        call = calls.traverse_column(
            id, column, "downstream", depth=depth, limit=limit, as_of=as_of
        )
        return await self._client._call(call, options)
