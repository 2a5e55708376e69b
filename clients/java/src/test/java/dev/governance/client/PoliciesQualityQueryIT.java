package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.PreconditionFailedException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.CypherQuery;
import dev.governance.client.model.CypherResult;
import dev.governance.client.model.DbtResultsSummary;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.FieldError;
import dev.governance.client.model.GraphEdge;
import dev.governance.client.model.ManifestSummary;
import dev.governance.client.model.PathQuery;
import dev.governance.client.model.Policy;
import dev.governance.client.model.PolicyFilter;
import dev.governance.client.model.PolicyInput;
import dev.governance.client.model.PolicyKind;
import dev.governance.client.model.QualityResult;
import dev.governance.client.model.QualityRule;
import dev.governance.client.model.QualityRuleInput;
import dev.governance.client.model.Query;
import dev.governance.client.model.QueryFilter;
import dev.governance.client.model.QueryNode;
import dev.governance.client.model.QueryResult;
import dev.governance.client.model.QueryReturn;
import dev.governance.client.model.ResultInput;
import dev.governance.client.model.RuleFilter;
import dev.governance.client.model.RuleType;
import dev.governance.client.model.Selector;
import dev.governance.client.model.Traverse;
import dev.governance.client.model.Violation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Policies, quality rules, dbt run results and the query facility against a running service
 * (see {@link Live}). Each test works under its own UUID prefix, except for the dbt fixture,
 * whose ids every client suite shares.
 */
class PoliciesQualityQueryIT {
  private static GovernanceClient client;

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  /** tests/fixtures/dbt_quality/ of this repository (the build runs in clients/java). */
  private static Path fixture(String name) {
    Path path =
        Path.of("").toAbsolutePath().getParent().getParent().resolve(Path.of("tests", "fixtures", "dbt_quality", name));
    assertTrue(Files.isRegularFile(path), "fixture not found at " + path);
    return path;
  }

  private static List<String> paths(ValidationException e) {
    return e.errors().stream().map(FieldError::path).toList();
  }

  @Test
  void requireOwnerViolationOpensAndResolves() {
    String p = Live.unique("policy");
    String orphan = p + "-orphan";
    client.assets().create(AssetInput.builder(orphan, "orphan", "table").build());
    client.assets().create(AssetInput.builder(p + "-owned", "owned", "table").owners("data@example.com").build());
    Policy policy =
        client.policies()
            .create(
                PolicyInput.builder(p + "-owners", PolicyKind.REQUIRE_OWNER)
                    .severity("high")
                    .selector(Selector.idPrefix(p).withType("table"))
                    .build());
    try {
      assertTrue(policy.id().startsWith("pol_"), policy.id());
      assertEquals(1, policy.version());
      assertTrue(policy.enabled());
      assertEquals("require_owner", policy.kind());
      assertEquals(p, policy.selector().idPrefix());
      assertEquals(List.of("table"), policy.selector().type());

      assertEquals(1, client.policies().evaluate().policy(policy.id()).orElseThrow().violations());
      List<Violation> open = client.policies().violations(policy.id()).pageSize(1).stream().toList();
      assertEquals(List.of(orphan), open.stream().map(Violation::assetId).toList());
      assertFalse(open.get(0).reason().isBlank());
      assertNotNull(open.get(0).openedAt());
      assertNotNull(client.policies().get(policy.id()).evaluatedAt());

      client.assets().patch(orphan, Map.of("owners", List.of("data@example.com")));
      assertEquals(0, client.policies().evaluate().policy(policy.id()).orElseThrow().violations());
      assertEquals(0, client.policies().violations(policy.id()).stream().count());

      Policy read = client.policies().get(policy.id());
      PolicyInput described = read.toBuilder().description("every table has an owner").build();
      assertThrows(
          PreconditionFailedException.class,
          () -> client.policies().replace(read.id(), described, read.version() + 1));
      Policy replaced = client.policies().replace(read.id(), described, read.version());
      assertEquals(read.version() + 1, replaced.version());
      assertEquals("every table has an owner", replaced.description());

      Map<String, Object> patch = new HashMap<>();
      patch.put("enabled", false);
      patch.put("description", null);
      Policy off = client.policies().patch(read.id(), patch, replaced.version());
      assertFalse(off.enabled());
      assertNull(off.description());
      List<Policy> disabled =
          client.policies().list(PolicyFilter.ofKind(PolicyKind.REQUIRE_OWNER).withEnabled(false)).stream().toList();
      assertTrue(disabled.stream().anyMatch(x -> x.id().equals(policy.id())));
      assertTrue(disabled.stream().noneMatch(Policy::enabled));

      assertThrows(PreconditionFailedException.class, () -> client.policies().delete(read.id(), off.version() - 1));
      client.policies().delete(read.id(), off.version());
      assertThrows(NotFoundException.class, () -> client.policies().get(read.id()));
    } finally {
      try {
        client.policies().delete(policy.id());
      } catch (NotFoundException alreadyGone) {
        // deleted by the test
      }
      Live.cleanUp(client, p);
    }
  }

