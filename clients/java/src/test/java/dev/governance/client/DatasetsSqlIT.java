package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.ConflictException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.Asset;
import dev.governance.client.model.AssetFilter;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.Dataset;
import dev.governance.client.model.Edge;
import dev.governance.client.model.EdgeEnd;
import dev.governance.client.model.EdgeFilter;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.Event;
import dev.governance.client.model.EventFilter;
import dev.governance.client.model.ManifestOptions;
import dev.governance.client.model.ManifestSummary;
import dev.governance.client.model.Saved;
import dev.governance.client.model.SqlInput;
import dev.governance.client.model.SqlResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One asset per physical dataset, across tools, against a running service (see {@link Live}):
 * datasets on assets and their filters, edges by dataset and the merge of their placeholders,
 * {@code dataset_taken}, SQL ingestion and a manifest uploaded with a namespace. Each test
 * works in namespaces of its own.
 */
class DatasetsSqlIT {
  private static GovernanceClient client;

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  /** A prefix that is also a lower-case host name: java-<uuid>-what. */
  private static String prefix(String what) {
    return Live.unique(what);
  }

  @Test
  void anAssetHoldsItsDatasetNormalisedAndIsFoundByAnySpelling() {
    String p = prefix("sf");
    String id = p + "-orders";
    try {
      Asset created =
          client.assets().create(AssetInput.builder(id, "orders", "table")
              .platform("snowflake")
              .dataset("snowflake://" + p.toUpperCase(), "analytics.public.orders")
              .build());
      Dataset stored = Dataset.of("snowflake://" + p, "ANALYTICS.PUBLIC.ORDERS");
      assertEquals(stored, created.dataset(), "scheme and host lower-cased, the unquoted name upper-cased");
      assertEquals(List.of(), created.aliases());
      assertEquals(stored, client.assets().get(id).dataset());

      Dataset lower = Dataset.of("snowflake://" + p, "analytics.public.orders");
      assertEquals(Optional.of(id), client.assets().findByDataset(lower).map(Asset::id));
      assertEquals(
          List.of(id),
          client.assets().list(AssetFilter.builder().dataset(lower).build()).stream().map(Asset::id).toList());
      assertEquals(
          List.of(id),
          client.assets().list(AssetFilter.builder().datasetNamespace("SNOWFLAKE://" + p.toUpperCase()).build())
              .stream().map(Asset::id).toList());
      assertEquals(Optional.empty(), client.assets().findByDataset(Dataset.of("snowflake://" + p, "analytics.public.nope")));

      ConflictException taken =
          assertThrows(
              ConflictException.class,
              () -> client.assets().create(AssetInput.builder(p + "-other", "other", "table").dataset(lower).build()));
      assertEquals(409, taken.status());
      assertEquals("dataset_taken", taken.code());
      assertEquals(Optional.of(id), taken.holder());

      Map<String, Object> remove = new HashMap<>();
      remove.put("dataset", null);
      assertNull(client.assets().patch(id, remove).dataset());
      assertEquals(Optional.empty(), client.assets().findByDataset(lower));
      Asset again = client.assets().patch(id, Map.of("dataset", lower));
      assertEquals(stored, again.dataset());
      Asset replaced = client.assets().put(id, again.toBuilder().description("kept").build(), again.version()).value();
      assertEquals(stored, replaced.dataset(), "toInput() carries the dataset through a put");
    } finally {
      Live.cleanUp(client, p);
    }
  }

  @Test
  void anEdgeByDatasetMakesAPlaceholderThatAnAssetClaimingTheDatasetMerges() {
    String p = prefix("pg");
    String ns = "postgres://" + p;
    String placeholder = ns + ":5432/raw.orders";
    String stg = p + "-stg-orders";
    String claim = p + "-raw-orders";
    try {
      Saved<Edge> edge = client.lineage().create(EdgeInput.of(Dataset.of(ns, "RAW.Orders"), stg));
      assertTrue(edge.created());
      assertEquals(placeholder, edge.value().source());
      Asset held = client.assets().get(placeholder);
      assertTrue(held.placeholder());
      assertEquals(Dataset.of(ns + ":5432", "raw.orders"), held.dataset());

      ValidationException strict =
          assertThrows(
              ValidationException.class,
              () -> client.lineage().create(EdgeInput.of(Dataset.of(ns, "raw.missing"), stg), true));
      assertEquals("unknown_assets", strict.code());

      Asset claimed =
          client.assets().create(AssetInput.builder(claim, "raw orders", "table")
              .platform("postgres")
              .dataset(ns, "raw.orders")
              .build());
      assertEquals(List.of(placeholder), claimed.aliases());
      assertFalse(claimed.placeholder());
      Asset byOldId = client.assets().get(placeholder);
      assertEquals(claim, byOldId.id(), "a former id names the asset it was merged into");
      assertEquals(List.of(placeholder), byOldId.aliases());
      assertEquals(
          List.of(stg),
          client.lineage().edges(EdgeFilter.from(claim)).stream().map(Edge::target).toList(),
          "the placeholder's edge moved over");
      assertTrue(client.lineage().upstream(stg).nodeIds().contains(claim));
      assertEquals(claim, client.lineage().upstream(placeholder).root(), "an alias is a root too");

      boolean merged = false;
      for (Event e : client.events().list(EventFilter.types("asset.merged"))) {
        if (placeholder.equals(e.data().get("from")) && claim.equals(e.data().get("into"))) {
          merged = true;
          break;
        }
      }
      assertTrue(merged, "no asset.merged event from " + placeholder + " into " + claim);

      // Bulk, chunked: the dataset now resolves to the claiming asset; another nobody holds.
      BulkResult bulk =
          client.lineage().pushBulk(
              List.of(
                  EdgeInput.of(Dataset.of(ns, "raw.orders"), p + "-mart"),
                  EdgeInput.of(EdgeEnd.asset(stg), EdgeEnd.dataset(ns, "mart.orders"))),
              1);
      assertEquals(new BulkResult(2, 2, 0, 2), bulk);
      assertEquals(
          List.of(p + "-mart", stg),
          client.lineage().edges(EdgeFilter.from(claim)).stream().map(Edge::target).sorted().toList());
      assertEquals(Optional.of(ns + ":5432/mart.orders"),
          client.assets().findByDataset(Dataset.of(ns, "MART.ORDERS")).map(Asset::id));
    } finally {
      Live.cleanUp(client, p);
    }
  }

