package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.exception.GovernanceException;
import dev.governance.client.model.BulkOptions;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.ColumnGraph;
import dev.governance.client.model.DiffOptions;
import dev.governance.client.model.Direction;
import dev.governance.client.model.Edge;
import dev.governance.client.model.EdgeFilter;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.ExportRequest;
import dev.governance.client.model.ImpactOptions;
import dev.governance.client.model.ImpactReport;
import dev.governance.client.model.LineageDiff;
import dev.governance.client.model.LineageExport;
import dev.governance.client.model.LineageGraph;
import dev.governance.client.model.ManifestOptions;
import dev.governance.client.model.ManifestSummary;
import dev.governance.client.model.OpenLineageResult;
import dev.governance.client.model.Page;
import dev.governance.client.model.Saved;
import dev.governance.client.model.SqlInput;
import dev.governance.client.model.SqlResult;
import dev.governance.client.model.Traversal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code /lineage}: write edges one at a time or in bulk, ingest dbt manifests and OpenLineage
 * run events, list and delete edges, and traverse the graph of assets or of one column. Obtain
 * it with {@link GovernanceClient#lineage()}.
 *
 * <p>An edge's ends are asset ids or {@link dev.governance.client.model.Dataset datasets}
 * ({@link dev.governance.client.model.EdgeEnd}); a dataset names the asset holding it. An edge
 * naming an asset that does not exist (or a dataset nobody holds) creates a placeholder asset,
 * unless {@code strict} is true: then the service answers 422 {@code unknown_assets} and writes
 * nothing.
 */
public final class LineageService {
  /** The most edges (or OpenLineage run events) the service accepts in one request. */
  public static final int MAX_BULK_EDGES = 10_000;

  /**
   * How long one upload (a dbt manifest or run results) or SQL ingestion may take per attempt
   * at least; the client's own timeout applies when it is longer. Large manifests and query
   * logs take a while to ingest.
   */
  public static final Duration MANIFEST_TIMEOUT = Duration.ofMinutes(10);

  private static final TypeReference<Page<Edge>> PAGE = new TypeReference<>() {};
  private final Requester http;

  LineageService(Requester http) {
    this.http = http;
  }

  /** Creates the edge (created = true) or updates the existing pair's transformation. */
  public Saved<Edge> create(EdgeInput edge) {
    return create(edge, false);
  }

  public Saved<Edge> create(String source, String target) {
    return create(EdgeInput.of(source, target), false);
  }

  public Saved<Edge> create(EdgeInput edge, boolean strict) {
    Response<Edge> saved = createWithResponse(edge, strict, RequestOptions.DEFAULTS);
    return new Saved<>(saved.value(), saved.created());
  }

  /**
   * {@code POST /lineage}: creates the edge (201) or updates the pair (200); its column
   * mappings are added to those the edge has.
   */
  public Response<Edge> createWithResponse(EdgeInput edge, boolean strict, RequestOptions options) {
    return http.call(
        ApiCall.post("/lineage").param("strict", strictParam(strict)).json(edge).options(options),
        Edge.class);
  }

  /**
   * One atomic bulk request of 1-{@value #MAX_BULK_EDGES} edges: all written or none (422 lists
   * each bad item by index). Idempotent by nature (edges are merged), so it is retried without
   * an automatic {@code Idempotency-Key}; one given in the options is still sent. For more
   * edges use {@link #pushBulk}.
   */
  public BulkResult bulk(List<EdgeInput> edges) {
    return bulk(edges, false);
  }

  public BulkResult bulk(List<EdgeInput> edges, boolean strict) {
    return bulkWithResponse(edges, strict, RequestOptions.DEFAULTS).value();
  }

  /**
   * One bulk request written as {@code settings} say: e.g. {@code
   * BulkOptions.origin("airflow:sync").withReplace(true)} makes the edges that origin's whole
   * edge set, retiring the ones it asserted before and not now ({@link BulkResult#retired()}).
   */
  public BulkResult bulk(List<EdgeInput> edges, BulkOptions settings) {
    return bulkWithResponse(edges, settings, RequestOptions.DEFAULTS).value();
  }

  public Response<BulkResult> bulkWithResponse(
      List<EdgeInput> edges, boolean strict, RequestOptions options) {
    return bulkWithResponse(edges, BulkOptions.defaults().withStrict(strict), options);
  }

  public Response<BulkResult> bulkWithResponse(
      List<EdgeInput> edges, BulkOptions settings, RequestOptions options) {
    Objects.requireNonNull(settings, "settings: BulkOptions.defaults() for none");
    return http.call(
        ApiCall.post("/lineage/bulk")
            .param("strict", strictParam(settings.strict()))
            .param("origin", settings.origin())
            .param("replace", settings.replace() ? "true" : null)
            .json(edges)
            .replay(ApiCall.Replay.IDEMPOTENT)
            .options(options),
        BulkResult.class);
  }

  /** {@link #pushBulk(Iterable, int, boolean)} in chunks of {@value #MAX_BULK_EDGES}. */
  public BulkResult pushBulk(Iterable<EdgeInput> edges) {
    return pushBulk(edges, MAX_BULK_EDGES, false);
  }

  /** {@link #pushBulk(Iterable, int, boolean)} without {@code strict}. */
  public BulkResult pushBulk(Iterable<EdgeInput> edges, int chunkSize) {
    return pushBulk(edges, chunkSize, false);
  }

  /** {@link #pushBulk(Iterable, int, boolean, RequestOptions)} with the client's settings. */
  public BulkResult pushBulk(Iterable<EdgeInput> edges, int chunkSize, boolean strict) {
    return pushBulk(edges, chunkSize, strict, RequestOptions.DEFAULTS);
  }

  /**
   * Sends any number of edges as consecutive bulk requests of at most {@code chunkSize}
   * (1-{@value #MAX_BULK_EDGES}) and sums the answers. Each chunk is atomic on its own; if one
   * fails, the exception propagates and the chunks before it stay written (repeating the whole
   * push is safe: bulk writes are idempotent). No edges means no request and an empty result.
   * A pair repeated in two chunks counts as created once and existing once. A chunk refused
   * as too large (413, e.g. long transformations) is split in halves until it fits.
   *
   * @param options sent with every chunk, except an idempotency key (chunks differ in body)
   */
  public BulkResult pushBulk(
      Iterable<EdgeInput> edges, int chunkSize, boolean strict, RequestOptions options) {
    return pushBulk(edges, chunkSize, BulkOptions.defaults().withStrict(strict), options);
  }

  /**
   * {@link #pushBulk(Iterable, int, boolean, RequestOptions)} written as {@code settings} say
   * (origin, strict). A replacement ({@link BulkOptions#replace()}) is one request, sent even
   * with no edges (the origin then asserts none): its edges must fit in one chunk, else an
   * {@code IllegalArgumentException} before anything is sent.
   */
  public BulkResult pushBulk(
      Iterable<EdgeInput> edges, int chunkSize, BulkOptions settings, RequestOptions options) {
    Objects.requireNonNull(settings, "settings: BulkOptions.defaults() for none");
    if (settings.replace()) {
      return bulkWithResponse(oneChunk(edges, chunkSize), settings, options).value();
    }
    return Chunks.push(
        edges,
        chunkSize,
        MAX_BULK_EDGES,
        BulkResult.EMPTY,
        chunk -> bulkWithResponse(chunk, settings, RequestOptions.perChunk(options)).value(),
        BulkResult::plus);
  }

  private static List<EdgeInput> oneChunk(Iterable<EdgeInput> edges, int chunkSize) {
    if (chunkSize < 1 || chunkSize > MAX_BULK_EDGES) {
      throw new IllegalArgumentException(
          "chunkSize must be between 1 and " + MAX_BULK_EDGES + ", got " + chunkSize);
    }
    List<EdgeInput> all = new ArrayList<>();
    for (EdgeInput edge : edges) {
      if (all.size() == chunkSize) {
        throw new IllegalArgumentException(
            "a replacement is one request: at most " + chunkSize + " edges (chunkSize)");
      }
      all.add(edge);
    }
    return all;
  }

  /**
   * {@code POST /lineage/openlineage}: ingests one OpenLineage RunEvent, or an array of up to
   * {@value #MAX_BULK_EDGES}, in one transaction (validated whole first: a 422 names each bad
   * field and nothing is written). Each input-output dataset pair of a COMPLETE event becomes
   * an edge with origin {@code openlineage:<job namespace>/<job name>}; dataset ids are
   * {@code <namespace>/<name>}; the {@code columnLineage} facet gives column mappings and the
   * {@code schema} facet the asset's columns. Other event types record the run's state.
   * Ingesting the same events again changes nothing, so the call is retried without an
   * automatic {@code Idempotency-Key} (one given in the options is still sent).
   *
   * @param event a RunEvent (or a list of them) as a {@code Map}/{@code List} of JSON values,
   *     or any object a Jackson {@code ObjectMapper} writes as that JSON (the OpenLineage Java
   *     client's {@code RunEvent})
   */
  public OpenLineageResult openLineage(Object event) {
    return openLineageWithResponse(event, RequestOptions.DEFAULTS).value();
  }

  public Response<OpenLineageResult> openLineageWithResponse(Object event, RequestOptions options) {
    if (event == null) {
      throw new IllegalArgumentException("the event must not be null");
    }
    return http.call(
        ApiCall.post("/lineage/openlineage").json(event).replay(ApiCall.Replay.IDEMPOTENT).options(options),
        OpenLineageResult.class);
  }

  /** {@link #pushOpenLineage(Iterable, int, RequestOptions)} in chunks of {@value #MAX_BULK_EDGES}. */
  public OpenLineageResult pushOpenLineage(Iterable<?> events) {
    return pushOpenLineage(events, MAX_BULK_EDGES, RequestOptions.DEFAULTS);
  }

  /**
   * Ingests any number of RunEvents as consecutive requests of at most {@code chunkSize}
   * (1-{@value #MAX_BULK_EDGES}) and sums the answers. Each request is atomic on its own; if
   * one fails, the exception propagates and those before it stay written (repeating the whole
   * push is safe: ingestion converges). A chunk refused as too large (413) is split in halves.
   * No events means no request and {@link OpenLineageResult#EMPTY}. {@code options} go with
   * every chunk, except an idempotency key (chunks differ in body).
   */
  public OpenLineageResult pushOpenLineage(Iterable<?> events, int chunkSize, RequestOptions options) {
    return Chunks.push(
        events,
        chunkSize,
        MAX_BULK_EDGES,
        OpenLineageResult.EMPTY,
        chunk -> openLineageWithResponse(chunk, RequestOptions.perChunk(options)).value(),
        OpenLineageResult::plus);
  }

  /** {@link #uploadManifest(byte[], ManifestOptions)} with the defaults. */
  public ManifestSummary uploadManifest(Path path) {
    return uploadManifest(path, ManifestOptions.defaults());
  }

  /**
   * Ingests a dbt {@code manifest.json} (plain or gzipped) from a file. See
   * {@link #uploadManifest(byte[], ManifestOptions)}.
   *
   * @throws UncheckedIOException when the file cannot be read
   */
  public ManifestSummary uploadManifest(Path path, ManifestOptions settings) {
    return uploadManifestWithResponse(read(path, "manifest"), settings, RequestOptions.DEFAULTS).value();
  }

  /** {@link #uploadManifest(byte[], ManifestOptions)} with the defaults. */
  public ManifestSummary uploadManifest(byte[] manifest) {
    return uploadManifest(manifest, ManifestOptions.defaults());
  }

  /**
   * {@code POST /lineage/manifest}: a dbt {@code manifest.json} (schema v4-v12) becomes assets
   * (id = dbt unique_id), lineage edges (origin {@code dbt:<project>}) and quality rules. The
   * bytes are gzipped unless they already are, and sent with {@code Content-Encoding: gzip}.
   * The same manifest twice changes nothing, so the upload is retried like other POSTs. Each
   * attempt may take {@link #MANIFEST_TIMEOUT}.
   *
   * @param settings the project name, the warehouse's dataset namespace and pruning (see
   *     {@link ManifestOptions}), e.g. {@code ManifestOptions.project("shop").withPrune(false)}
   * @throws dev.governance.client.exception.ValidationException ({@code invalid_manifest}) for
   *     a body the service cannot read as a manifest, ({@code invalid_dataset}) for a namespace
   *     that is none
   * @throws dev.governance.client.exception.ConflictException ({@code dataset_taken}) when a
   *     model claims a dataset another model or an asset created explicitly holds; nothing
   *     is written
   */
  public ManifestSummary uploadManifest(byte[] manifest, ManifestOptions settings) {
    return uploadManifestWithResponse(manifest, settings, RequestOptions.DEFAULTS).value();
  }

  public Response<ManifestSummary> uploadManifestWithResponse(
      byte[] manifest, ManifestOptions settings, RequestOptions options) {
    Objects.requireNonNull(settings, "settings: ManifestOptions.defaults() for none");
    ApiCall call =
        upload("/lineage/manifest", manifest, "manifest")
            .param("project", settings.project())
            .param("namespace", settings.namespace())
            .param("prune", settings.prune() ? "true" : "false")
            .options(options);
    return http.call(call, ManifestSummary.class);
  }

  /** {@link #checkManifest(byte[], ImpactOptions)} of a file, with the defaults. */
  public ImpactReport checkManifest(Path path) {
    return checkManifest(read(path, "manifest"), ImpactOptions.defaults());
  }

  /**
   * {@link #checkManifest(byte[], ImpactOptions)} of a file.
   *
   * @throws UncheckedIOException when the file cannot be read
   */
  public ImpactReport checkManifest(Path path, ImpactOptions settings) {
    return checkManifest(read(path, "manifest"), settings);
  }

  /**
   * {@code POST /impact/manifest}: what uploading a candidate dbt {@code manifest.json} would
   * change and break, read as {@link #uploadManifest(byte[], ManifestOptions)} would read it
   * ({@code project}, {@code namespace}). The service writes nothing, so the call is retried
   * like a read, without an automatic {@code Idempotency-Key}. The report lists the changes
   * against the stored project, each breaking or not, and every asset downstream of a
   * breaking change with its owners and path; {@link ImpactReport#breaking()} is what a CI step
   * fails on. Each attempt may take {@link #MANIFEST_TIMEOUT}.
   *
   * @throws dev.governance.client.exception.ValidationException ({@code invalid_manifest}) for
   *     a body the service cannot read as a manifest
   * @throws dev.governance.client.exception.NotFoundException ({@code unknown_project}) for a
   *     project no upload made
   */
  public ImpactReport checkManifest(byte[] manifest, ImpactOptions settings) {
    return checkManifestWithResponse(manifest, settings, RequestOptions.DEFAULTS).value();
  }

  public Response<ImpactReport> checkManifestWithResponse(
      byte[] manifest, ImpactOptions settings, RequestOptions options) {
    Objects.requireNonNull(settings, "settings: ImpactOptions.defaults() for none");
    ApiCall call =
        upload("/impact/manifest", manifest, "manifest")
            .param("project", settings.project())
            .param("namespace", settings.namespace())
            .param("depth", settings.depth())
            .replay(ApiCall.Replay.IDEMPOTENT)
            .options(options);
    return http.call(call, ImpactReport.class);
  }

  /** {@link #ingestSql(SqlInput)} of one statement or a {@code ;}-separated script. */
  public SqlResult ingestSql(String dialect, String namespace, String sql) {
    return ingestSql(SqlInput.script(dialect, namespace, sql));
  }

  /**
   * {@code POST /lineage/sql}: SQL (a statement, a script, or a query log of up to 10,000
   * entries) becomes table and column lineage, parsed in the input's dialect. Each table is the
   * dataset {@code (namespace, name)} and resolves to the asset holding it (a dbt model, an
   * OpenLineage dataset, an asset with that dataset); a table nobody holds becomes a
   * placeholder. A statement that writes a table from others ({@code INSERT ... SELECT},
   * {@code CREATE TABLE/VIEW AS}, {@code MERGE}, ...) makes an edge per table read (origin
   * {@code sql:<source>}, the statement as transformation) and column mappings; reads and DDL
   * write nothing. A statement that does not parse is listed in {@link SqlResult#failures()}
   * and the others are written in one transaction. Ingesting again converges, so the call is
   * retried like other POSTs (with an automatic {@code Idempotency-Key}); each attempt may take
   * {@link #MANIFEST_TIMEOUT}.
   *
   * @throws dev.governance.client.exception.ValidationException for an unknown dialect
   *     ({@code body.dialect}), both or neither of {@code sql} and {@code statements}, or a bad
   *     namespace
   */
  public SqlResult ingestSql(SqlInput input) {
    return ingestSqlWithResponse(input, RequestOptions.DEFAULTS).value();
  }

  public Response<SqlResult> ingestSqlWithResponse(SqlInput input, RequestOptions options) {
    if (input == null) {
      throw new IllegalArgumentException("the SQL input must not be null");
    }
    return http.call(
        ApiCall.post("/lineage/sql").json(input).timeoutAtLeast(MANIFEST_TIMEOUT).options(options),
        SqlResult.class);
  }

  /** A gzipped JSON upload (manifest, run results) with the longer upload timeout. */
  static ApiCall upload(String path, byte[] bytes, String what) {
    if (bytes == null || bytes.length == 0) {
      throw new IllegalArgumentException("the " + what + " must not be null or empty");
    }
    return ApiCall.post(path)
        .body(Gzip.unlessGzipped(bytes), ApiCall.JSON)
        .header("Content-Encoding", "gzip")
        .timeoutAtLeast(MANIFEST_TIMEOUT);
  }

  static byte[] read(Path path, String what) {
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + what + " " + path, e);
    }
  }

  /** Every edge, paged automatically, ordered by (source, target). */
  public PagedIterable<Edge> edges() {
    return edges(EdgeFilter.all());
  }

  public PagedIterable<Edge> edges(EdgeFilter filter) {
    return edges(filter, RequestOptions.DEFAULTS);
  }

  /** The edges that match the filter, with their column mappings, each page sent with {@code options}. */
  public PagedIterable<Edge> edges(EdgeFilter filter, RequestOptions options) {
    return new PagedIterable<>(
        (cursor, size) ->
            http.json(
                ApiCall.get("/lineage/edges")
                    .param("source", filter.source())
                    .param("target", filter.target())
                    .param("origin", filter.origin())
                    .param("limit", size)
                    .param("cursor", cursor)
                    .options(options),
                PAGE));
  }

  /**
   * Deletes the edge {@code source -> target} and its column mappings.
   *
   * @throws dev.governance.client.exception.NotFoundException if there is no such edge
   */
  public void deleteEdge(String source, String target) {
    deleteEdgeWithResponse(source, target, RequestOptions.DEFAULTS);
  }

  public Response<Void> deleteEdgeWithResponse(String source, String target, RequestOptions options) {
    requireId("source", source);
    requireId("target", target);
    return http.callWithoutBody(
        ApiCall.delete("/lineage/edges")
            .param("source", source)
            .param("target", target)
            .options(options));
  }

  /** Both directions with the service's default depth (5) and node limit (2,000). */
  public LineageGraph graph(String id) {
    return graph(id, Direction.BOTH, Traversal.defaults());
  }

  /**
   * The lineage of an asset ({@code GET /lineage/{id}?direction=}), as far as {@code bounds}
   * says ({@link Traversal#depth(int)}, {@link Traversal#limit(int)}); past the node limit the
   * answer is {@code truncated}.
   *
   * <p>For both directions, an asset whose id is exactly {@code edges} cannot be asked for (the
   * service reads {@code /lineage/edges} as the edge listing); use {@link #upstream} and
   * {@link #downstream} for it.
   *
   * @throws dev.governance.client.exception.NotFoundException for an unknown root
   */
  public LineageGraph graph(String id, Direction direction, Traversal bounds) {
    return graphWithResponse(id, direction, bounds, RequestOptions.DEFAULTS).value();
  }

  public Response<LineageGraph> graphWithResponse(
      String id, Direction direction, Traversal bounds, RequestOptions options) {
    Objects.requireNonNull(direction, "direction");
    ApiCall call =
        filtered(ApiCall.get("/lineage/" + Ids.segment("asset id", id)), bounds)
            .param("direction", direction.wireName())
            .options(options);
    return checked(http.call(call, LineageGraph.class));
  }

  /**
   * Every page of a traversal, one item per page: the first request is sent when iteration
   * starts (from {@code bounds}' cursor, if it has one), and each {@link
   * LineageGraph#nextCursor()} is sent back with the same other settings while iteration goes
   * on, so every node comes in exactly one page, the root in the first. {@code bounds}' limit is
   * the page size ({@link PagedIterable#pageSize(int)} sets it too).
   *
   * <pre>{@code
   * for (LineageGraph page : client.lineage().graphPages(id, Direction.DOWNSTREAM,
   *     Traversal.limit(500).withTypes("dashboard"))) {
   *   page.nodes().forEach(n -> System.out.println(n.distance() + " " + n.id()));
   * }
   * }</pre>
   */
  public PagedIterable<LineageGraph> graphPages(String id, Direction direction, Traversal bounds) {
    return graphPages(id, direction, bounds, RequestOptions.DEFAULTS);
  }

  /** As {@link #graphPages(String, Direction, Traversal)}, each page sent with {@code options}. */
  public PagedIterable<LineageGraph> graphPages(
      String id, Direction direction, Traversal bounds, RequestOptions options) {
    Ids.segment("asset id", id);
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(bounds, "bounds: Traversal.defaults() for the service's");
    PagedIterable<LineageGraph> all =
        new PagedIterable<>(
            (cursor, size) -> {
              Traversal page = size == null ? bounds : bounds.withLimit(size);
              LineageGraph graph =
                  graphWithResponse(id, direction, page.withCursor(cursor), options).value();
              return new Page<>(List.of(graph), graph.nextCursor());
            });
    return bounds.cursor().map(all::fromCursor).orElse(all);
  }

  /** Everything that flows into the asset, within the default depth (5). */
  public LineageGraph upstream(String id) {
    return upstream(id, Traversal.defaults());
  }

  /** Everything that flows into the asset, as far as {@code bounds} says. */
  public LineageGraph upstream(String id, Traversal bounds) {
    return upstreamWithResponse(id, bounds, RequestOptions.DEFAULTS).value();
  }

  public Response<LineageGraph> upstreamWithResponse(
      String id, Traversal bounds, RequestOptions options) {
    return traverse(id, "upstream", bounds, options);
  }

  /** Everything the asset flows into, within the default depth (5). */
  public LineageGraph downstream(String id) {
    return downstream(id, Traversal.defaults());
  }

  /** Everything the asset flows into, as far as {@code bounds} says. */
  public LineageGraph downstream(String id, Traversal bounds) {
    return downstreamWithResponse(id, bounds, RequestOptions.DEFAULTS).value();
  }

  public Response<LineageGraph> downstreamWithResponse(
      String id, Traversal bounds, RequestOptions options) {
    return traverse(id, "downstream", bounds, options);
  }

  private Response<LineageGraph> traverse(
      String id, String direction, Traversal bounds, RequestOptions options) {
    ApiCall call =
        filtered(ApiCall.get("/lineage/" + Ids.segment("asset id", id) + "/" + direction), bounds)
            .options(options);
    return checked(http.call(call, LineageGraph.class));
  }

  /**
   * {@code GET /lineage/{id}/diff}: how the lineage around the asset changed between {@code
   * range.from()} and {@code range.to()} (now by default), over both neighbourhoods: the nodes
   * and edges {@link LineageDiff#added() added} and {@link LineageDiff#removed() removed}, and
   * the edges whose transformation {@link LineageDiff#changed() changed}. A root that existed
   * at only one moment has an empty neighbourhood at the other.
   *
   * @throws dev.governance.client.exception.NotFoundException for a root unknown at both
   *     moments
   * @throws dev.governance.client.exception.ValidationException when {@code from} is after
   *     {@code to}
   */
  public LineageDiff diff(String id, DiffOptions range) {
    return diffWithResponse(id, range, RequestOptions.DEFAULTS).value();
  }

  public Response<LineageDiff> diffWithResponse(
      String id, DiffOptions range, RequestOptions options) {
    Objects.requireNonNull(range, "range: DiffOptions.from(moment)");
    ApiCall call =
        ApiCall.get("/lineage/" + Ids.segment("asset id", id) + "/diff")
            .param("from", Instants.wire(range.from()))
            .param("to", Instants.wire(range.to()))
            .param("direction", range.direction() == null ? null : range.direction().wireName())
            .param("depth", range.depth())
            .param("limit", range.limit())
            .options(options);
    return http.call(call, LineageDiff.class);
  }

  /**
   * {@code GET /lineage/{id}/export}: the traversal of {@link #graph(String, Direction,
   * Traversal)} around the asset (same direction, depth and as-of) written as a file in {@code
   * request.format()}, with the name the service gives it and whether the neighbourhood was cut
   * at the limit.
   *
   * @throws dev.governance.client.exception.NotFoundException for an unknown asset (or one that
   *     did not exist at {@code asOf})
   * @throws dev.governance.client.exception.ValidationException naming a parameter the service
   *     refuses, such as a {@code limit} above its export maximum
   */
  public LineageExport export(String id, ExportRequest request) {
    return exportWithResponse(id, request, RequestOptions.DEFAULTS).value();
  }

  public Response<LineageExport> exportWithResponse(
      String id, ExportRequest request, RequestOptions options) {
    Objects.requireNonNull(request, "request: ExportRequest.of(format)");
    ApiCall call =
        ApiCall.get("/lineage/" + Ids.segment("asset id", id) + "/export")
            .param("format", request.format().wireName())
            .param("direction", request.direction() == null ? null : request.direction().wireName())
            .param("depth", request.depth())
            .param("limit", request.limit())
            .param("as_of", Instants.wire(request.asOf()))
            .accept(request.format().mediaType() + ", application/problem+json")
            .options(options);
    Response<String> file = http.callForText(call);
    LineageExport export =
        new LineageExport(
            file.value(),
            file.header("Content-Disposition").map(ContentDisposition::filename).orElse(null),
            file.header("Lineage-Truncated").map("true"::equals).orElse(false));
    return new Response<>(file.status(), file.headers(), export);
  }

  /** The columns that flow into this column, within the default depth (5). */
  public ColumnGraph columnUpstream(String assetId, String column) {
    return columnUpstream(assetId, column, Traversal.defaults());
  }

  /**
   * The lineage of one column upstream: each column that feeds it, through the column mappings
   * of edges (declared directly, by dbt or by OpenLineage), as far as {@code bounds} says
   * (depth 1-50, limit in columns, root included, 1-10,000).
   *
   * @throws dev.governance.client.exception.NotFoundException {@code asset_not_found} for an
   *     unknown asset, {@code column_not_found} for a column neither declared on the asset nor
   *     in any column lineage (a declared column without lineage answers just the root)
   */
  public ColumnGraph columnUpstream(String assetId, String column, Traversal bounds) {
    return columnUpstreamWithResponse(assetId, column, bounds, RequestOptions.DEFAULTS).value();
  }

  public Response<ColumnGraph> columnUpstreamWithResponse(
      String assetId, String column, Traversal bounds, RequestOptions options) {
    return traverseColumn(assetId, column, "upstream", bounds, options);
  }

  /** The columns this column flows into, within the default depth (5). */
  public ColumnGraph columnDownstream(String assetId, String column) {
    return columnDownstream(assetId, column, Traversal.defaults());
  }

  /** The lineage of one column downstream; see {@link #columnUpstream(String, String, Traversal)}. */
  public ColumnGraph columnDownstream(String assetId, String column, Traversal bounds) {
    return columnDownstreamWithResponse(assetId, column, bounds, RequestOptions.DEFAULTS).value();
  }

  public Response<ColumnGraph> columnDownstreamWithResponse(
      String assetId, String column, Traversal bounds, RequestOptions options) {
    return traverseColumn(assetId, column, "downstream", bounds, options);
  }

  private Response<ColumnGraph> traverseColumn(
      String assetId, String column, String direction, Traversal bounds, RequestOptions options) {
    Objects.requireNonNull(bounds, "bounds: Traversal.defaults() for the service's");
    if (bounds.cursor().isPresent()
        || bounds.fanout().isPresent()
        || !(bounds.types().isEmpty()
            && bounds.platforms().isEmpty()
            && bounds.tags().isEmpty()
            && bounds.owners().isEmpty())) {
      throw new IllegalArgumentException(
          "column traversals take no cursor, filters or fanout: " + bounds);
    }
    ApiCall call =
        bounded(
                ApiCall.get(
                    "/lineage/" + Ids.segment("asset id", assetId) + "/columns/"
                        + Ids.segment("column", column) + "/" + direction),
                bounds)
            .options(options);
    return http.call(call, ColumnGraph.class);
  }

  private static ApiCall bounded(ApiCall call, Traversal bounds) {
    Objects.requireNonNull(bounds, "bounds: Traversal.defaults() for the service's");
    bounds.depth().ifPresent(depth -> call.param("depth", depth));
    bounds.limit().ifPresent(limit -> call.param("limit", limit));
    bounds.asOf().ifPresent(moment -> call.param("as_of", Instants.wire(moment)));
    return call;
  }

  /** The bounds, and the cursor, filters and fanout that only traversals of assets take. */
  private static ApiCall filtered(ApiCall call, Traversal bounds) {
    bounded(call, bounds);
    bounds.cursor().ifPresent(cursor -> call.param("cursor", cursor));
    bounds.types().forEach(type -> call.param("type", type));
    bounds.platforms().forEach(platform -> call.param("platform", platform));
    bounds.tags().forEach(tag -> call.param("tag", tag));
    bounds.owners().forEach(owner -> call.param("owner", owner));
    bounds.fanout().ifPresent(fanout -> call.param("fanout", fanout));
    return call;
  }

  /**
   * A graph answer always names its root. (The service routes {@code GET /lineage/edges} to the
   * edge listing, so {@code graph("edges")} gets a page of edges instead of a graph; better an
   * error than an empty graph.)
   */
  private static Response<LineageGraph> checked(Response<LineageGraph> response) {
    LineageGraph graph = response.value();
    if (graph.root() == null || graph.direction() == null) {
      throw new GovernanceException(
          "the answer is not a lineage graph", response.status(), "invalid_response", null, null);
    }
    return response;
  }

  private static String strictParam(boolean strict) {
    return strict ? "true" : null;
  }

  private static void requireId(String what, String id) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be null or empty");
    }
  }
}
