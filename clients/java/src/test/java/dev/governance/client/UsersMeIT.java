package dev.governance.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.governance.client.exception.ConflictException;
import dev.governance.client.exception.NotFoundException;
import dev.governance.client.exception.ValidationException;
import dev.governance.client.model.Me;
import dev.governance.client.model.Role;
import dev.governance.client.model.Scope;
import dev.governance.client.model.TokenCreated;
import dev.governance.client.model.TokenInput;
import dev.governance.client.model.User;
import dev.governance.client.model.UserInput;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Users, /me and the tokens' owner against a running service (see {@link Live}). */
class UsersMeIT {
  private static GovernanceClient client;

  @BeforeAll
  static void connect() {
    client = Live.client();
  }

  private static String username() {
    return "java-" + UUID.randomUUID().toString().substring(0, 13);
  }

  @Test
  void userLifecycle() {
    String name = username();
    Response<User> made =
        client.users().createWithResponse(
            UserInput.of(name, "correct horse battery staple", Role.EDITOR).withDisplayName("Java Test"), null);
    User user = made.value();
    try {
      assertTrue(made.created());
      assertEquals(name, user.username());
      assertEquals("editor", user.role());
      assertEquals("Java Test", user.displayName());
      assertFalse(user.disabled());
      assertNull(user.lastSignInAt());
      assertEquals(user, client.users().get(user.id()));
      assertTrue(client.users().list().pageSize(100).stream().anyMatch(u -> u.id().equals(user.id())));

      ConflictException taken =
          assertThrows(
              ConflictException.class,
              () -> client.users().create(UserInput.of(name.toUpperCase(Locale.ROOT), "another long password", Role.VIEWER)));
      assertEquals("already_exists", taken.code());

      Map<String, Object> patch = new HashMap<>();
      patch.put("role", Role.VIEWER);
      patch.put("display_name", null);
      patch.put("disabled", true);
      User changed = client.users().patch(user.id(), patch);
      assertEquals("viewer", changed.role());
      assertNull(changed.displayName());
      assertTrue(changed.disabled());

      ValidationException shortPassword =
          assertThrows(
              ValidationException.class,
              () -> client.users().patch(user.id(), Map.of("password", "short")));
      assertEquals(List.of("body.password"), shortPassword.errors().stream().map(e -> e.path()).toList());
    } finally {
      client.users().delete(user.id());
    }
    assertThrows(NotFoundException.class, () -> client.users().get(user.id()));
    assertThrows(NotFoundException.class, () -> client.users().delete(user.id()));
  }

  @Test
  void badUsersAreRefusedNamingTheField() {
    ValidationException error =
        assertThrows(
            ValidationException.class,
            () -> client.users().create(UserInput.of("has space", "correct horse battery staple", Role.VIEWER)));
    assertEquals("body.username", error.errors().get(0).path());
  }

  @Test
  void meNamesTheCallingTokenAndTokensNameTheirUser() {
    Me me = client.me();
    assertNotNull(me.token().id());
    assertTrue(me.token().scopes().contains("admin"));
    // The harness's token comes from the CLI (no user); one from the dashboard has its user.
    String owner = me.user() == null ? null : me.user().id();
    assertEquals(owner, me.token().userId());

    TokenCreated made = client.tokens().create(TokenInput.of(Live.unique("me"), Scope.READ).withExpiresInDays(1));
    try {
      assertEquals(owner, made.userId(), "a token belongs to the user of the token that made it");
      GovernanceClient reader = GovernanceClient.builder().baseUrl(Live.url()).token(made.token()).build();
      Me readerMe = reader.me();
      assertEquals(made.id(), readerMe.token().id());
      assertEquals(List.of("read"), readerMe.token().scopes());
    } finally {
      client.tokens().revoke(made.id());
    }
  }
}
