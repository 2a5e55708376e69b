package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.Direction;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.ExportFormat;
import dev.governance.client.model.ExportRequest;
import dev.governance.client.model.FieldError;
import dev.governance.client.model.GraphNode;
import dev.governance.client.model.LineageExport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lineage export against a running service (see {@link Live}): every format names the assets,
 * the OpenLineage file goes back in as the same edge, and a cut neighbourhood says so.
 */
class LineageExportIT {
  private static GovernanceClient client;

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  @Test
  void everyFormatWritesTheNeighbourhoodAndOpenLineageGoesBackIn() throws IOException {
    String p = Live.unique("export");
    String a = p + ".a";
    String b = p + ".b";
    try {
      client.assets().create(AssetInput.builder(a, "A", "table").build());
      client.assets().create(AssetInput.builder(b, "B", "table").build());
      client.lineage().create(EdgeInput.of(a, b));
      for (ExportFormat format : List.of(ExportFormat.DOT, ExportFormat.MERMAID, ExportFormat.CSV)) {
        LineageExport file =
            client.lineage().export(a, ExportRequest.of(format).withDirection(Direction.DOWNSTREAM));
        assertFalse(file.truncated(), format.toString());
        assertTrue(file.text().contains(a) && file.text().contains(b), file.text());
        assertTrue(file.filename().startsWith("lineage-"), file.filename());
      }

      LineageExport events =
          client.lineage().export(b, ExportRequest.of(ExportFormat.OPENLINEAGE).withDirection(Direction.UPSTREAM));
      assertTrue(events.filename().endsWith(".json"), events.filename());
      JsonNode array = Json.MAPPER.readTree(events.text());
      List<String> jobs = new ArrayList<>();
      array.forEach(event -> jobs.add(event.path("job").path("name").asText()));
      assertTrue(jobs.contains(b), jobs.toString());
      client.lineage().deleteEdge(a, b);
      client.lineage().openLineage(array);
      List<String> upstream = client.lineage().upstream(b).nodes().stream().map(GraphNode::id).toList();
      assertTrue(upstream.contains(a), upstream.toString());

      LineageExport cut =
          client.lineage().export(a, ExportRequest.of(ExportFormat.CSV).withDirection(Direction.DOWNSTREAM).withLimit(1));
      assertTrue(cut.truncated());
      assertFalse(cut.text().contains(b), cut.text());
    } finally {
      Live.cleanUp(client, p);
    }
  }

  @Test
  void anUnknownAssetAndALimitAboveTheMaximumAreRefused() {
    String p = Live.unique("export-refused");
    String a = p + ".a";
    ExportRequest dot = ExportRequest.of(ExportFormat.DOT);
    assertThrows(NotFoundException.class, () -> client.lineage().export(p + ".missing", dot));
    try {
      client.assets().create(AssetInput.builder(a, "A", "table").build());
      ValidationException refused =
          assertThrows(ValidationException.class, () -> client.lineage().export(a, dot.withLimit(100_000_000)));
      assertEquals(List.of("query.limit"), refused.errors().stream().map(FieldError::path).toList());
    } finally {
      Live.cleanUp(client, p);
    }
  }
}
