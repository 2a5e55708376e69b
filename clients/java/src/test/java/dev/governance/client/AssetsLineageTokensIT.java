package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.AuthenticationException;
import dev.governance.client.exception.ConflictException;
import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.PermissionException;
import dev.governance.client.exception.PreconditionFailedException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.Asset;
import dev.governance.client.model.AssetFilter;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.BulkResult;
import dev.governance.client.model.Column;
import dev.governance.client.model.Direction;
import dev.governance.client.model.Edge;
import dev.governance.client.model.EdgeFilter;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.Event;
import dev.governance.client.model.EventFilter;
import dev.governance.client.model.GraphNode;
import dev.governance.client.model.LineageGraph;
import dev.governance.client.model.ManifestOptions;
import dev.governance.client.model.ManifestSummary;
import dev.governance.client.model.Page;
import dev.governance.client.model.Saved;
import dev.governance.client.model.Scope;
import dev.governance.client.model.Token;
import dev.governance.client.model.TokenCreated;
import dev.governance.client.model.TokenInput;
import dev.governance.client.model.Traversal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Assets, lineage, tokens and manifests against a running service (see {@link Live}). Every
 * test works under its own UUID prefix.
 */
class AssetsLineageTokensIT {
  private static GovernanceClient client;

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  @Test
  void serviceInfoAndOpenApiNeedNoToken() {
    GovernanceClient noToken = new GovernanceClient.Builder(name -> null).baseUrl(Live.url() + "/api/v1/").build();
    assertEquals("v1", noToken.info().apiVersion());
    assertEquals("data-governance-service", noToken.info().service());
    assertTrue(String.valueOf(noToken.openApi().get("openapi")).startsWith("3.1"));
    assertTrue(((Map<?, ?>) noToken.openApi().get("paths")).containsKey("/api/v1/assets"));
    AuthenticationException error =
        assertThrows(AuthenticationException.class, () -> noToken.assets().list().firstPage());
    assertEquals(401, error.status());
    assertNotNull(error.requestId());
  }

  @Test
  void assetLifecycleWithOptimisticConcurrency() {
    String id = Live.unique("orders");
    Asset created =
        client.assets()
            .create(
                AssetInput.builder(id, "Orders", "table")
                    .platform("snowflake")
                    .description("one row per order")
                    .owners("data-eng@example.com")
                    .tags("PII", "gold", "pii")
                    .addColumn(Column.of("order_id", "int"))
                    .property("rows", 42)
                    .property("certified", true)
                    .build());
    assertEquals(1, created.version());
    assertEquals(List.of("pii", "gold"), created.tags());
    assertFalse(created.placeholder());
    assertNotNull(created.createdAt());

    Asset fetched = client.assets().get(id);
    assertEquals(created, fetched);
    assertEquals(Map.of("rows", 42, "certified", true), fetched.properties());

    Saved<Asset> replaced =
        client.assets().put(id, fetched.toBuilder().description("replaced").build(), fetched.version());
    assertFalse(replaced.created());
    assertEquals(2, replaced.value().version());
    assertEquals("replaced", replaced.value().description());

    PreconditionFailedException stale =
        assertThrows(
            PreconditionFailedException.class,
            () -> client.assets().put(id, fetched.toInput(), fetched.version()));
    assertEquals(412, stale.status());
    assertEquals("precondition_failed", stale.code());

    Map<String, Object> patch = new HashMap<>();
    patch.put("description", null);
    patch.put("owners", List.of("someone-else"));
    assertThrows(PreconditionFailedException.class, () -> client.assets().patch(id, patch, 1L));
    Asset patched = client.assets().patch(id, patch, 2L);
    assertEquals(3, patched.version());
    assertEquals(null, patched.description());
    assertEquals(List.of("someone-else"), patched.owners());
    assertEquals("snowflake", patched.platform());

    assertThrows(PreconditionFailedException.class, () -> client.assets().delete(id, 2L));
    assertEquals(3, client.assets().get(id).version(), "a refused delete changes nothing");
    client.assets().delete(id, 3L);
    assertThrows(NotFoundException.class, () -> client.assets().get(id));

    Saved<Asset> upserted = client.assets().put(id, AssetInput.builder(null, "Again", "view").build());
    assertTrue(upserted.created());
    assertEquals(id, upserted.value().id());
    client.assets().delete(id);
  }

