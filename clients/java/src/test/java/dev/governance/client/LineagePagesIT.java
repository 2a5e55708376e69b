package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.CappedNode;
import dev.governance.client.model.Direction;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.GraphNode;
import dev.governance.client.model.LineageGraph;
import dev.governance.client.model.Traversal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Traversal pages, filters and fanout against a running service (see {@link Live}), on root ->
 * t1 -> d1, root -> d2, root -> t2 -> r1 (d* dashboards, r1 a report, t* tables).
 */
class LineagePagesIT {
  private static final Map<String, String> TYPES =
      Map.of("root", "table", "t1", "table", "t2", "table", "d1", "dashboard", "d2", "dashboard",
          "r1", "report");
  private static GovernanceClient client;
  private String p;

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  @BeforeEach
  void makeLineage() {
    p = Live.unique("pages") + ".";
    TYPES.forEach((name, type) -> client.assets().create(AssetInput.builder(p + name, name, type).build()));
    List<EdgeInput> edges = new ArrayList<>();
    for (String[] e : new String[][] {{"root", "t1"}, {"t1", "d1"}, {"root", "d2"}, {"root", "t2"}, {"t2", "r1"}}) {
      edges.add(EdgeInput.of(p + e[0], p + e[1]));
    }
    client.lineage().bulk(edges, true);
  }

  @AfterEach
  void cleanUp() {
    Live.cleanUp(client, p);
  }

  private static Set<String> ids(LineageGraph graph) {
    return graph.nodes().stream().map(GraphNode::id).collect(Collectors.toSet());
  }

  @Test
  void pagesGiveEveryNodeOnceTheRootInTheFirst() {
    LineageGraph whole = client.lineage().downstream(p + "root");
    assertFalse(whole.truncated());
    List<String> seen = new ArrayList<>();
    int pages = 0;
    for (LineageGraph page :
        client.lineage().graphPages(p + "root", Direction.DOWNSTREAM, Traversal.limit(2))) {
      pages++;
      assertEquals(page.truncated(), page.hasNext());
      assertTrue(page.nodes().size() <= 2, "a page holds at most the limit");
      assertEquals(pages == 1, page.node(p + "root").isPresent(), "the root, on the first page only");
      if (!page.hasNext()) {
        assertEquals(0, page.remaining().downstream());
      }
      seen.addAll(page.nodeIds());
    }
    assertEquals(3, pages);
    assertEquals(whole.nodes().size(), seen.size(), "no node twice: " + seen);
    assertEquals(ids(whole), new HashSet<>(seen));
  }

  @Test
  void filtersShowTheMatchingAssetsAndCountTheHidden() {
    LineageGraph shown =
        client.lineage().downstream(p + "root", Traversal.defaults().withTypes("dashboard", "report"));
    assertEquals(Set.of(p + "root", p + "d1", p + "d2", p + "r1"), ids(shown));
    assertEquals(2, shown.hidden().downstream());
    assertEquals(2, shown.node(p + "d1").orElseThrow().distance(), "its true distance");
    Instant now = client.assets().history(p + "root").pageSize(1).firstPage().items().get(0).at();
    ValidationException refused =
        assertThrows(
            ValidationException.class,
            () -> client.lineage().downstream(p + "root", Traversal.asOf(now).withTypes("dashboard")));
    assertEquals("validation_error", refused.code());
    assertEquals(1, refused.fieldErrors().size());
    assertEquals("query.type", refused.fieldErrors().get(0).path());
    assertEquals("unsupported_combination", refused.fieldErrors().get(0).type());
  }

  @Test
  void fanoutListsTheNodesItCut() {
    LineageGraph cut =
        client.lineage().downstream(p + "root", Traversal.depth(1).withFanout(1));
    assertEquals(2, cut.nodes().size());
    assertTrue(
        cut.capped().contains(new CappedNode(p + "root", Direction.DOWNSTREAM, 1, 3)),
        "capped: " + cut.capped());
  }
}
