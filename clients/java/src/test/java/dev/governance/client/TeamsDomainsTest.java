package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.ConflictException;
import dev.governance.client.exception.DomainForbiddenException;
import dev.governance.client.exception.DomainForbiddenException.RefusedAsset;
import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.PermissionException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.AssetFilter;
import dev.governance.client.model.Domain;
import dev.governance.client.model.DomainGrant;
import dev.governance.client.model.DomainInput;
import dev.governance.client.model.DomainRule;
import dev.governance.client.model.GraphNode;
import dev.governance.client.model.LineageGraph;
import dev.governance.client.model.Me;
import dev.governance.client.model.Role;
import dev.governance.client.model.Team;
import dev.governance.client.model.TeamInput;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Teams, domains, /me's teams and domain roles, the asset domain filter, the
 * {@code domain_forbidden} refusal and redacted traversal nodes over a scripted transport
 * answering the service's shapes.
 */
class TeamsDomainsTest {
  private static final String STAMPS =
      "\"created_at\":\"2026-11-27T12:00:00Z\",\"updated_at\":\"2026-11-27T12:00:00Z\"";
  private static final String TEAM =
      "{\"id\":\"finance\",\"display_name\":\"Finance\",\"idp_groups\":[\"fin\"],"
          + "\"members\":[\"usr_1\"]," + STAMPS + "}";
  private static final String DOMAIN =
      "{\"id\":\"ledger\",\"display_name\":\"Ledger\",\"description\":null,\"private\":true,"
          + "\"owner_team\":\"finance\",\"rules\":[{\"kind\":\"namespace\",\"value\":\"pg://ledger\"}],"
          + "\"grants\":[{\"team\":\"finance\",\"role\":\"admin\"},{\"team\":\"audit\",\"role\":\"viewer\"}],"
          + "\"asset_count\":3," + STAMPS + "}";

  private static TransportResponse noContent(TransportRequest request) {
    return FakeTransport.response(204, "", "text/plain");
  }

  private static String wire(TransportRequest request) {
    return request.method() + " " + request.uri().getRawPath();
  }

  @Test
  void teamsArePutReadListedAndDeleted() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(201, TEAM)
            .thenJson(200, TEAM)
            .thenJson(200, "{\"items\":[" + TEAM + "]}")
            .then(TeamsDomainsTest::noContent);
    TeamsService teams = VectorsTest.client(fake).teams();

