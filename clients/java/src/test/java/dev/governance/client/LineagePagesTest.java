package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.CappedNode;
import dev.governance.client.model.Direction;
import dev.governance.client.model.GraphEdge;
import dev.governance.client.model.LineageGraph;
import dev.governance.client.model.SideCounts;
import dev.governance.client.model.Traversal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Traversals page by page and filtered, scripted: what is sent, what is read, when it stops. */
class LineagePagesTest {
  private static final String FIRST =
      page(
          "\"p2\"",
          node("root", "table", 0, "root") + "," + node("b", "dashboard", 2, "downstream"),
          "{\"source\":\"root\",\"target\":\"b\",\"transformation\":null}",
          "{\"downstream\":3}",
          "{\"downstream\":1}",
          "{\"id\":\"root\",\"direction\":\"downstream\",\"shown\":2,\"total\":7}");
  private static final String SECOND =
      page(
          "\"p3\"",
          node("c", "dashboard", 2, "downstream") + "," + node("d", "report", 3, "downstream"),
          "",
          "{\"downstream\":1}",
          "{\"downstream\":1}",
          "");
  private static final String LAST =
      page("null", node("e", "report", 3, "downstream"), "", "{\"downstream\":0}", "{\"downstream\":1}", "");

  private static String node(String id, String type, int distance, String direction) {
    return "{\"id\":\"" + id + "\",\"name\":\"" + id + "\",\"type\":\"" + type
        + "\",\"platform\":null,\"tags\":[],\"placeholder\":false,\"distance\":" + distance
        + ",\"direction\":\"" + direction + "\"}";
  }

  private static String page(
      String next, String nodes, String edges, String remaining, String hidden, String capped) {
    return "{\"root\":\"root\",\"direction\":\"downstream\",\"depth\":3,\"truncated\":"
        + !"null".equals(next) + ",\"next_cursor\":" + next + ",\"nodes\":[" + nodes
        + "],\"edges\":[" + edges + "],\"remaining\":" + remaining + ",\"hidden\":" + hidden
        + ",\"capped\":[" + capped + "]}";
  }

  private static FakeTransport threePages() {
    return new FakeTransport().thenJson(200, FIRST).thenJson(200, SECOND).thenJson(200, LAST);
  }

  private static String query(TransportRequest request) {
    return request.uri().getRawQuery();
  }

  @Test
  void graphPagesFollowsTheCursorWithTheSameSettings() {
    FakeTransport fake = threePages();
    Traversal filtered =
        Traversal.depth(3)
            .withLimit(2)
            .withAsOf(Instant.parse("2026-11-01T12:00:00.123Z"))
            .withTypes("dashboard", "report")
            .withPlatforms("looker")
            .withTags("gold", "pii")
            .withOwners("bi@example.com")
            .withFanout(2);
    List<String> ids = new ArrayList<>();
    List<String> cursors = new ArrayList<>();
    for (LineageGraph page :
        VectorsTest.client(fake).lineage().graphPages("root", Direction.DOWNSTREAM, filtered)) {
      ids.addAll(page.nodeIds());
      cursors.add(page.nextCursor());
    }
    assertEquals(List.of("root", "b", "c", "d", "e"), ids);
    assertEquals(Arrays.asList("p2", "p3", null), cursors);
    assertEquals(3, fake.requests.size());
    String settings =
        "depth=3&limit=2&as_of=2026-11-01T12%3A00%3A00.123Z{cursor}&type=dashboard&type=report"
            + "&platform=looker&tag=gold&tag=pii&owner=bi%40example.com&fanout=2&direction=downstream";
    assertEquals(settings.replace("{cursor}", ""), query(fake.requests.get(0)));
    assertEquals(settings.replace("{cursor}", "&cursor=p2"), query(fake.requests.get(1)));
    assertEquals(settings.replace("{cursor}", "&cursor=p3"), query(fake.requests.get(2)));
    assertEquals("/api/v1/lineage/root", fake.requests.get(2).uri().getRawPath());
  }

  @Test
  void aPageSaysWhatItLeftOut() {
    FakeTransport fake = new FakeTransport().thenJson(200, FIRST).thenJson(200, LAST);
    LineageService lineage = VectorsTest.client(fake).lineage();
    LineageGraph first = lineage.downstream("root", Traversal.limit(2));
    assertTrue(first.truncated());
    assertTrue(first.hasNext());
    assertEquals("p2", first.nextCursor());
    assertEquals(new SideCounts(0, 3), first.remaining());
    assertEquals(new SideCounts(0, 1), first.hidden());
    assertEquals(List.of(new CappedNode("root", Direction.DOWNSTREAM, 2, 7)), first.capped());
    assertEquals(List.of(new GraphEdge("root", "b", null)), first.edges());
    LineageGraph last = lineage.downstream("root", Traversal.limit(2).withCursor("p3"));
    assertEquals("limit=2&cursor=p3", query(fake.last()));
    assertFalse(last.truncated());
    assertNull(last.nextCursor());
    assertEquals(new SideCounts(0, 0), last.remaining());
  }