  @Test
  void sqlIngestionWritesLineageBetweenTheTablesAndListsFailures() {
    String p = prefix("sql");
    String ns = "postgres://" + p;
    String source = p + "-log";
    try {
      SqlResult result =
          client.lineage().ingestSql(SqlInput.queryLog(
                  "postgres",
                  ns,
                  "insert into mart.revenue select customer_id, sum(amount) as revenue from raw.orders group by 1",
                  "select broken from")
              .withSource(source));
      assertEquals("sql:" + source, result.origin());
      assertEquals(new SqlResult.Statements(2, 1, 0, 1), result.statements());
      assertEquals(1, result.failures().size());
      assertEquals(1, result.failures().get(0).index());
      assertFalse(result.failures().get(0).message().isBlank());
      assertEquals(1, result.edges().created());
      assertEquals(2, result.assetsCreated(), "placeholders for raw.orders and mart.revenue");
      assertTrue(result.columnMappings().created() > 0, result.toString());

      String raw = client.assets().findByDataset(Dataset.of(ns, "raw.orders")).orElseThrow().id();
      String mart = client.assets().findByDataset(Dataset.of(ns, "mart.revenue")).orElseThrow().id();
      List<Edge> edges = client.lineage().edges(EdgeFilter.from(raw)).stream().toList();
      assertEquals(1, edges.size());
      assertEquals(mart, edges.get(0).target());
      assertTrue(edges.get(0).origins().contains("sql:" + source), edges.toString());
      assertTrue(edges.get(0).columns().stream().anyMatch(c -> c.source().equals("amount") && c.target().equals("revenue")),
          edges.get(0).columns().toString());

      SqlResult again =
          client.lineage().ingestSql(
              "postgres",
              ns,
              "insert into mart.revenue select customer_id, sum(amount) as revenue from raw.orders group by 1; select 1");
      assertEquals("sql:api", again.origin());
      assertEquals(new SqlResult.Statements(2, 1, 1, 0), again.statements());
      assertEquals(0, again.edges().created());
      assertEquals(1, again.edges().existing());
      assertEquals(0, again.assetsCreated());
      assertEquals(List.of(), again.failures());

      ValidationException dialect =
          assertThrows(
              ValidationException.class,
              () -> client.lineage().ingestSql(SqlInput.queryLog("klingon", ns, "select 1")));
      assertTrue(dialect.errors().stream().anyMatch(e -> e.path().equals("body.dialect")), dialect.errors().toString());
      ValidationException both =
          assertThrows(
              ValidationException.class,
              () -> client.lineage().ingestSql(
                  new SqlInput("postgres", ns, null, null, null, "select 1", List.of())));
      assertEquals(422, both.status());
    } finally {
      Live.cleanUp(client, p);
    }
  }

  @Test
  void aManifestUploadedWithANamespaceMergesThePlaceholderOfItsTable() {
    Path repoRoot = Path.of("").toAbsolutePath().getParent().getParent();
    Path manifest = repoRoot.resolve(Path.of("tests", "fixtures", "dbt_quality", "manifest.json"));
    assertTrue(Files.isRegularFile(manifest), "fixture manifest not found at " + manifest.normalize());
    String p = prefix("dbt");
    String ns = "duckdb://" + p;
    String dashboard = p + "-dashboard";
    String model = "model.quality_shop.orders";
    try {
      // Another tool saw the table first: a placeholder holds it.
      String placeholder =
          client.lineage().create(EdgeInput.of(Dataset.of(ns, "quality_shop.main_marts.orders"), dashboard))
              .value().source();
      assertTrue(client.assets().get(placeholder).placeholder());

      ManifestSummary summary =
          client.lineage().uploadManifest(
              manifest, ManifestOptions.namespace(ns).withProject("java-" + UUID.randomUUID().toString().substring(0, 8)));
      assertTrue(summary.assets().merged() >= 1, summary.toString());
      assertEquals(model, client.assets().get(placeholder).id(), "the placeholder became an alias of the model");
      assertEquals(
          Optional.of(model),
          client.assets().findByDataset(Dataset.of(ns, "QUALITY_SHOP.MAIN_MARTS.ORDERS")).map(Asset::id));
      assertTrue(client.lineage().upstream(dashboard).nodeIds().contains(model));
    } finally {
      client.assets().delete(dashboard);
    }
  }
}