  @Test
  void aBadPolicyIsAValidationErrorNamingTheField() {
    String p = Live.unique("badpolicy");
    ValidationException badKind =
        assertThrows(
            ValidationException.class,
            () -> client.policies().create(PolicyInput.builder(p, null).kind("no_such_kind").build()));
    assertEquals(422, badKind.status());
    assertEquals("validation_error", badKind.code());
    assertTrue(badKind.errors().stream().anyMatch(e -> e.loc().equals(List.of("body", "kind"))), badKind.errors().toString());

    ValidationException noTag =
        assertThrows(
            ValidationException.class,
            () -> client.policies().create(PolicyInput.builder(p, PolicyKind.TAG_PROPAGATION).build()));
    assertTrue(paths(noTag).contains("body.params.tag"), paths(noTag).toString());
    assertTrue(client.policies().list().stream().noneMatch(x -> x.name().equals(p)), "nothing was written");
  }

  @Test
  void ruleTurnsFailingAndKeepsItsHistory() {
    String p = Live.unique("quality");
    String orders = p + "-orders";
    client.assets().create(AssetInput.builder(orders, "orders", "table").build());
    try {
      QualityRule rule =
          client.quality()
              .createRule(
                  QualityRuleInput.builder(orders, "order_id not null", RuleType.NOT_NULL)
                      .column("order_id")
                      .severity("error")
                      .build());
      assertTrue(rule.id().startsWith("qr_"), rule.id());
      assertEquals("unknown", rule.status());
      assertEquals("api", rule.origin());

      Instant now = Instant.now();
      client.quality().recordResult(rule.id(), ResultInput.pass().withObservedValue(0).at(now.minusSeconds(120)));
      QualityResult failed =
          client.quality().recordResult(rule.id(), ResultInput.fail(3, "3 null rows").at(now.minusSeconds(60)));
      assertEquals("fail", failed.status());
      assertEquals(rule.id(), failed.ruleId());
      assertEquals(now.minusSeconds(60).truncatedTo(ChronoUnit.MILLIS), failed.runAt());

      QualityRule failing = client.quality().getRule(rule.id());
      assertTrue(failing.isFailing());
      assertEquals(3, failing.lastResult().observedValue());
      assertEquals("3 null rows", failing.lastResult().message());

      List<QualityResult> history = client.quality().results(rule.id()).pageSize(1).stream().toList();
      assertEquals(List.of("fail", "pass"), history.stream().map(QualityResult::status).toList(), "newest first");

      RuleFilter mine = RuleFilter.forAsset(orders);
      assertEquals(
          List.of(rule.id()),
          client.quality().rules(mine.withStatus("failing").withType(RuleType.NOT_NULL)).stream().map(QualityRule::id).toList());
      assertEquals(0, client.quality().rules(mine.withStatus("passing")).stream().count());

      QualityRuleInput custom =
          failing.toBuilder().type(RuleType.CUSTOM).param("sql", "select count(*) from orders where order_id is null").build();
      assertThrows(
          PreconditionFailedException.class,
          () -> client.quality().replaceRule(rule.id(), custom, failing.version() + 1));
      QualityRule replaced = client.quality().replaceRule(rule.id(), custom, failing.version());
      assertEquals("custom", replaced.type());
      assertEquals(failing.version() + 1, replaced.version());
      assertTrue(replaced.isFailing(), "a new definition keeps the status");

      Map<String, Object> patch = new HashMap<>();
      patch.put("severity", "warn");
      patch.put("column", null);
      QualityRule patched = client.quality().patchRule(rule.id(), patch);
      assertEquals("warn", patched.severity());
      assertNull(patched.column());
      client.quality().deleteRule(rule.id(), patched.version());
      assertThrows(NotFoundException.class, () -> client.quality().getRule(rule.id()));

      ValidationException unknownAsset =
          assertThrows(
              ValidationException.class,
              () -> client.quality().createRule(QualityRuleInput.builder(p + "-missing", "n", RuleType.NOT_NULL).build()));
      assertTrue(paths(unknownAsset).contains("body.asset_id"), paths(unknownAsset).toString());
      assertThrows(
          NotFoundException.class,
          () -> client.quality().recordResult("qr_" + "0".repeat(26), ResultInput.pass()));
    } finally {
      Live.cleanUp(client, p);
    }
  }