    Response<Team> put =
        teams.putWithResponse(
            "finance", TeamInput.named("Finance").withIdpGroups(List.of("fin")), RequestOptions.DEFAULTS);
    assertTrue(put.created());
    assertEquals(List.of("usr_1"), put.value().members());
    assertEquals("{\"display_name\":\"Finance\",\"idp_groups\":[\"fin\"]}", FakeTransport.bodyOf(fake.last()));
    assertEquals(java.util.Optional.empty(), fake.last().header("Idempotency-Key"));
    assertEquals(List.of("fin"), teams.get("finance").idpGroups());
    List<Team> all = teams.list();
    assertEquals(List.of("finance"), all.stream().map(Team::id).toList());
    assertNull(fake.last().uri().getRawQuery());
    teams.delete("finance");
    assertEquals(
        List.of("PUT /api/v1/teams/finance", "GET /api/v1/teams/finance", "GET /api/v1/teams",
            "DELETE /api/v1/teams/finance"),
        fake.requests.stream().map(TeamsDomainsTest::wire).toList());
  }

  @Test
  void anEmptyTeamInputSendsAnEmptyObject() {
    FakeTransport fake = new FakeTransport().thenJson(200, TEAM);
    VectorsTest.client(fake).teams().put("finance", TeamInput.empty());
    assertEquals("{}", FakeTransport.bodyOf(fake.last()));
  }

  @Test
  void membersAreAddedAndRemovedByUserId() {
    FakeTransport fake = new FakeTransport().always(TeamsDomainsTest::noContent);
    TeamsService teams = VectorsTest.client(fake).teams();
    teams.addMember("finance", "usr_1/2");
    assertEquals("PUT /api/v1/teams/finance/members/usr_1%2F2", wire(fake.last()));
    assertNull(FakeTransport.bodyOf(fake.last()));
    teams.removeMember("finance", "usr_1/2");
    assertEquals("DELETE /api/v1/teams/finance/members/usr_1%2F2", wire(fake.last()));
    assertThrows(IllegalArgumentException.class, () -> teams.addMember("finance", ""));
    assertEquals(2, fake.requests.size());
  }

  @Test
  void teamErrorsKeepTheirCodes() {
    FakeTransport fake =
        new FakeTransport().thenProblem(409, "team_owns_domains").thenProblem(404, "not_found");
    TeamsService teams = VectorsTest.client(fake).teams();
    ConflictException owns = assertThrows(ConflictException.class, () -> teams.delete("finance"));
    assertEquals("team_owns_domains", owns.code());
    assertThrows(NotFoundException.class, () -> teams.addMember("finance", "usr_nobody"));
    assertEquals(2, fake.requests.size());
  }

  @Test
  void domainsArePutWithRulesAndGrantsReadListedAndDeleted() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(201, DOMAIN)
            .thenJson(200, DOMAIN)
            .thenJson(200, "{\"items\":[" + DOMAIN + "]}")
            .then(TeamsDomainsTest::noContent);
    DomainsService domains = VectorsTest.client(fake).domains();

    Domain put =
        domains.put(
            "ledger",
            DomainInput.builder("finance")
                .isPrivate(true)
                .rule(DomainRule.namespace("pg://ledger"))
                .grant("audit", Role.VIEWER)
                .build());
    assertEquals(
        "{\"private\":true,\"owner_team\":\"finance\","
            + "\"rules\":[{\"kind\":\"namespace\",\"value\":\"pg://ledger\"}],"
            + "\"grants\":[{\"team\":\"audit\",\"role\":\"viewer\"}]}",
        FakeTransport.bodyOf(fake.last()));
    assertTrue(put.isPrivate());
    assertEquals(3, put.assetCount());
    assertEquals(DomainGrant.of("audit", Role.VIEWER), put.grants().get(1));
    assertEquals("finance", domains.get("ledger").ownerTeam());
    assertEquals(List.of("ledger"), domains.list().stream().map(Domain::id).toList());
    domains.delete("ledger");
    assertEquals(
        List.of("PUT /api/v1/domains/ledger", "GET /api/v1/domains/ledger", "GET /api/v1/domains",
            "DELETE /api/v1/domains/ledger"),
        fake.requests.stream().map(TeamsDomainsTest::wire).toList());
  }

  @Test
  void aBareDomainInputSendsEmptyRulesAndGrants() {
    FakeTransport fake = new FakeTransport().thenProblem(422, "validation_error");
    DomainsService domains = VectorsTest.client(fake).domains();
    assertThrows(
        ValidationException.class, () -> domains.put("ledger", DomainInput.builder("ghosts").build()));
    assertEquals(
        "{\"private\":false,\"owner_team\":\"ghosts\",\"rules\":[],\"grants\":[]}",
        FakeTransport.bodyOf(fake.last()));
  }

  @Test
  void assetsAreFilteredByDomainAndNameIt() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"items\":[{\"id\":\"a\",\"name\":\"a\",\"type\":\"table\",\"domain\":\"ledger\"}],"
                + "\"next_cursor\":null}");
    var first = VectorsTest.client(fake).assets().list(AssetFilter.builder().domain("ledger").build())
        .iterator().next();
    assertEquals("ledger", first.domain());
    assertEquals("domain=ledger", fake.last().uri().getRawQuery());
  }

  @Test
  void meNamesTeamsAndDomainRoles() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"token\":{\"id\":\"tok_1\"},\"user\":null,\"teams\":[\"finance\"],"
                + "\"domain_roles\":{\"ledger\":\"admin\"}}")
            .thenJson(200, "{\"token\":{\"id\":\"tok_1\"},\"user\":null}");
    GovernanceClient client = VectorsTest.client(fake);
    Me me = client.me();
    assertEquals(List.of("finance"), me.teams());
    assertEquals(Map.of("ledger", "admin"), me.domainRoles());
    Me older = client.me();
    assertEquals(List.of(), older.teams());
    assertEquals(Map.of(), older.domainRoles());
  }

  @Test
  void domainForbiddenListsTheRefusedAssets() {
    String body =
        "{\"type\":\"/problems/domain_forbidden\",\"title\":\"t\",\"status\":403,\"detail\":\"d\","
            + "\"code\":\"domain_forbidden\",\"assets\":[{\"id\":\"pg://ledger/t\",\"domain\":\"ledger\"},"
            + "{\"id\":\"loose\",\"domain\":null}],\"assets_count\":120}";
    FakeTransport fake =
        new FakeTransport()
            .then(r -> FakeTransport.response(403, body, "application/problem+json"))
            .thenProblem(403, "insufficient_scope");
    GovernanceClient client = VectorsTest.client(fake);
    DomainForbiddenException refused =
        assertThrows(DomainForbiddenException.class, () -> client.assets().delete("pg://ledger/t"));
    assertInstanceOf(PermissionException.class, refused);
    assertEquals(
        List.of(new RefusedAsset("pg://ledger/t", "ledger"), new RefusedAsset("loose", null)),
        refused.assets());
    assertEquals(120, refused.assetsCount());
    PermissionException plain =
        assertThrows(PermissionException.class, () -> client.teams().put("finance", TeamInput.empty()));
    assertFalse(plain instanceof DomainForbiddenException);
    assertEquals(2, fake.requests.size());
  }

  @Test
  void redactedNodesAreStandIns() {
    FakeTransport fake =
        new FakeTransport()
            .thenJson(200, "{\"root\":\"a\",\"direction\":\"downstream\",\"depth\":2,\"truncated\":false,"
                + "\"next_cursor\":null,\"remaining\":{},\"hidden\":{},\"capped\":[],\"redacted\":1,"
                + "\"nodes\":[{\"id\":\"a\",\"name\":\"a\",\"type\":\"table\",\"tags\":[],\"placeholder\":false,"
                + "\"distance\":0,\"direction\":\"root\"},"
                + "{\"id\":\"redacted:1\",\"redacted\":true,\"team\":\"finance\",\"distance\":1}],"
                + "\"edges\":[{\"source\":\"a\",\"target\":\"redacted:1\",\"transformation\":null}]}");
    LineageGraph graph = VectorsTest.client(fake).lineage().downstream("a");
    assertEquals(1, graph.redacted());
    GraphNode standIn = graph.node("redacted:1").orElseThrow();
    assertTrue(standIn.redacted());
    assertEquals("finance", standIn.team());
    assertEquals(1, standIn.distance());
    assertFalse(graph.node("a").orElseThrow().redacted());
    assertEquals("redacted:1", graph.edges().get(0).target());
  }
}
