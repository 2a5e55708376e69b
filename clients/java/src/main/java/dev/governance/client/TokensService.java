package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Page;
import dev.governance.client.model.Scope;
import dev.governance.client.model.Token;
import dev.governance.client.model.TokenCreated;
import dev.governance.client.model.TokenInput;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

/** {@code /tokens}: API tokens. Every operation needs a token with the {@code admin} scope. */
public final class TokensService {
  private static final TypeReference<Page<Token>> PAGE = new TypeReference<>() {};
  private final Requester http;

  TokensService(Requester http) {
    this.http = http;
  }

  /** Every token's metadata (never a secret), paged automatically. */
  public PagedIterable<Token> list() {
    return list(null);
  }

  /** As {@link #list()}, {@code pageSize} (1-500) tokens per request. */
  public PagedIterable<Token> list(Integer pageSize) {
    return new PagedIterable<>(
        null,
        cursor -> http.json(ApiCall.get("/tokens").param("limit", pageSize).param("cursor", cursor), PAGE));
  }

  /** A token that never expires. */
  public TokenCreated create(String name, Scope... scopes) {
    return create(name, Arrays.asList(scopes), null);
  }

  /**
   * Makes a token; {@link TokenCreated#token()} holds the secret, shown this once.
   *
   * <p>Not retried automatically: retrying a POST needs an {@code Idempotency-Key}, and the
   * service keeps an idempotent answer for 24 hours, which here would mean keeping the secret.
   *
   * @param expiresInDays 1-3650, or null for a token without expiry
   */
  public TokenCreated create(String name, Collection<Scope> scopes, Integer expiresInDays) {
    TokenInput body = new TokenInput(name, List.copyOf(scopes), expiresInDays);
    return http.json(ApiCall.post("/tokens").json(body).withoutIdempotencyKey(), TokenCreated.class);
  }

  public Token get(String id) {
    return http.json(ApiCall.get(path(id)), Token.class);
  }

  /** Revokes the token; requests made with it fail with 401 from now on. */
  public void revoke(String id) {
    http.execute(ApiCall.delete(path(id)));
  }

  private static String path(String id) {
    return "/tokens/" + Ids.segment("token id", id);
  }
}
