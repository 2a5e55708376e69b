package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Arrays;
import java.util.List;

/**
 * The body of {@code POST /tokens}: a name, its scopes and, optionally, how many days it lives
 * (1-3650; without: no expiry).
 *
 * <pre>{@code
 * client.tokens().create(TokenInput.of("ci", Scope.WRITE).withExpiresInDays(90));
 * }</pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TokenInput(
    String name, List<Scope> scopes, @JsonProperty("expires_in_days") Integer expiresInDays) {

  public TokenInput {
    scopes = scopes == null ? null : List.copyOf(scopes);
  }

  public static TokenInput of(String name, Scope... scopes) {
    return of(name, Arrays.asList(scopes));
  }

  public static TokenInput of(String name, List<Scope> scopes) {
    return new TokenInput(name, scopes, null);
  }

  public TokenInput withExpiresInDays(int days) {
    return new TokenInput(name, scopes, days);
  }
}
