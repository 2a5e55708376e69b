package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.AssetVersion;
import dev.governance.client.model.BulkOptions;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.Column;
import dev.governance.client.model.ColumnGraph;
import dev.governance.client.model.ColumnMapping;
import dev.governance.client.model.ColumnNode;
import dev.governance.client.model.DiffOptions;
import dev.governance.client.model.Direction;
import dev.governance.client.model.EdgeFilter;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.GraphEdge;
import dev.governance.client.model.GraphNode;
import dev.governance.client.model.ImpactOptions;
import dev.governance.client.model.ImpactReport;
import dev.governance.client.model.LineageDiff;
import dev.governance.client.model.LineageGraph;
import dev.governance.client.model.ManifestOptions;
import dev.governance.client.model.Retired;
import dev.governance.client.model.Traversal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lineage through time, asset history, change impact and origin-owned edge sets against a
 * running service (see {@link Live}). The moments the graph is read at are the service's own (a
 * version's {@code at}), never this machine's clock.
 */
class HistoryImpactIT {
  private static final String REVENUE = "model.quality_shop.customer_revenue";
  private static GovernanceClient client;

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  private static Instant newestMoment(String id) {
    return client.assets().history(id).pageSize(1).firstPage().items().get(0).at();
  }

  private static Set<String> ids(LineageGraph graph) {
    return graph.nodes().stream().map(GraphNode::id).collect(Collectors.toSet());
  }

  private static Set<String> pairs(List<GraphEdge> edges) {
    return edges.stream().map(e -> e.source() + " -> " + e.target()).collect(Collectors.toSet());
  }

  @Test
  void replacedEdgesStayReadableAsTheyStood() {
    String p = Live.unique("history");
    String a = p + ".a";
    String b = p + ".b";
    String c = p + ".c";
    try {
      client.assets().create(AssetInput.builder(a, "A", "table").addColumn(Column.of("x", "int")).build());
      client.assets().create(AssetInput.builder(b, "B", "table").addColumn(Column.of("y", "int")).build());
      client.assets().create(AssetInput.builder(c, "C", "table").build());
      BulkOptions origin = BulkOptions.origin("sync:" + p);
      EdgeInput mapped = EdgeInput.of(a, b).withColumns(ColumnMapping.of("x", "y"));
      assertEquals(1, client.lineage().bulk(List.of(mapped), origin).created());
      client.assets().patch(b, Map.of("description", "fed by a"));
      Instant fedByA = newestMoment(b);

      BulkResult replaced = client.lineage().bulk(List.of(EdgeInput.of(c, b)), origin.withReplace(true));
      assertEquals(new Retired(1, 1, 1, 1), replaced.retired());
      assertEquals(Set.of(b, c), ids(client.lineage().upstream(b)));
      Traversal then = Traversal.asOf(fedByA);
      assertEquals(Set.of(a, b), ids(client.lineage().upstream(b, then)));
      assertEquals(Set.of(a, b), ids(client.lineage().downstream(a, then)));
      assertEquals(Set.of(a, b), ids(client.lineage().graph(a, Direction.BOTH, then)));
      ColumnGraph columns = client.lineage().columnUpstream(b, "y", then);
      assertEquals(List.of(new ColumnNode(b, "y", 0), new ColumnNode(a, "x", 1)), columns.nodes());
      assertEquals(2, client.lineage().columnDownstream(a, "x", then).nodes().size());

      LineageDiff diff =
          client.lineage().diff(b, DiffOptions.from(fedByA).withDirection(Direction.UPSTREAM));
      assertEquals(Set.of(a + " -> " + b), pairs(diff.removed().edges()));
      assertEquals(Set.of(c + " -> " + b), pairs(diff.added().edges()));
      assertEquals(List.of(a), diff.removed().nodes().stream().map(GraphNode::id).toList());
      assertEquals(List.of(c), diff.added().nodes().stream().map(GraphNode::id).toList());
      assertTrue(diff.changed().edges().isEmpty());
      assertEquals(fedByA, diff.from());
    } finally {
      Live.cleanUp(client, p);
    }
  }

  @Test
  void beforeTheRootExistedIsNotFoundAndABackwardRangeInvalid() {
    String p = Live.unique("late");
    try {
      client.assets().create(AssetInput.builder(p, "Late", "table").build());
      Instant born = newestMoment(p);
      NotFoundException missing =
          assertThrows(
              NotFoundException.class,
              () -> client.lineage().upstream(p, Traversal.asOf(born.minus(Duration.ofSeconds(1)))));
      assertEquals("asset_not_found", missing.code());
      assertEquals(p, client.lineage().upstream(p, Traversal.asOf(born)).root());
      assertThrows(
          ValidationException.class,
          () -> client.lineage().diff(p, DiffOptions.from(born).withTo(born.minus(Duration.ofHours(1)))));
    } finally {
      Live.cleanUp(client, p);
    }
  }

