package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.governance.client.exception.ConflictException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.Asset;
import dev.governance.client.model.AssetFilter;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.Counts;
import dev.governance.client.model.Dataset;
import dev.governance.client.model.EdgeEnd;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.ManifestOptions;
import dev.governance.client.model.ManifestSummary;
import dev.governance.client.model.SqlInput;
import dev.governance.client.model.SqlResult;
import dev.governance.client.model.SqlStatement;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Datasets on assets and edges, dataset filters, manifest namespaces and SQL ingestion, offline. */
class DatasetsSqlTest {
  private static final String ORDERS =
      "{\"id\":\"model.shop.orders\",\"name\":\"orders\",\"type\":\"model\",\"platform\":\"snowflake\","
          + "\"owners\":[],\"tags\":[],\"columns\":[],\"properties\":{},"
          + "\"dataset\":{\"namespace\":\"snowflake://acme-prod\",\"name\":\"ANALYTICS.PUBLIC.ORDERS\"},"
          + "\"aliases\":[\"snowflake://acme-prod/ANALYTICS.PUBLIC.ORDERS\"],\"placeholder\":false,"
          + "\"created_at\":\"2026-01-01T00:00:00Z\",\"updated_at\":\"2026-01-01T00:00:00Z\",\"version\":2}";
  private static final Dataset SNOWFLAKE_ORDERS = Dataset.of("snowflake://acme-prod", "analytics.public.orders");

  private static GovernanceClient client(FakeTransport fake) {
    return VectorsTest.client(fake);
  }

  @Test
  void anAssetReadsItsDatasetAndAliasesAndWritesTheDatasetBack() throws IOException {
    FakeTransport fake = new FakeTransport().thenJson(200, ORDERS).thenJson(200, ORDERS);
    GovernanceClient client = client(fake);

    Asset asset = client.assets().get("snowflake://acme-prod/ANALYTICS.PUBLIC.ORDERS");
    assertEquals("/api/v1/assets/snowflake%3A%2F%2Facme-prod%2FANALYTICS.PUBLIC.ORDERS", fake.last().uri().getRawPath());
    assertEquals("model.shop.orders", asset.id());
    assertEquals(Dataset.of("snowflake://acme-prod", "ANALYTICS.PUBLIC.ORDERS"), asset.dataset());
    assertEquals(List.of("snowflake://acme-prod/ANALYTICS.PUBLIC.ORDERS"), asset.aliases());

    assertEquals(asset.dataset(), asset.toInput().dataset());
    client.assets().put(asset.id(), asset.toBuilder().description("d").build(), asset.version());
    JsonNode body = FakeTransport.jsonOf(fake.last());
    assertEquals("snowflake://acme-prod", body.at("/dataset/namespace").asText());
    assertEquals("ANALYTICS.PUBLIC.ORDERS", body.at("/dataset/name").asText());
    assertTrue(body.path("aliases").isMissingNode(), "aliases are read-only: " + body);
  }

  @Test
  void anAssetWithoutDatasetReadsNullAndNoAliasesAndSendsNoDataset() throws IOException {
    String plain = ORDERS.replaceAll("\"dataset\":\\{[^}]*\\},\"aliases\":\\[[^]]*\\],", "");
    FakeTransport fake = new FakeTransport().thenJson(200, plain).thenJson(201, plain);
    GovernanceClient client = client(fake);
    Asset asset = client.assets().get("model.shop.orders");
    assertNull(asset.dataset());
    assertEquals(List.of(), asset.aliases());

    client.assets().create(AssetInput.builder("a", "A", "table").build());
    assertTrue(FakeTransport.jsonOf(fake.last()).path("dataset").isMissingNode());
    assertEquals(
        SNOWFLAKE_ORDERS,
        AssetInput.builder("a", "A", "table").build().withDataset(SNOWFLAKE_ORDERS).dataset());
  }

