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
    return list(pageSize, null);
  }

  /** As {@link #list(Integer)}, each page sent with {@code options}. */
  public PagedIterable<Token> list(Integer pageSize, RequestOptions options) {
    return PagedIterable.of(http, "/tokens", pageSize, options, PAGE);
  }

  /** A token that never expires. */
  public TokenCreated create(String name, Scope... scopes) {
    return create(name, Arrays.asList(scopes), null);
  }

  /**
   * Makes a token, owned by the calling token's user; {@link TokenCreated#token()} holds the
   * secret, shown this once.
   *
   * <p>Not retried automatically: the service keeps no answer that holds a secret, so an
   * {@code Idempotency-Key} cannot make a repeat safe, and a retry could make two tokens.
   *
   * @param expiresInDays 1-3650, or null for a token without expiry
   */
  public TokenCreated create(String name, Collection<Scope> scopes, Integer expiresInDays) {
    return createWithResponse(name, scopes, expiresInDays, null).value();
  }

  public Response<TokenCreated> createWithResponse(
      String name, Collection<Scope> scopes, Integer expiresInDays, RequestOptions options) {
    TokenInput body = new TokenInput(name, List.copyOf(scopes), expiresInDays);
    return http.call(
        ApiCall.post("/tokens").json(body).replay(ApiCall.Replay.NEVER).options(options),
        TokenCreated.class);
  }

  public Token get(String id) {
    return getWithResponse(id, null).value();
  }

  public Response<Token> getWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), Token.class);
  }

  /** Revokes the token; requests made with it fail with 401 from now on. */
  public void revoke(String id) {
    revokeWithResponse(id, null);
  }

  public Response<Void> revokeWithResponse(String id, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).options(options));
  }

  private static String path(String id) {
    return "/tokens/" + Ids.segment("token id", id);
  }
}
