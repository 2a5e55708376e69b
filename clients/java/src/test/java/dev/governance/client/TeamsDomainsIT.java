package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.ConflictException;
import dev.governance.client.exception.DomainForbiddenException;
import dev.governance.client.exception.DomainForbiddenException.RefusedAsset;
import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.AssetFilter;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.Domain;
import dev.governance.client.model.DomainGrant;
import dev.governance.client.model.DomainInput;
import dev.governance.client.model.DomainRule;
import dev.governance.client.model.EdgeInput;
import dev.governance.client.model.GraphNode;
import dev.governance.client.model.LineageGraph;
import dev.governance.client.model.Me;
import dev.governance.client.model.Role;
import dev.governance.client.model.Scope;
import dev.governance.client.model.Team;
import dev.governance.client.model.TeamInput;
import dev.governance.client.model.TokenCreated;
import dev.governance.client.model.Traversal;
import dev.governance.client.model.User;
import dev.governance.client.model.UserInput;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Teams, domains, /me, the asset domain field and filter, {@code domain_forbidden} and redacted
 * traversal nodes against a running service (see {@link Live}).
 */
class TeamsDomainsIT {
  private static GovernanceClient client;
  private final List<Runnable> undo = new ArrayList<>();

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  /** Undoes in reverse order: domains before their teams, tokens, assets. */
  @AfterEach
  void cleanUp() {
    for (int i = undo.size() - 1; i >= 0; i--) {
      try {
        undo.get(i).run();
      } catch (NotFoundException gone) {
        // already deleted by the test
      }
    }
  }

  private static String slug() {
    return "java-" + UUID.randomUUID().toString().substring(0, 12);
  }

  private String team() {
    String id = slug();
    client.teams().put(id, TeamInput.empty());
    undo.add(() -> client.teams().delete(id));
    return id;
  }

  private void domain(String id, DomainInput input) {
    assertTrue(client.domains().putWithResponse(id, input, RequestOptions.DEFAULTS).created());
    undo.add(() -> client.domains().delete(id));
  }

  private String prefix() {
    String prefix = Live.unique("dom");
    undo.add(() -> Live.cleanUp(client, prefix));
    return prefix;
  }

  private GovernanceClient tokenOf(Scope scope) {
    TokenCreated made = client.tokens().create(slug(), scope);
    undo.add(() -> client.tokens().revoke(made.id()));
    return GovernanceClient.builder().baseUrl(Live.url()).token(made.token()).maxRetries(0).build();
  }

  @Test
  void teamLifecycle() {
    String id = slug();
    Response<Team> made =
        client.teams().putWithResponse(
            id, TeamInput.named("Finance").withIdpGroups(List.of("fin")), RequestOptions.DEFAULTS);
    undo.add(() -> client.teams().delete(id));
    assertTrue(made.created());
    assertEquals(List.of("fin"), made.value().idpGroups());
    assertEquals(List.of(), made.value().members());
    Response<Team> replaced =
        client.teams().putWithResponse(id, TeamInput.named("Money"), RequestOptions.DEFAULTS);
    assertEquals(200, replaced.status());
    assertEquals(List.of(), replaced.value().idpGroups());
    assertTrue(client.teams().list().stream().anyMatch(t -> t.id().equals(id)));

    User user =
        client.users().create(UserInput.of(slug(), "correct horse battery staple", Role.VIEWER));
    undo.add(() -> client.users().delete(user.id()));
    client.teams().addMember(id, user.id());
    client.teams().addMember(id, user.id());
    assertEquals(List.of(user.id()), client.teams().get(id).members());
    client.teams().removeMember(id, user.id());
    assertEquals(List.of(), client.teams().get(id).members());
    assertThrows(NotFoundException.class, () -> client.teams().addMember(id, "usr_nobody"));

    client.teams().delete(id);
    assertThrows(NotFoundException.class, () -> client.teams().get(id));
    ValidationException bad =
        assertThrows(ValidationException.class, () -> client.teams().put("Not A Slug", TeamInput.empty()));
    assertEquals(List.of("path.team_id"), bad.errors().stream().map(e -> e.path()).toList());
  }