  @Test
  void dbtRunResultsMarkRulesFailing() {
    Path manifest = fixture("manifest.json");
    client.lineage().uploadManifest(manifest);
    // Other suites upload the same fixture into this database: delete its rules (and so their
    // histories) and let the manifest make them afresh.
    List<String> shared =
        client.quality().rules(RuleFilter.all()).pageSize(200).stream()
            .map(QualityRule::id)
            .filter(id -> id.startsWith("test.quality_shop."))
            .toList();
    assertFalse(shared.isEmpty(), "the manifest made no rules");
    shared.forEach(client.quality()::deleteRule);
    ManifestSummary again = client.lineage().uploadManifest(manifest);
    assertEquals(shared.size(), again.qualityRules().created());

    Path failing = fixture("run_results_failing.json");
    DbtResultsSummary run = client.quality().uploadRunResults(failing);
    String nullCustomer = "test.quality_shop.not_null_orders_customer_id.c5f02694af";
    assertFalse(run.failed().isEmpty());
    assertTrue(run.failed().contains(nullCustomer), run.failed().toString());
    assertTrue(run.recorded() > 0);
    assertEquals(List.of(), run.unmatched());

    QualityRule rule = client.quality().getRule(nullCustomer);
    assertTrue(rule.isFailing());
    assertEquals("dbt:quality_shop", rule.origin());
    assertTrue(rule.lastResult().source().startsWith("dbt:"), rule.lastResult().source());

    DbtResultsSummary repeat = client.quality().uploadRunResults(failing);
    assertEquals(0, repeat.recorded());
    assertEquals(run.recorded(), repeat.duplicates());
    assertEquals(List.of(), repeat.failed());
  }

  @Test
  void queryPagesCountsAndRunsCypher() {
    String p = Live.unique("query");
    String a = p + "-a", b = p + "-b", c = p + "-c", d = p + "-d";
    for (String id : List.of(a, b, c, d)) {
      client.assets().create(AssetInput.builder(id, id, "table").build());
    }
    try {
      client.lineage().bulk(List.of(EdgeInput.of(a, b), EdgeInput.of(b, c), EdgeInput.of(c, d)));
      Query down = Query.startAt(a).withTraverse(Traverse.downstream()).withLimit(1);

      List<QueryResult> pages = client.query().pages(down).stream().toList();
      assertEquals(3, pages.size());
      assertEquals(
          List.of(b, c, d), pages.stream().flatMap(page -> page.nodes().stream()).map(QueryNode::id).toList());
      assertNull(pages.get(2).nextCursor());
      List<QueryNode> nodes = client.query().nodes(down).stream().toList();
      assertEquals(List.of(1, 2, 3), nodes.stream().map(QueryNode::distance).toList());

      QueryResult count = client.query().run(down.withReturn(QueryReturn.COUNT));
      assertEquals(3L, count.count());
      assertNull(count.nextCursor());

      Query withStart =
          down.withTraverse(Traverse.downstream().withMinDepth(0).withWhere(QueryFilter.builder().idPrefix(p).build()));
      List<GraphEdge> edges = client.query().edges(withStart).stream().toList();
      assertEquals(3, edges.size());
      assertEquals(a, edges.get(0).source());
      assertEquals(
          List.of(List.of(a, b, c, d)), client.query().paths(Query.shortestPath(PathQuery.between(a, d))).stream().toList());

      ValidationException tooDeep =
          assertThrows(
              ValidationException.class,
              () -> client.query().run(Query.startAt(a).withTraverse(Traverse.both().withMaxDepth(99))));
      assertEquals("validation_error", tooDeep.code());
      assertTrue(paths(tooDeep).contains("body.traverse.max_depth"), paths(tooDeep).toString());

      String byPrefix = "MATCH (x:Asset) WHERE x.id STARTS WITH $prefix RETURN x.id AS id ORDER BY id";
      CypherResult rows = client.query().cypher(CypherQuery.of(byPrefix).withParameters(Map.of("prefix", p)).withLimit(10));
      assertEquals(List.of("id"), rows.columns());
      assertEquals(List.of(List.of(a), List.of(b), List.of(c), List.of(d)), rows.rows());
      assertFalse(rows.truncated());
      assertEquals(d, rows.records().get(3).get("id"));
      CypherResult cut = client.query().cypher(CypherQuery.of(byPrefix).withParameters(Map.of("prefix", p)).withLimit(2));
      assertEquals(2, cut.rows().size());
      assertTrue(cut.truncated());

      ValidationException write =
          assertThrows(
              ValidationException.class,
              () -> client.query().cypher(
                  CypherQuery.of("MATCH (x:Asset {id: $id}) SET x.name = 'pwned'").withParameters(Map.of("id", a))));
      assertEquals("forbidden_query", write.code());
      assertEquals(a, client.assets().get(a).name(), "a refused statement changes nothing");
    } finally {
      Live.cleanUp(client, p);
    }
  }
}
