package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.exception.BadRequestException;
import dev.governance.client.exception.GovernanceException;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.Direction;
import dev.governance.client.model.Edge;
import dev.governance.client.model.EdgeFilter;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.LineageGraph;
import dev.governance.client.model.ManifestSummary;
import dev.governance.client.model.Page;
import dev.governance.client.model.Saved;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code /lineage}: write edges one at a time or in bulk, list and delete them, and traverse
 * the graph. Obtain it with {@link GovernanceClient#lineage()}.
 *
 * <p>An edge naming an asset that does not exist creates a placeholder asset, unless
 * {@code strict} is true: then the service answers 422 {@code unknown_assets} and writes
 * nothing.
 */
public final class LineageService {
  /** The most edges the service accepts in one bulk request. */
  public static final int MAX_BULK_EDGES = 10_000;

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
    TransportResponse response =
        http.execute(ApiCall.post("/lineage").param("strict", strictParam(strict)).json(edge));
    Edge saved = http.decode(response, Json.MAPPER.constructType(Edge.class));
    return new Saved<>(saved, response.status() == 201);
  }

  /**
   * One atomic bulk request of 1-{@value #MAX_BULK_EDGES} edges: all written or none (422 lists
   * each bad item by index). Idempotent. For more edges use {@link #pushBulk}.
   */
  public BulkResult bulk(List<EdgeInput> edges) {
    return bulk(edges, false);
  }

  public BulkResult bulk(List<EdgeInput> edges, boolean strict) {
    return http.json(
        ApiCall.post("/lineage/bulk").param("strict", strictParam(strict)).json(edges),
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

  /**
   * Sends any number of edges as consecutive bulk requests of at most {@code chunkSize}
   * (1-{@value #MAX_BULK_EDGES}) and sums the answers. Each chunk is atomic on its own; if one
   * fails, the exception propagates and the chunks before it stay written (repeating the whole
   * push is safe: bulk writes are idempotent). No edges means no request and an empty result.
   * A pair repeated in two chunks counts as created once and existing once. A chunk refused
   * as too large (413, e.g. long transformations) is split in halves until it fits.
   */
  public BulkResult pushBulk(Iterable<EdgeInput> edges, int chunkSize, boolean strict) {
    if (chunkSize < 1 || chunkSize > MAX_BULK_EDGES) {
      throw new IllegalArgumentException(
          "chunkSize must be between 1 and " + MAX_BULK_EDGES + ", got " + chunkSize);
    }
    BulkResult total = BulkResult.EMPTY;
    for (List<EdgeInput> chunk : Chunks.of(edges, chunkSize)) {
      total = total.plus(pushChunk(chunk, strict));
    }
    return total;
  }

  /** A chunk whose body is over the service's size limit (413) is sent again as two halves. */
  private BulkResult pushChunk(List<EdgeInput> chunk, boolean strict) {
    try {
      return bulk(chunk, strict);
    } catch (BadRequestException e) {
      if (e.status() != 413 || chunk.size() < 2) {
        throw e;
      }
      int half = chunk.size() / 2;
      return pushChunk(chunk.subList(0, half), strict)
          .plus(pushChunk(chunk.subList(half, chunk.size()), strict));
    }
  }

  /**
   * How long one manifest upload may take (per attempt) at least; the client's own timeout
   * applies when it is longer. Large manifests take the service a while to ingest.
   */
  public static final Duration MANIFEST_TIMEOUT = Duration.ofMinutes(5);

  /** {@link #uploadManifest(Path, String, boolean)} with the manifest's project name, pruning. */
  public ManifestSummary uploadManifest(Path path) {
    return uploadManifest(path, null, true);
  }

  /**
   * Ingests a dbt {@code manifest.json} (plain or gzipped) from a file. See
   * {@link #uploadManifest(byte[], String, boolean)}.
   *
   * @throws UncheckedIOException when the file cannot be read
   */
  public ManifestSummary uploadManifest(Path path, String project, boolean prune) {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read manifest " + path, e);
    }
    return uploadManifest(bytes, project, prune);
  }

  /** {@link #uploadManifest(byte[], String, boolean)} with the manifest's project name, pruning. */
  public ManifestSummary uploadManifest(byte[] manifest) {
    return uploadManifest(manifest, null, true);
  }

  /**
   * {@code POST /lineage/manifest}: a dbt {@code manifest.json} (schema v4-v12) becomes assets
   * (id = dbt unique_id), lineage edges (origin {@code dbt:<project>}) and quality rules. The
   * bytes are gzipped unless they already are, and sent with {@code Content-Encoding: gzip}.
   * The same manifest twice changes nothing, so the upload is retried like other POSTs.
   *
   * @param project the project name; null for the manifest's own
   * @param prune remove edges and rules an earlier upload of the project made and this one
   *     lacks (the service default)
   * @throws dev.governance.client.exception.ValidationException ({@code invalid_manifest}) for
   *     a body the service cannot read as a manifest
   */
  public ManifestSummary uploadManifest(byte[] manifest, String project, boolean prune) {
    if (manifest == null || manifest.length == 0) {
      throw new IllegalArgumentException("the manifest must not be null or empty");
    }
    byte[] gzipped = Gzip.unlessGzipped(manifest);
    ApiCall call =
        ApiCall.post("/lineage/manifest")
            .param("project", project)
            .param("prune", prune ? "true" : "false")
            .body(gzipped, ApiCall.JSON)
            .header("Content-Encoding", "gzip")
            .timeoutAtLeast(MANIFEST_TIMEOUT);
    return http.json(call, ManifestSummary.class);
  }

  /** Every edge, paged automatically, ordered by (source, target). */
  public PagedIterable<Edge> edges() {
    return edges(EdgeFilter.all());
  }

  public PagedIterable<Edge> edges(EdgeFilter filter) {
    return new PagedIterable<>(
        filter.cursor(),
        cursor ->
            http.json(
                ApiCall.get("/lineage/edges")
                    .param("source", filter.source())
                    .param("target", filter.target())
                    .param("origin", filter.origin())
                    .param("limit", filter.pageSize())
                    .param("cursor", cursor),
                PAGE));
  }

  /**
   * Deletes the edge {@code source -> target}.
   *
   * @throws dev.governance.client.exception.NotFoundException if there is no such edge
   */
  public void deleteEdge(String source, String target) {
    requireId("source", source);
    requireId("target", target);
    http.execute(ApiCall.delete("/lineage/edges").param("source", source).param("target", target));
  }

  /** Both directions with the service's default depth (5) and node limit (2,000). */
  public LineageGraph graph(String id) {
    return graph(id, Direction.BOTH, null, null);
  }

  /**
   * The lineage of an asset. {@code depth} (1-50) and {@code limit} (nodes, root included,
   * 1-10,000) may be null for the service defaults; past {@code limit} the answer is
   * {@code truncated}.
   *
   * <p>For both directions, an asset whose id is exactly {@code edges} cannot be asked for (the
   * service reads {@code /lineage/edges} as the edge listing); use {@link #upstream} and
   * {@link #downstream} for it.
   *
   * @throws dev.governance.client.exception.NotFoundException for an unknown root
   */
  public LineageGraph graph(String id, Direction direction, Integer depth, Integer limit) {
    ApiCall call =
        ApiCall.get("/lineage/" + Ids.segment("asset id", id))
            .param("direction", direction == null ? null : direction.wireName())
            .param("depth", depth)
            .param("limit", limit);
    return checked(http.json(call, LineageGraph.class));
  }

  /** Everything that flows into the asset, within the default depth. */
  public LineageGraph upstream(String id) {
    return upstream(id, null, null);
  }

  public LineageGraph upstream(String id, Integer depth, Integer limit) {
    return traverse(id, "upstream", depth, limit);
  }

  /** Everything the asset flows into, within the default depth. */
  public LineageGraph downstream(String id) {
    return downstream(id, null, null);
  }

  public LineageGraph downstream(String id, Integer depth, Integer limit) {
    return traverse(id, "downstream", depth, limit);
  }

  private LineageGraph traverse(String id, String direction, Integer depth, Integer limit) {
    ApiCall call =
        ApiCall.get("/lineage/" + Ids.segment("asset id", id) + "/" + direction)
            .param("depth", depth)
            .param("limit", limit);
    return checked(http.json(call, LineageGraph.class));
  }

  /**
   * A graph answer always names its root. (The service routes {@code GET /lineage/edges} to the
   * edge listing, so {@code graph("edges")} gets a page of edges instead of a graph; better an
   * error than an empty graph.)
   */
  private static LineageGraph checked(LineageGraph graph) {
    if (graph.root() == null || graph.direction() == null) {
      throw new GovernanceException(
          "the answer is not a lineage graph", 200, "invalid_response", null, null);
    }
    return graph;
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
