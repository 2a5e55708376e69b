package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.NotFoundException;
import dev.governance.client.model.AssetVersion;
import dev.governance.client.model.BulkOptions;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.DiffOptions;
import dev.governance.client.model.Direction;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.ImpactOptions;
import dev.governance.client.model.ImpactReport;
import dev.governance.client.model.LineageDiff;
import dev.governance.client.model.Retired;
import dev.governance.client.model.Traversal;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Lineage through time, asset history, change impact and origin-owned edge sets, scripted. */
class HistoryImpactTest {
  private static final Instant MOMENT = Instant.parse("2026-11-01T12:00:00.123456Z");
  private static final String GRAPH =
      "{\"root\":\"a\",\"direction\":\"both\",\"depth\":5,\"nodes\":[],\"edges\":[],\"truncated\":false}";
  private static final String COLUMNS =
      "{\"root\":{\"asset\":\"a\",\"column\":\"x\"},\"direction\":\"upstream\",\"depth\":5,\"nodes\":[],\"edges\":[],\"truncated\":false}";

  @Test
  void everyTraversalSendsAsOfInUtcToTheMillisecond() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, GRAPH)
            .thenJson(200, GRAPH)
            .thenJson(200, GRAPH)
            .thenJson(200, COLUMNS)
            .thenJson(200, COLUMNS);
    LineageService lineage = VectorsTest.client(fake).lineage();
    Traversal then = Traversal.asOf(MOMENT).withDepth(2);
    lineage.graph("a", Direction.BOTH, then);
    lineage.upstream("a", then);
    lineage.downstream("a", then);
    lineage.columnUpstream("a", "x", then);
    lineage.columnDownstream("a", "x", then);
    for (TransportRequest request : fake.requests) {
      assertTrue(
          request.uri().getRawQuery().contains("depth=2&as_of=2026-11-01T12%3A00%3A00.123Z"),
          request.uri().toString());
    }
    assertEquals(Traversal.depth(2).withAsOf(MOMENT), then);
    assertFalse(Traversal.depth(2).asOf().isPresent());
  }

  @Test
  void aRootMissingThenIsNotFound() {
    FakeTransport fake = new FakeTransport().thenProblem(404, "asset_not_found");
    assertThrows(
        NotFoundException.class,
        () -> VectorsTest.client(fake).lineage().upstream("a", Traversal.asOf(MOMENT)));
  }

  @Test
  void diffSendsItsRangeAndReadsBothSides() {
    String answer =
        "{\"from\":\"2026-11-01T12:00:00.123Z\",\"to\":\"2026-11-27T06:00:00.000Z\","
            + "\"added\":{\"nodes\":[{\"id\":\"b\",\"name\":\"b\",\"type\":\"table\",\"tags\":[],"
            + "\"placeholder\":false,\"distance\":1,\"direction\":\"downstream\"}],"
            + "\"edges\":[{\"source\":\"a\",\"target\":\"b\",\"transformation\":null}]},"
            + "\"removed\":{\"nodes\":[],\"edges\":[]},\"changed\":{\"edges\":[{\"source\":\"b\","
            + "\"target\":\"c\",\"transformation\":\"select 2\",\"previous_transformation\":\"select 1\"}]},"
            + "\"root\":\"s3://lake/x\",\"direction\":\"downstream\",\"depth\":3,\"truncated\":false}";
    FakeTransport fake = new FakeTransport().thenJson(200, answer).thenJson(200, answer);
    LineageService lineage = VectorsTest.client(fake).lineage();
    LineageDiff diff = lineage.diff("s3://lake/x", DiffOptions.from(MOMENT));
    assertEquals("b", diff.added().nodes().get(0).id());
    assertEquals("b", diff.added().edges().get(0).target());
    assertTrue(diff.removed().isEmpty());
    assertEquals(Instant.parse("2026-11-27T06:00:00Z"), diff.to());
    assertEquals(
        new LineageDiff.ChangedEdge("b", "c", "select 2", "select 1"), diff.changed().edges().get(0));
    assertEquals(Direction.DOWNSTREAM, diff.direction());
    assertEquals("/api/v1/lineage/s3%3A%2F%2Flake%2Fx/diff", fake.requests.get(0).uri().getRawPath());
    assertEquals("from=2026-11-01T12%3A00%3A00.123Z", fake.requests.get(0).uri().getRawQuery());

    lineage.diff(
        "a",
        DiffOptions.from(MOMENT)
            .withTo(Instant.parse("2026-11-20T00:00:00Z"))
            .withDirection(Direction.DOWNSTREAM)
            .withDepth(3)
            .withLimit(100));
    assertEquals(
        "from=2026-11-01T12%3A00%3A00.123Z&to=2026-11-20T00%3A00%3A00.000Z&direction=downstream&depth=3&limit=100",
        fake.last().uri().getRawQuery());
    assertThrows(NullPointerException.class, () -> DiffOptions.from(null));
    assertThrows(IllegalArgumentException.class, () -> DiffOptions.from(MOMENT).withDepth(0));
  }

  @Test
  void historyPagesNewestFirst() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[" + version(3) + "," + version(2) + "],\"next_cursor\":\"c2\"}")
            .thenJson(200, "{\"items\":[" + version(1) + "],\"next_cursor\":null}");
    List<AssetVersion> versions =
        VectorsTest.client(fake).assets().history("model.shop.orders").pageSize(2).stream().toList();
    assertEquals(List.of(3L, 2L, 1L), versions.stream().map(AssetVersion::version).toList());
    AssetVersion first = versions.get(0);
    assertEquals("token:tok_1", first.actor());
    assertEquals(Instant.parse("2026-11-03T00:00:00Z"), first.at());
    assertEquals(new AssetVersion.Change("description", null, "set", null, "v3"), first.changes().get(0));
    assertFalse(first.deleted());
    assertEquals("/api/v1/assets/model.shop.orders/history", fake.requests.get(0).uri().getRawPath());
    assertEquals("limit=2", fake.requests.get(0).uri().getRawQuery());
    assertEquals("limit=2&cursor=c2", fake.requests.get(1).uri().getRawQuery());
  }

  private static String version(int n) {
    return "{\"version\":" + n + ",\"at\":\"2026-11-0" + n + "T00:00:00.000Z\",\"actor\":\"token:tok_1\","
        + "\"deleted\":false,\"changes\":[{\"field\":\"description\",\"column\":null,\"change\":\"set\","
        + "\"from\":null,\"to\":\"v" + n + "\"}]}";
  }

  @Test
  void checkManifestIsAGzippedReadRetriedWithoutAKey(@TempDir Path dir) throws IOException {
    String report =
        "{\"changes\":[{\"kind\":\"column_type_changed\",\"asset\":\"model.shop.orders\",\"column\":\"id\","
            + "\"from\":\"int\",\"to\":\"text\",\"breaking\":true}],"
            + "\"impacted\":[{\"asset\":\"dash.revenue\",\"distance\":2,\"owners\":[\"bi@shop\"],"
            + "\"column\":null,\"via\":[\"model.shop.orders\",\"mart.revenue\",\"dash.revenue\"]}],"
            + "\"breaking\":true,\"project\":\"shop\",\"depth\":3}";
    FakeTransport fake = new FakeTransport().thenProblem(503, "neo4j_unavailable").thenJson(200, report);
    byte[] manifest = "{\"nodes\":{}}".getBytes(StandardCharsets.UTF_8);
    Path file = dir.resolve("manifest.json");
    Files.write(file, manifest);
    ImpactReport got =
        VectorsTest.client(fake)
            .lineage()
            .checkManifest(
                file, ImpactOptions.project("shop").withNamespace("snowflake://acme").withDepth(3));
    assertTrue(got.breaking());
    assertEquals(
        new ImpactReport.Change("column_type_changed", "model.shop.orders", "id", "int", "text", true),
        got.changes().get(0));
    ImpactReport.Impacted hit = got.impacted().get(0);
    assertEquals(List.of("bi@shop"), hit.owners());
    assertEquals(2, hit.distance());
    assertEquals(List.of("model.shop.orders", "mart.revenue", "dash.revenue"), hit.via());
    assertEquals("shop", got.project());
    assertEquals(3, got.depth());
    assertEquals(2, fake.requests.size());
    for (TransportRequest request : fake.requests) {
      assertEquals("POST", request.method());
      assertEquals("/api/v1/impact/manifest", request.uri().getRawPath());
      assertEquals("project=shop&namespace=snowflake%3A%2F%2Facme&depth=3", request.uri().getRawQuery());
      assertEquals("gzip", request.header("Content-Encoding").orElseThrow());
      assertFalse(request.header("Idempotency-Key").isPresent());
      assertArrayEquals(manifest, new GZIPInputStream(new ByteArrayInputStream(request.body())).readAllBytes());
    }
  }

  @Test
  void bulkNamesItsOriginAndReplacesItsSet() {
    String answer =
        "{\"received\":1,\"created\":0,\"existing\":1,\"assets_created\":0,\"retired\":{\"edges\":2,"
            + "\"edges_removed\":1,\"column_mappings\":0,\"column_mappings_removed\":0}}";
    FakeTransport fake = new FakeTransport().always(request -> FakeTransport.response(200, answer, "application/json"));
    LineageService lineage = VectorsTest.client(fake).lineage();
    List<EdgeInput> one = List.of(EdgeInput.of("a", "b"));
    BulkResult result = lineage.bulk(one, BulkOptions.origin("airflow:sync").withReplace(true));
    assertEquals(new Retired(2, 1, 0, 0), result.retired());
    assertEquals("origin=airflow%3Async&replace=true", fake.last().uri().getRawQuery());
    assertThrows(IllegalArgumentException.class, () -> BulkOptions.defaults().withReplace(true));

    List<EdgeInput> two = List.of(EdgeInput.of("a", "b"), EdgeInput.of("b", "c"));
    BulkResult pushed = lineage.pushBulk(two, 1, BulkOptions.origin("o"), RequestOptions.DEFAULTS);
    assertEquals(new Retired(4, 2, 0, 0), pushed.retired());
    assertEquals(3, fake.requests.size());
    assertEquals("origin=o", fake.last().uri().getRawQuery());
    BulkOptions replace = BulkOptions.origin("o").withReplace(true);
    assertThrows(
        IllegalArgumentException.class,
        () -> lineage.pushBulk(two, 1, replace, RequestOptions.DEFAULTS));
    assertEquals(3, fake.requests.size());
    assertEquals(2, lineage.pushBulk(two, 2, replace, RequestOptions.DEFAULTS).retired().edges());
    assertEquals(4, fake.requests.size());
  }
}
