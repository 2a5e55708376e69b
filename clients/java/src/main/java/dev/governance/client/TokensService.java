package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Page;
import dev.governance.client.model.Scope;
import dev.governance.client.model.Token;
import dev.governance.client.model.TokenCreated;
import dev.governance.client.model.TokenInput;

/** {@code /tokens}: API tokens. Every operation needs a token with the {@code admin} scope. */
public final class TokensService {
  private static final TypeReference<Page<Token>> PAGE = new TypeReference<>() {};
  private final Requester http;

  TokensService(Requester http) {
    this.http = http;
  }

  /** Every token's metadata (never a secret), paged automatically. */
  public PagedIterable<Token> list() {
    return list(RequestOptions.DEFAULTS);
  }

  /** As {@link #list()}, each page sent with {@code options}. */
  public PagedIterable<Token> list(RequestOptions options) {
    return PagedIterable.of(http, "/tokens", options, PAGE);
  }

  /** A token that never expires. */
  public TokenCreated create(String name, Scope... scopes) {
    return create(TokenInput.of(name, scopes));
  }

  /**
   * Makes a token, owned by the calling token's user; {@link TokenCreated#token()} holds the
   * secret, shown this once.
   *
   * <p>Not retried automatically: the service keeps no answer that holds a secret, so an
   * {@code Idempotency-Key} cannot make a repeat safe, and a retry could make two tokens.
   *
   * @param token its name, scopes and lifetime, e.g.
   *     {@code TokenInput.of("ci", Scope.WRITE).withExpiresInDays(90)}
   */
  public TokenCreated create(TokenInput token) {
    return createWithResponse(token, RequestOptions.DEFAULTS).value();
  }

  public Response<TokenCreated> createWithResponse(TokenInput token, RequestOptions options) {
    return http.call(
        ApiCall.post("/tokens").json(token).replay(ApiCall.Replay.NEVER).options(options),
        TokenCreated.class);
  }

  public Token get(String id) {
    return getWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  public Response<Token> getWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), Token.class);
  }

  /** Revokes the token; requests made with it fail with 401 from now on. */
  public void revoke(String id) {
    revokeWithResponse(id, RequestOptions.DEFAULTS);
  }

  public Response<Void> revokeWithResponse(String id, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).options(options));
  }

  private static String path(String id) {
    return "/tokens/" + Ids.segment("token id", id);
  }
}