  @Test
  void missingAssetIsNotFoundWithCodeAndRequestId() {
    NotFoundException error =
        assertThrows(NotFoundException.class, () -> client.assets().get(Live.unique("missing")));
    assertEquals(404, error.status());
    assertNotNull(error.code());
    assertFalse(error.code().isBlank());
    assertNotNull(error.requestId());
    assertEquals(error.requestId(), error.problem().requestId());
    assertTrue(error.getMessage().contains(error.requestId()));
    assertThrows(NotFoundException.class, () -> client.assets().delete(Live.unique("missing")));
    assertThrows(NotFoundException.class, () -> client.lineage().upstream(Live.unique("missing")));
  }

  @Test
  void creatingAnExistingIdIsAConflict() {
    String id = Live.unique("dup");
    AssetInput input = AssetInput.builder(id, "Dup", "table").build();
    client.assets().create(input);
    ConflictException error = assertThrows(ConflictException.class, () -> client.assets().create(input));
    assertEquals(409, error.status());
    assertEquals("already_exists", error.code());
    client.assets().delete(id);
  }

  @Test
  void invalidInputIsAValidationErrorNamingTheField() {
    String id = Live.unique("bad");
    ValidationException missingName =
        assertThrows(
            ValidationException.class,
            () -> client.assets().create(AssetInput.builder(id, null, "table").build()));
    assertEquals(422, missingName.status());
    assertEquals("validation_error", missingName.code());
    assertTrue(
        missingName.errors().stream().anyMatch(e -> e.loc().equals(List.of("body", "name"))),
        missingName.errors().toString());

    ValidationException badDepth =
        assertThrows(ValidationException.class, () -> client.lineage().graph(id, Direction.BOTH, Traversal.depth(51)));
    assertTrue(badDepth.errors().stream().anyMatch(e -> e.path().equals("query.depth")), badDepth.errors().toString());

    ValidationException selfLoop =
        assertThrows(ValidationException.class, () -> client.lineage().create(id, id));
    assertEquals("self_loop", selfLoop.code());

    ValidationException badItem =
        assertThrows(
            ValidationException.class,
            () -> client.lineage().bulk(List.of(EdgeInput.of(id + "-a", id + "-b"), EdgeInput.of(id + "-c", ""))));
    assertTrue(
        badItem.errors().stream().anyMatch(e -> e.loc().size() > 1 && e.loc().get(1).equals(1)),
        badItem.errors().toString());

    ValidationException strict =
        assertThrows(
            ValidationException.class,
            () -> client.lineage().create(EdgeInput.of(id + "-x", id + "-y"), true));
    assertEquals("unknown_assets", strict.code());
    assertThrows(NotFoundException.class, () -> client.assets().get(id + "-x"), "strict wrote nothing");
  }

  @Test
  void listingPagesThroughEveryMatch() {
    String prefix = Live.unique("page");
    for (int i = 0; i < 5; i++) {
      client.assets().create(AssetInput.builder(prefix + "-" + i, "Paged " + i, "model").tags("paging").build());
    }
    AssetFilter filter = AssetFilter.builder().q(prefix).tag("paging").type("model").build();
    PagedIterable<Asset> listing = client.assets().list(filter).pageSize(2);
    List<String> ids = listing.stream().map(Asset::id).toList();
    assertEquals(List.of(prefix + "-0", prefix + "-1", prefix + "-2", prefix + "-3", prefix + "-4"), ids);

    List<Page<Asset>> pages = new ArrayList<>();
    listing.pages().forEach(pages::add);
    assertEquals(3, pages.size());
    assertEquals(List.of(2, 2, 1), pages.stream().map(p -> p.items().size()).toList());

    Page<Asset> first = listing.firstPage();
    List<Asset> rest =
        StreamSupport.stream(
                client.assets()
                    .list(AssetFilter.builder().q(prefix).build())
                    .pageSize(2)
                    .fromCursor(first.nextCursor())
                    .spliterator(),
                false)
            .toList();
    assertEquals(3, rest.size());
    assertTrue(client.assets().list(AssetFilter.builder().q(prefix).tag("nope").build()).stream().findAny().isEmpty());
    Live.cleanUp(client, prefix);
    assertEquals(0, client.assets().list(filter).stream().count());
  }

  @Test
  void pushBulkChunksAndSums() {
    String p = Live.unique("bulk");
    List<EdgeInput> edges = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      edges.add(EdgeInput.of(p + "-src", p + "-t" + i, "select " + i));
    }
    AtomicInteger bulkRequests = new AtomicInteger();
    JdkHttpTransport jdk = new JdkHttpTransport();
    GovernanceClient counting =
        GovernanceClient.builder()
            .transport(
                request -> {
                  if (request.uri().getRawPath().endsWith("/lineage/bulk")) {
                    bulkRequests.incrementAndGet();
                  }
                  return jdk.send(request);
                })
            .build();