  @Test
  void aDomainHoldsTheAssetsItsRulesPick() {
    String team = team();
    String audit = team();
    String prefix = prefix();
    String inside = prefix + ".inside";
    String outside = "other-" + prefix;
    client.assets().create(AssetInput.builder(inside, "in", "table").build());
    client.assets().create(AssetInput.builder(outside, "out", "table").build());
    undo.add(() -> client.assets().delete(outside));
    String id = slug();
    domain(
        id,
        DomainInput.builder(team)
            .displayName("Ledger")
            .rule(DomainRule.namespace(prefix))
            .grant(audit, Role.VIEWER)
            .build());

    Domain read = client.domains().get(id);
    assertEquals(team, read.ownerTeam());
    assertFalse(read.isPrivate());
    assertEquals(1, read.assetCount());
    assertTrue(read.grants().contains(DomainGrant.of(audit, Role.VIEWER)));
    assertTrue(client.domains().list().stream().anyMatch(d -> d.id().equals(id)));
    assertEquals(id, client.assets().get(inside).domain());
    assertNull(client.assets().get(outside).domain());
    assertEquals(
        List.of(inside),
        client.assets().list(AssetFilter.builder().domain(id).build()).stream().map(a -> a.id()).toList());

    ConflictException owns = assertThrows(ConflictException.class, () -> client.teams().delete(team));
    assertEquals("team_owns_domains", owns.code());
    assertThrows(
        ValidationException.class,
        () -> client.domains().put(id + "-x", DomainInput.builder(team + "-nobody").build()));

    client.domains().delete(id);
    assertNull(client.assets().get(inside).domain());
    assertThrows(NotFoundException.class, () -> client.domains().get(id));
  }

  @Test
  void meNamesRoleScopesTeamsAndDomainRoles() {
    Me me = client.me();
    assertEquals("admin", me.role());
    assertTrue(me.scopes().contains("admin"));
  }

  @Test
  void aWriteOutsideTheCallersDomainsIsRefused() {
    String team = team();
    String guarded = prefix() + ".guarded";
    client.assets().create(AssetInput.builder(guarded, "g", "table").build());
    String id = slug();
    domain(id, DomainInput.builder(team).rule(DomainRule.asset(guarded)).build());
    GovernanceClient writer = tokenOf(Scope.WRITE);

    DomainForbiddenException refused =
        assertThrows(
            DomainForbiddenException.class,
            () -> writer.assets().patch(guarded, Map.of("description", "not mine")));
    assertEquals(List.of(new RefusedAsset(guarded, id)), refused.assets());
    assertEquals(1, refused.assetsCount());
    assertNull(client.assets().get(guarded).description(), "nothing was written");
  }

  @Test
  void aPrivateDomainsNodesAreRedacted() {
    String team = team();
    String prefix = prefix();
    String root = prefix + ".root";
    String hidden = prefix + ".hidden";
    String beyond = prefix + ".beyond";
    client.lineage().bulk(List.of(EdgeInput.of(root, hidden), EdgeInput.of(hidden, beyond)));
    domain(slug(), DomainInput.builder(team).isPrivate(true).rule(DomainRule.asset(hidden)).build());
    GovernanceClient reader = tokenOf(Scope.READ);

    LineageGraph graph = reader.lineage().downstream(root, Traversal.depth(3));
    List<GraphNode> standIns = graph.nodes().stream().filter(GraphNode::redacted).toList();
    assertEquals(1, graph.redacted());
    assertEquals(1, standIns.size());
    assertEquals(team, standIns.get(0).team());
    assertEquals(1, standIns.get(0).distance());
    assertTrue(graph.node(hidden).isEmpty());
    assertTrue(graph.node(beyond).isPresent(), "the path goes on past the stand-in");
    String standIn = standIns.get(0).id();
    Set<String> edges =
        graph.edges().stream().map(e -> e.source() + ">" + e.target()).collect(Collectors.toSet());
    assertEquals(Set.of(root + ">" + standIn, standIn + ">" + beyond), edges);
    assertThrows(NotFoundException.class, () -> reader.assets().get(hidden));
    LineageGraph full = client.lineage().downstream(root, Traversal.depth(3));
    assertEquals(0, full.redacted());
    assertTrue(full.node(hidden).isPresent());
  }
}