  @Test
  void createSendsTheDatasetAndPatchSetsOrRemovesIt() throws IOException {
    FakeTransport fake = new FakeTransport().thenJson(201, ORDERS).thenJson(200, ORDERS).thenJson(200, ORDERS);
    GovernanceClient client = client(fake);
    client.assets()
        .create(AssetInput.builder("model.shop.orders", "orders", "model")
            .dataset("snowflake://acme-prod", "analytics.public.orders")
            .build());
    assertEquals(
        "{\"id\":\"model.shop.orders\",\"name\":\"orders\",\"type\":\"model\","
            + "\"dataset\":{\"namespace\":\"snowflake://acme-prod\",\"name\":\"analytics.public.orders\"}}",
        FakeTransport.bodyOf(fake.last()));

    client.assets().patch("model.shop.orders", Map.of("dataset", SNOWFLAKE_ORDERS));
    assertEquals(
        "{\"dataset\":{\"namespace\":\"snowflake://acme-prod\",\"name\":\"analytics.public.orders\"}}",
        FakeTransport.bodyOf(fake.last()));
    Map<String, Object> remove = new HashMap<>();
    remove.put("dataset", null);
    client.assets().patch("model.shop.orders", remove);
    assertEquals("{\"dataset\":null}", FakeTransport.bodyOf(fake.last()));
  }