    BulkResult first = counting.lineage().pushBulk(edges, 3);
    assertEquals(3, bulkRequests.get());
    assertEquals(new BulkResult(7, 7, 0, 8), first);
    BulkResult again = counting.lineage().pushBulk(edges, 3);
    assertEquals(new BulkResult(7, 0, 7, 0), again);
    assertEquals(BulkResult.EMPTY, counting.lineage().pushBulk(List.of(), 3));
    assertEquals(6, bulkRequests.get());

    List<Edge> listed = client.lineage().edges(EdgeFilter.from(p + "-src")).pageSize(4).stream().toList();
    assertEquals(7, listed.size());
    assertTrue(listed.stream().allMatch(e -> e.origins().contains("api")), listed.toString());
    assertEquals("select 0", listed.get(0).transformation());
    assertTrue(client.assets().get(p + "-t0").placeholder());

    client.lineage().deleteEdge(p + "-src", p + "-t0");
    assertEquals(6, client.lineage().edges(EdgeFilter.from(p + "-src")).stream().count());
    assertThrows(NotFoundException.class, () -> client.lineage().deleteEdge(p + "-src", p + "-t0"));
    Live.cleanUp(client, p);
    assertEquals(0, client.lineage().edges(EdgeFilter.from(p + "-src")).stream().count());
  }

  @Test
  void traversalUpstreamAndDownstream() {
    String p = Live.unique("graph");
    String a = p + "-a", b = p + "-b", c = p + "-c", d = p + "-d";
    client.assets().create(AssetInput.builder(a, "A", "source").platform("postgres").build());
    Saved<Edge> ab = client.lineage().create(EdgeInput.of(a, b, "select * from a"));
    assertTrue(ab.created());
    assertFalse(client.lineage().create(EdgeInput.of(a, b, "select 1 from a")).created());
    client.lineage().bulk(List.of(EdgeInput.of(b, c), EdgeInput.of(d, b)));

    LineageGraph up = client.lineage().upstream(c);
    assertEquals(c, up.root());
    assertEquals(Direction.UPSTREAM, up.direction());
    assertEquals(Set.of(a, b, c, d), Set.copyOf(up.nodeIds()));
    assertTrue(up.node(c).orElseThrow().isRoot());
    assertEquals(1, up.node(b).orElseThrow().distance());
    assertEquals(2, up.node(a).orElseThrow().distance());
    assertEquals("upstream", up.node(a).orElseThrow().direction());
    assertEquals("postgres", up.node(a).orElseThrow().platform());
    assertTrue(up.node(d).orElseThrow().placeholder());
    assertEquals(3, up.edges().size());
    assertFalse(up.truncated());

    LineageGraph down = client.lineage().downstream(a, Traversal.depth(1));
    assertEquals(Set.of(a, b), Set.copyOf(down.nodeIds()));
    assertEquals("select 1 from a", down.edges().get(0).transformation());

    LineageGraph both = client.lineage().graph(b, Direction.BOTH, Traversal.depth(5));
    Map<String, String> directions =
        both.nodes().stream().collect(Collectors.toMap(GraphNode::id, GraphNode::direction));
    assertEquals(Map.of(a, "upstream", d, "upstream", b, "root", c, "downstream"), directions);

    LineageGraph cut = client.lineage().upstream(c, Traversal.depth(5).withLimit(2));
    assertTrue(cut.truncated());
    assertEquals(2, cut.nodes().size());

    client.assets().delete(b);
    assertEquals(List.of(a), client.lineage().downstream(a).nodeIds(), "an asset's edges go with it");
    Live.cleanUp(client, p);
  }

  @Test
  void idsWithReservedAndNonAsciiCharactersRoundTrip() {
    String u = UUID.randomUUID().toString();
    List<String> ids =
        List.of(
            "s3://lake/raw/" + u + "/events.parquet",
            "urn:li:dataset:(urn:li:dataPlatform:hive,db.orders_" + u + ",PROD)",
            "x@y$z#frag?q=1&r=%41/" + u,
            "表.订单." + u);
    for (String id : ids) {
      Asset created = client.assets().create(AssetInput.builder(id, "odd id", "file").build());
      assertEquals(id, created.id());
      assertEquals(id, client.assets().get(id).id());
      Asset renamed = client.assets().put(id, created.toBuilder().name("renamed").build(), 1L).value();
      assertEquals(id, renamed.id());
      assertEquals(2, renamed.version());
      assertEquals("patched", client.assets().patch(id, Map.of("description", "patched")).description());
      assertTrue(client.assets().list(AssetFilter.builder().q(u).build()).stream().anyMatch(a -> a.id().equals(id)));
    }
    String s3 = ids.get(0), urn = ids.get(1);
    client.lineage().create(s3, urn);
    assertEquals(Set.of(s3, urn), Set.copyOf(client.lineage().upstream(urn).nodeIds()));
    assertEquals(Set.of(s3, urn), Set.copyOf(client.lineage().downstream(s3).nodeIds()));
    assertEquals(Set.of(s3, urn), Set.copyOf(client.lineage().graph(s3).nodeIds()));
    assertEquals(1, client.lineage().edges(EdgeFilter.from(s3)).stream().count());
    client.lineage().deleteEdge(s3, urn);
    for (String id : ids) {
      client.assets().delete(id);
      assertThrows(NotFoundException.class, () -> client.assets().get(id));
    }
  }

  @Test
  void tokensCreateListAndRevoke() {
    String name = Live.unique("token");
    TokenCreated created = client.tokens().create(TokenInput.of(name, Scope.READ).withExpiresInDays(1));
    assertTrue(created.token().startsWith("dgs_"));
    assertEquals(created.token().substring(0, 8), created.prefix());
    assertTrue(created.id().startsWith("tok_"));
    assertEquals(List.of("read"), created.scopes());
    assertNotNull(created.expiresAt());

    Token fetched = client.tokens().get(created.id());
    assertEquals(name, fetched.name());
    assertFalse(fetched.revoked());
    assertTrue(client.tokens().list().pageSize(100).stream().anyMatch(t -> t.id().equals(created.id())));

    GovernanceClient reader = GovernanceClient.builder().baseUrl(Live.url()).token(created.token()).build();
    reader.assets().list().firstPage();
    PermissionException denied =
        assertThrows(
            PermissionException.class,
            () -> reader.assets().create(AssetInput.builder(Live.unique("denied"), "x", "table").build()));
    assertEquals("insufficient_scope", denied.code());
    assertThrows(PermissionException.class, () -> reader.tokens().list().firstPage());

    client.tokens().revoke(created.id());
    assertTrue(client.tokens().get(created.id()).revoked());
    AuthenticationException revoked =
        assertThrows(AuthenticationException.class, () -> reader.assets().list().firstPage());
    assertEquals(401, revoked.status());
    assertNotNull(revoked.requestId());
    assertThrows(NotFoundException.class, () -> client.tokens().get("tok_" + "0".repeat(26)));
  }

  @Test
  void manifestUploadIsIdempotentAndLeavesAnEvent() {
    // The repository's own dbt project, built by dbt itself (tests/fixtures/dbt_quality).
    Path repoRoot = Path.of("").toAbsolutePath().getParent().getParent();
    Path manifest = repoRoot.resolve(Path.of("tests", "fixtures", "dbt_quality", "manifest.json"));
    assertTrue(Files.isRegularFile(manifest), "fixture manifest not found at " + manifest.normalize());
    String project = "java-" + UUID.randomUUID().toString().substring(0, 8);

    // Other client suites share the database and upload the same manifest (same asset ids),
    // so only the project's own edges are certain.
    ManifestSummary first = client.lineage().uploadManifest(manifest, ManifestOptions.project(project));
    assertEquals(project, first.project());
    long edges = first.edges().created() + first.edges().existing();
    assertTrue(edges > 0, "the manifest made no edges");
    assertNotNull(first.dbtVersion());

    ManifestSummary second = client.lineage().uploadManifest(manifest, ManifestOptions.project(project));
    assertEquals(project, second.project());
    assertEquals(0, second.edges().created());
    assertEquals(0, second.edges().removed());
    assertEquals(edges, second.edges().existing());

    boolean found = false;
    for (Event event : client.events().list(EventFilter.types("lineage.manifest.ingested"))) {
      assertEquals("lineage.manifest.ingested", event.type());
      if (project.equals(event.data().get("project"))) {
        found = true;
        break;
      }
    }
    assertTrue(found, "no lineage.manifest.ingested event for project " + project);
  }
}