  @Test
  void historyListsEachChangeNewestFirst() {
    String p = Live.unique("orders");
    try {
      client.assets().create(AssetInput.builder(p, "Orders", "table").addColumn(Column.of("id", "int")).build());
      client.assets().patch(p, Map.of("description", "one row per order"));
      client.assets().put(p, AssetInput.builder(p, "Orders", "table").addColumn(Column.of("id", "bigint")).build());
      List<AssetVersion> versions = client.assets().history(p).pageSize(1).stream().toList();
      assertEquals(List.of(3L, 2L, 1L), versions.stream().map(AssetVersion::version).toList());
      assertTrue(
          versions.get(0).changes().stream()
              .anyMatch(ch -> ch.field().equals("columns") && "id".equals(ch.column()) && ch.change().equals("retyped")),
          versions.get(0).changes().toString());
      assertEquals(
          List.of(new AssetVersion.Change("description", null, "set", null, "one row per order")),
          versions.get(1).changes());
      assertTrue(versions.get(0).actor().startsWith("token:"), versions.get(0).actor());
      assertFalse(versions.get(0).deleted());
      assertThrows(NotFoundException.class, () -> client.assets().history(p + ".never").firstPage());
    } finally {
      Live.cleanUp(client, p);
    }
  }

  @Test
  void aManifestCheckNamesWhatBreaksAndWhoReadsIt() throws IOException {
    Path repoRoot = Path.of("").toAbsolutePath().getParent().getParent();
    Path manifest = repoRoot.resolve(Path.of("tests", "fixtures", "dbt_quality", "manifest.json"));
    String p = Live.unique("impact");
    String project = p;
    String board = p + ".revenue_board";
    try {
      client.lineage().uploadManifest(manifest, ManifestOptions.project(project));
      client.assets().create(AssetInput.builder(board, "Revenue board", "dashboard").owners("bi@example.com").build());
      client.lineage().create(REVENUE, board);

      ImpactReport same = client.lineage().checkManifest(manifest, ImpactOptions.project(project));
      assertEquals(project, same.project());
      assertFalse(same.breaking());
      assertEquals(List.of(), same.changes());

      ObjectNode candidate = (ObjectNode) Json.MAPPER.readTree(Files.readAllBytes(manifest));
      ObjectNode nodes = (ObjectNode) candidate.get("nodes");
      List<String> gone = new ArrayList<>();
      for (Map.Entry<String, JsonNode> node : nodes.properties()) {
        boolean tests = false;
        for (JsonNode dep : node.getValue().path("depends_on").path("nodes")) {
          tests |= dep.asText().equals(REVENUE);
        }
        if (node.getKey().equals(REVENUE) || tests) {
          gone.add(node.getKey());
        }
      }
      nodes.remove(gone);
      ImpactReport report =
          client.lineage()
              .checkManifest(Json.MAPPER.writeValueAsBytes(candidate), ImpactOptions.project(project).withDepth(3));
      assertTrue(report.breaking());
      assertEquals(3, report.depth());
      assertTrue(
          report.changes().stream()
              .anyMatch(ch -> ch.kind().equals("model_removed") && ch.asset().equals(REVENUE) && ch.breaking()),
          report.changes().toString());
      ImpactReport.Impacted hit =
          report.impacted().stream().filter(i -> i.asset().equals(board)).findFirst().orElseThrow();
      assertEquals(List.of("bi@example.com"), hit.owners());
      assertEquals(List.of(REVENUE, board), hit.via());
      assertEquals(1, hit.distance());

      NotFoundException unknown =
          assertThrows(
              NotFoundException.class,
              () -> client.lineage().checkManifest(manifest, ImpactOptions.project(project + "-never-uploaded")));
      assertEquals("unknown_project", unknown.code());
    } finally {
      Live.cleanUp(client, p);
    }
  }

  @Test
  void anEmptyReplacementRetiresTheOriginsEdges() {
    String p = Live.unique("empty");
    String a = p + ".a";
    String b = p + ".b";
    try {
      BulkOptions origin = BulkOptions.origin("sync:" + p);
      client.lineage().pushBulk(List.of(EdgeInput.of(a, b)), 10, origin, RequestOptions.DEFAULTS);
      BulkResult result =
          client.lineage().pushBulk(List.of(), 10, origin.withReplace(true), RequestOptions.DEFAULTS);
      assertEquals(1, result.retired().edges());
      assertEquals(1, result.retired().edgesRemoved());
      assertEquals(List.of(), client.lineage().edges(EdgeFilter.from(a)).stream().toList());
    } finally {
      Live.cleanUp(client, p);
    }
  }
}