  @Test
  void theDatasetFiltersAreQueryParameters() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[],\"next_cursor\":null}")
            .thenJson(200, "{\"items\":[" + ORDERS + "],\"next_cursor\":null}")
            .thenJson(200, "{\"items\":[" + ORDERS + "],\"next_cursor\":null}")
            .thenJson(200, "{\"items\":[],\"next_cursor\":null}");
    GovernanceClient client = client(fake);

    client.assets().list(AssetFilter.builder().datasetNamespace("postgres://DB").type("table").build()).stream().count();
    assertEquals("type=table&dataset_namespace=postgres%3A%2F%2FDB", fake.last().uri().getRawQuery());

    List<Asset> holder = client.assets().list(AssetFilter.builder().dataset(SNOWFLAKE_ORDERS).build()).stream().toList();
    assertEquals(1, holder.size());
    assertEquals(
        "dataset_namespace=snowflake%3A%2F%2Facme-prod&dataset_name=analytics.public.orders",
        fake.last().uri().getRawQuery());

    assertEquals(Optional.of("model.shop.orders"), client.assets().findByDataset(SNOWFLAKE_ORDERS).map(Asset::id));
    assertEquals(
        "dataset_namespace=snowflake%3A%2F%2Facme-prod&dataset_name=analytics.public.orders",
        fake.last().uri().getRawQuery());
    assertEquals(Optional.empty(), client.assets().findByDataset(Dataset.of("s3://b", "k")));
    assertThrows(IllegalArgumentException.class, () -> client.assets().findByDataset(Dataset.of(null, "x")));
    assertEquals(4, fake.requests.size());
  }

  @Test
  void aDatasetTakenConflictNamesItsHolder() {
    String problem =
        "{\"type\":\"/problems/dataset_taken\",\"title\":\"Conflict\",\"status\":409,\"detail\":\"held\","
            + "\"code\":\"dataset_taken\",\"request_id\":\"r1\",\"holder\":\"api.orders\","
            + "\"dataset\":{\"namespace\":\"snowflake://acme-prod\",\"name\":\"ANALYTICS.PUBLIC.ORDERS\"}}";
    FakeTransport fake =
        new FakeTransport()
            .then(r -> FakeTransport.response(409, problem, "application/problem+json"))
            .thenProblem(409, "already_exists");
    GovernanceClient client = client(fake);
    AssetInput input = AssetInput.builder("x", "x", "table").dataset(SNOWFLAKE_ORDERS).build();

    ConflictException taken = assertThrows(ConflictException.class, () -> client.assets().create(input));
    assertEquals(409, taken.status());
    assertEquals("dataset_taken", taken.code());
    assertEquals(Optional.of("api.orders"), taken.holder());
    assertEquals("api.orders", taken.problem().extension("holder"));
    assertEquals(
        Map.of("namespace", "snowflake://acme-prod", "name", "ANALYTICS.PUBLIC.ORDERS"),
        taken.problem().extensions().get("dataset"));
    assertEquals(1, fake.requests.size(), "a 409 is never retried");

    ConflictException exists = assertThrows(ConflictException.class, () -> client.assets().create(input));
    assertEquals(Optional.empty(), exists.holder());
    assertEquals(Map.of(), exists.problem().extensions());
  }

  @Test
  void edgeEndsMayBeDatasets() throws IOException {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(201, "{\"source\":\"s3://b/raw/orders\",\"target\":\"model.shop.orders\",\"origins\":[\"api\"]}")
            .thenJson(200, "{\"received\":2,\"created\":2,\"existing\":0,\"assets_created\":1}");
    GovernanceClient client = client(fake);

    client.lineage().create(EdgeInput.of(Dataset.of("s3://b", "raw/orders"), "model.shop.orders"));
    assertEquals(
        "{\"source\":{\"namespace\":\"s3://b\",\"name\":\"raw/orders\"},\"target\":\"model.shop.orders\"}",
        FakeTransport.bodyOf(fake.last()));

    client.lineage().bulk(List.of(
        EdgeInput.of("model.shop.orders", SNOWFLAKE_ORDERS),
        EdgeInput.of(EdgeEnd.dataset("s3://b", "x"), EdgeEnd.asset("y"), "copy")));
    assertEquals(
        "[{\"source\":\"model.shop.orders\",\"target\":{\"namespace\":\"snowflake://acme-prod\","
            + "\"name\":\"analytics.public.orders\"}},"
            + "{\"source\":{\"namespace\":\"s3://b\",\"name\":\"x\"},\"target\":\"y\",\"transformation\":\"copy\"}]",
        FakeTransport.bodyOf(fake.last()));

    assertEquals("y", EdgeEnd.asset("y").toString());
    assertEquals(new EdgeEnd.AssetId("a"), EdgeInput.of("a", "b").source());
    assertEquals(EdgeInput.of("a", "b"), new EdgeInput("a", "b", null));
  }

  @Test
  void pushBulkChunksEdgesByDataset() throws IOException {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"received\":2,\"created\":2,\"existing\":0,\"assets_created\":3}")
            .thenJson(200, "{\"received\":1,\"created\":1,\"existing\":0,\"assets_created\":1}");
    List<EdgeInput> edges =
        List.of(
            EdgeInput.of(Dataset.of("postgres://db", "raw.a"), "m.a"),
            EdgeInput.of(Dataset.of("postgres://db", "raw.b"), "m.b"),
            EdgeInput.of(EdgeEnd.dataset("postgres://db", "raw.c"), EdgeEnd.dataset("postgres://db", "mart.c")));
    BulkResult total = client(fake).lineage().pushBulk(edges, 2, true);
    assertEquals(new BulkResult(3, 3, 0, 4), total);
    assertEquals(2, fake.requests.size());
    assertEquals("strict=true", fake.last().uri().getRawQuery());
    JsonNode last = FakeTransport.jsonOf(fake.last());
    assertEquals(1, last.size());
    assertEquals("mart.c", last.at("/0/target/name").asText());
    assertEquals("raw.a", FakeTransport.jsonOf(fake.requests.get(0)).at("/0/source/name").asText());
  }

  @Test
  void manifestUploadSendsTheNamespaceAndReadsMerged() {
    String summary =
        "{\"project\":\"shop\",\"dbt_version\":\"1.8.10\",\"dbt_schema_version\":\"v12\","
            + "\"assets\":{\"created\":8,\"updated\":0,\"merged\":2},"
            + "\"edges\":{\"created\":7,\"existing\":0,\"removed\":0},"
            + "\"quality_rules\":{\"created\":0,\"updated\":0,\"removed\":0},\"skipped\":0,\"warnings\":[]}";
    FakeTransport fake =
        new FakeTransport().thenJson(200, summary).thenJson(200, summary.replace(",\"merged\":2", ""));
    GovernanceClient client = client(fake);
    byte[] manifest = {'{', '}'};

    ManifestSummary s =
        client.lineage()
            .uploadManifest(manifest, ManifestOptions.namespace("snowflake://acme-prod").withProject("shop"));
    assertEquals(
        "project=shop&namespace=snowflake%3A%2F%2Facme-prod&prune=true", fake.last().uri().getRawQuery());
    assertEquals(2, s.assets().merged());
    assertEquals(Duration.ofMinutes(10), fake.last().timeout());

    ManifestSummary old =
        client.lineage().uploadManifestWithResponse(manifest, ManifestOptions.defaults().withPrune(false), null).value();
    assertEquals("prune=false", fake.last().uri().getRawQuery());
    assertEquals(0, old.assets().merged());
    assertEquals(new ManifestSummary.Assets(8, 0), old.assets());
  }

  @Test
  void ingestSqlSendsAScriptAndReadsTheResult() throws IOException {
    String result =
        "{\"origin\":\"sql:nightly\",\"statements\":{\"received\":2,\"with_lineage\":1,\"without_lineage\":0,"
            + "\"failed\":1},\"edges\":{\"created\":1,\"existing\":0},\"column_mappings\":{\"created\":2,"
            + "\"existing\":0},\"assets_created\":2,\"failures\":[{\"index\":1,\"message\":\"Expected table name\","
            + "\"query_id\":null}],\"warnings\":[]}";
    FakeTransport fake =
        new FakeTransport().thenThrow(new java.net.SocketTimeoutException("slow")).thenJson(200, result);
    SqlResult r =
        client(fake).lineage()
            .ingestSql(SqlInput.script("postgres", "postgres://db", "insert into a select * from b; select broken from")
                .withDefaultSchema("public")
                .withSource("nightly"));

    TransportRequest request = fake.last();
    assertEquals("POST", request.method());
    assertEquals("/api/v1/lineage/sql", request.uri().getRawPath());
    assertEquals(
        "{\"dialect\":\"postgres\",\"namespace\":\"postgres://db\",\"default_schema\":\"public\","
            + "\"source\":\"nightly\",\"sql\":\"insert into a select * from b; select broken from\"}",
        FakeTransport.bodyOf(request));
    assertEquals(2, fake.requests.size(), "retried with its key");
    assertEquals(fake.requests.get(0).header("Idempotency-Key"), request.header("Idempotency-Key"));
    assertTrue(request.header("Idempotency-Key").isPresent());
    assertEquals(Duration.ofMinutes(10), request.timeout());

    assertEquals("sql:nightly", r.origin());
    assertEquals(new SqlResult.Statements(2, 1, 0, 1), r.statements());
    assertEquals(new Counts(1, 0), r.edges());
    assertEquals(new Counts(2, 0), r.columnMappings());
    assertEquals(2, r.assetsCreated());
    assertEquals(List.of(new SqlResult.Failure(1, "Expected table name", null)), r.failures());
    assertEquals(List.of(), r.warnings());
  }

  @Test
  void ingestSqlSendsAQueryLog() throws IOException {
    String empty =
        "{\"origin\":\"sql:api\",\"statements\":{\"received\":2,\"with_lineage\":0,\"without_lineage\":2,"
            + "\"failed\":0},\"edges\":{\"created\":0,\"existing\":0},\"column_mappings\":{\"created\":0,"
            + "\"existing\":0},\"assets_created\":0,\"failures\":[],\"warnings\":[]}";
    FakeTransport fake = new FakeTransport().thenJson(200, empty).thenJson(200, empty).thenJson(200, empty);
    GovernanceClient client = client(fake);

    client.lineage()
        .ingestSql(SqlInput.queryLog("snowflake", "snowflake://acme-prod", List.of(
                SqlStatement.of("select 1", "q-1").withUser("ana").withTimestamp(Instant.parse("2026-01-31T09:00:00Z")),
                SqlStatement.of("select 2")))
            .withDefaultDatabase("ANALYTICS"));
    assertEquals(
        "{\"dialect\":\"snowflake\",\"namespace\":\"snowflake://acme-prod\",\"default_database\":\"ANALYTICS\","
            + "\"statements\":[{\"sql\":\"select 1\",\"query_id\":\"q-1\",\"user\":\"ana\","
            + "\"timestamp\":\"2026-01-31T09:00:00Z\"},{\"sql\":\"select 2\"}]}",
        FakeTransport.bodyOf(fake.last()));

    client.lineage().ingestSql(SqlInput.queryLog("duckdb", "duckdb://w", "select 1", "select 2"));
    assertEquals(2, FakeTransport.jsonOf(fake.last()).get("statements").size());

    client.lineage().ingestSql("duckdb", "duckdb://w", "select 1");
    assertEquals("select 1", FakeTransport.jsonOf(fake.last()).get("sql").asText());
    assertThrows(IllegalArgumentException.class, () -> client.lineage().ingestSql(null));
  }

  @Test
  void anUnknownDialectIsAValidationErrorAtBodyDialect() {
    String problem =
        "{\"type\":\"/problems/validation_error\",\"title\":\"Unprocessable\",\"status\":422,"
            + "\"code\":\"validation_error\",\"errors\":[{\"loc\":[\"body\",\"dialect\"],"
            + "\"msg\":\"unknown dialect\",\"type\":\"unknown_dialect\"}]}";
    FakeTransport fake = new FakeTransport().then(r -> FakeTransport.response(422, problem, "application/problem+json"));
    ValidationException error =
        assertThrows(
            ValidationException.class,
            () -> client(fake).lineage().ingestSql("klingon", "postgres://db", "select 1"));
    assertEquals("body.dialect", error.errors().get(0).path());
    assertEquals(1, fake.requests.size());
  }
}
