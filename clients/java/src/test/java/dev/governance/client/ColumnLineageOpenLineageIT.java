package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.NotFoundException;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.Column;
import dev.governance.client.model.ColumnEdge;
import dev.governance.client.model.ColumnGraph;
import dev.governance.client.model.ColumnMapping;
import dev.governance.client.model.ColumnRef;
import dev.governance.client.model.Counts;
import dev.governance.client.model.Edge;
import dev.governance.client.model.EdgeFilter;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.OpenLineageResult;
import dev.governance.client.model.Traversal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Column lineage and OpenLineage ingestion against a running service (see {@link Live}). */
class ColumnLineageOpenLineageIT {
  private static final String PRODUCER = "https://github.com/governance-service/governance/clients/java";
  private static final String SCHEMA_URL = "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent";

  private static GovernanceClient client;

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  @Test
  void columnMappingsOnEdgesAreTraversedBothWays() {
    String p = Live.unique("columns");
    String raw = p + ".raw";
    String stg = p + ".stg";
    String mart = p + ".mart";
    try {
      client.assets().create(AssetInput.builder(raw, "raw", "table")
          .addColumn(Column.of("id", "int")).addColumn(Column.of("name", "text")).build());
      client.assets().create(AssetInput.builder(stg, "stg", "table")
          .addColumn(Column.of("id", "int")).addColumn(Column.of("name_upper", "text")).build());
      client.assets().create(AssetInput.builder(mart, "mart", "table")
          .addColumn(Column.of("order_id", "int")).build());

      Response<Edge> edge =
          client.lineage().createWithResponse(
              EdgeInput.of(raw, stg, "select id, upper(name) from raw")
                  .withColumns(ColumnMapping.of("id", "id"), ColumnMapping.of("name", "name_upper", "upper(name)")),
              true,
              null);
      assertTrue(edge.created());
      assertEquals(2, edge.value().columns().size());
      BulkResult bulk =
          client.lineage().bulk(List.of(EdgeInput.of(stg, mart).withColumns(ColumnMapping.of("id", "order_id"))));
      assertEquals(new Counts(1, 0), bulk.columnMappings());

      ColumnGraph down = client.lineage().columnDownstream(raw, "id");
      assertEquals(new ColumnRef(raw, "id"), down.root());
      assertEquals(0, down.node(raw, "id").orElseThrow().distance());
      assertEquals(1, down.node(stg, "id").orElseThrow().distance());
      assertEquals(2, down.node(mart, "order_id").orElseThrow().distance());
      assertTrue(down.edges().contains(new ColumnEdge(new ColumnRef(stg, "id"), new ColumnRef(mart, "order_id"), null)));

      ColumnGraph up = client.lineage().columnUpstream(mart, "order_id", Traversal.depth(1));
      assertEquals(List.of(new ColumnRef(mart, "order_id"), new ColumnRef(stg, "id")),
          up.nodes().stream().map(n -> n.ref()).toList());
      ColumnGraph upper = client.lineage().columnUpstream(stg, "name_upper");
      assertEquals("upper(name)", upper.edges().get(0).transformation());

      Edge listed = client.lineage().edges(EdgeFilter.from(raw)).stream().findFirst().orElseThrow();
      assertEquals(List.of("id", "name"), listed.columns().stream().map(ColumnMapping::source).toList());

      NotFoundException missing =
          assertThrows(NotFoundException.class, () -> client.lineage().columnUpstream(raw, "no_such_column"));
      assertEquals("column_not_found", missing.code());
    } finally {
      Live.cleanUp(client, p);
    }
  }

  private static Map<String, Object> runEvent(String state, String runId, String namespace, String job) {
    Map<String, Object> columnLineage =
        Map.of("fields", Map.of("order_id", Map.of("inputFields", List.of(Map.of(
            "namespace", namespace, "name", "raw.orders", "field", "id",
            "transformations", List.of(Map.of("type", "DIRECT", "subtype", "IDENTITY")))))));
    return Map.of(
        "eventType", state,
        "eventTime", Instant.now().toString(),
        "producer", PRODUCER,
        "schemaURL", SCHEMA_URL,
        "run", Map.of("runId", runId),
        "job", Map.of("namespace", "java-tests", "name", job),
        "inputs", List.of(Map.of("namespace", namespace, "name", "raw.orders",
            "facets", Map.of("schema", Map.of("fields", List.of(Map.of("name", "id", "type", "int")))))),
        "outputs", List.of(Map.of("namespace", namespace, "name", "stg.orders",
            "facets", Map.of("columnLineage", columnLineage,
                "schema", Map.of("fields", List.of(Map.of("name", "order_id", "type", "int")))))));
  }

  @Test
  void openLineageRunEventsBecomeEdgesAndColumnLineage() {
    String namespace = Live.unique("ol");
    String job = "load-" + UUID.randomUUID();
    String runId = UUID.randomUUID().toString();
    String input = namespace + "/raw.orders";
    String output = namespace + "/stg.orders";
    try {
      OpenLineageResult started = client.lineage().openLineage(runEvent("START", runId, namespace, job));
      assertEquals(1, started.received());
      assertEquals(0, started.complete());

      OpenLineageResult pushed =
          client.lineage().pushOpenLineage(
              List.of(runEvent("RUNNING", runId, namespace, job), runEvent("COMPLETE", runId, namespace, job)));
      assertEquals(2, pushed.received());
      assertEquals(1, pushed.complete());
      assertEquals(new Counts(1, 0), pushed.edges());
      assertEquals(new Counts(1, 0), pushed.columnMappings());
      assertEquals(2, pushed.assets().created());

      Edge edge = client.lineage().edges(EdgeFilter.from(input)).stream().findFirst().orElseThrow();
      assertEquals(output, edge.target());
      assertEquals(List.of("openlineage:java-tests/" + job), edge.origins());
      assertEquals("DIRECT/IDENTITY", edge.columns().get(0).transformation());
      assertEquals(List.of("order_id"),
          client.assets().get(output).columns().stream().map(Column::name).toList());

      ColumnGraph up = client.lineage().columnUpstream(output, "order_id");
      assertEquals(1, up.node(input, "id").orElseThrow().distance());

      OpenLineageResult again = client.lineage().openLineage(List.of(runEvent("COMPLETE", runId, namespace, job)));
      assertEquals(new Counts(0, 1), again.edges());
    } finally {
      Live.cleanUp(client, namespace);
    }
  }
}