  @Test
  void anAnswerWithoutTheNewFieldsReadsAsOnePage() {
    String old =
        "{\"root\":\"a\",\"direction\":\"both\",\"depth\":5,\"nodes\":[],\"edges\":"
            + "[{\"source\":\"a\",\"target\":\"b\"}],\"truncated\":false}";
    LineageGraph g = VectorsTest.client(new FakeTransport().thenJson(200, old)).lineage().graph("a");
    assertEquals(new SideCounts(0, 0), g.remaining());
    assertEquals(List.of(), g.capped());
    assertEquals(List.of(new GraphEdge("a", "b", null)), g.edges());
    assertFalse(g.hasNext());
  }

  @Test
  void graphPagesStartsAtTheGivenCursorSendsNothingBeforeIterationAndStopsWithIt() {
    FakeTransport fake = new FakeTransport().thenJson(200, SECOND);
    PagedIterable<LineageGraph> pages =
        VectorsTest.client(fake)
            .lineage()
            .graphPages("root", Direction.DOWNSTREAM, Traversal.defaults().withCursor("p2"))
            .pageSize(2);
    assertEquals(0, fake.requests.size());
    Iterator<LineageGraph> it = pages.iterator();
    assertEquals(List.of("c", "d"), it.next().nodeIds());
    assertEquals(1, fake.requests.size());
    assertEquals("limit=2&cursor=p2&direction=downstream", query(fake.last()));
  }

  @Test
  void anErrorSurfacesFromTheIteration() {
    FakeTransport fake = new FakeTransport().thenJson(200, FIRST).thenProblem(422, "invalid_cursor");
    Iterator<LineageGraph> it =
        VectorsTest.client(fake, 0)
            .lineage()
            .graphPages("root", Direction.BOTH, Traversal.defaults())
            .iterator();
    assertEquals(2, it.next().nodes().size());
    assertThrows(ValidationException.class, it::hasNext);
  }

  @Test
  void aCursorThatDoesNotMoveIsRefused() {
    FakeTransport fake =
        new FakeTransport().always(r -> FakeTransport.response(200, FIRST, "application/json"));
    Iterator<LineageGraph> it =
        VectorsTest.client(fake)
            .lineage()
            .graphPages("root", Direction.BOTH, Traversal.defaults())
            .iterator();
    it.next();
    assertThrows(IllegalStateException.class, it::next);
    assertEquals(2, fake.requests.size());
  }

  @Test
  void columnTraversalsRefusePagingFiltersAndFanoutWithoutARequest() {
    FakeTransport fake = new FakeTransport();
    LineageService lineage = VectorsTest.client(fake).lineage();
    List<Function<Traversal, Traversal>> assetOnly =
        List.of(
            t -> t.withCursor("p2"),
            t -> t.withFanout(3),
            t -> t.withTypes("table"),
            t -> t.withPlatforms("dbt"),
            t -> t.withTags("pii"),
            t -> t.withOwners("x@example.com"));
    for (Function<Traversal, Traversal> setting : assetOnly) {
      Traversal bounds = setting.apply(Traversal.depth(2));
      assertThrows(IllegalArgumentException.class, () -> lineage.columnUpstream("a", "x", bounds));
      assertThrows(IllegalArgumentException.class, () -> lineage.columnDownstream("a", "x", bounds));
    }
    assertEquals(0, fake.requests.size());
  }

  @Test
  void filtersAreValidatedAndImmutable() {
    Traversal base = Traversal.depth(2);
    Traversal typed = base.withTypes("table", "view");
    assertEquals(List.of(), base.types());
    assertEquals(List.of("table", "view"), typed.types());
    assertEquals(Traversal.depth(2).withTypes("table", "view"), typed);
    assertThrows(IllegalArgumentException.class, () -> base.withTags("pii", ""));
    assertThrows(IllegalArgumentException.class, () -> base.withOwners((String) null));
    assertThrows(IllegalArgumentException.class, () -> base.withFanout(0));
    assertThrows(UnsupportedOperationException.class, () -> typed.types().add("x"));
  }
}
