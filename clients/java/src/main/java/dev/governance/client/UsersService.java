package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Page;
import dev.governance.client.model.User;
import dev.governance.client.model.UserInput;
import java.util.Map;

/**
 * {@code /users}: dashboard accounts, whose role caps what their tokens may do (viewer: read,
 * editor: write, admin: admin). Every operation needs the {@code admin} scope. Obtain it with
 * {@link GovernanceClient#users()}; the calling token's own user is {@link GovernanceClient#me()}.
 */
public final class UsersService {
  private static final TypeReference<Page<User>> PAGE = new TypeReference<>() {};
  private final Requester http;

  UsersService(Requester http) {
    this.http = http;
  }

  /** Every user, paged automatically (ordered by id). */
  public PagedIterable<User> list() {
    return list(RequestOptions.DEFAULTS);
  }

  /** As {@link #list()}, each page sent with {@code options}. */
  public PagedIterable<User> list(RequestOptions options) {
    return PagedIterable.of(http, "/users", options, PAGE);
  }

  /**
   * Creates a user (201). The password is stored as a hash and never returned.
   *
   * @throws dev.governance.client.exception.ConflictException ({@code already_exists}) for a
   *     username taken, ignoring case
   */
  public User create(UserInput user) {
    return createWithResponse(user, RequestOptions.DEFAULTS).value();
  }

  public Response<User> createWithResponse(UserInput user, RequestOptions options) {
    return http.call(ApiCall.post("/users").json(user).options(options), User.class);
  }

  /** @throws dev.governance.client.exception.NotFoundException if there is no such user */
  public User get(String id) {
    return getWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  public Response<User> getWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), User.class);
  }

  /**
   * Applies a JSON Merge Patch (RFC 7396) of {@code role}, {@code display_name},
   * {@code disabled} or {@code password}; {@code display_name} mapped to {@code null} removes
   * it (use a {@code HashMap}). Demoting lowers what the user's tokens may do from the next
   * request; disabling ends their sessions and makes their tokens fail with 401.
   *
   * @throws dev.governance.client.exception.ConflictException ({@code last_admin}) when the last
   *     enabled admin would be demoted or disabled
   */
  public User patch(String id, Map<String, ?> mergePatch) {
    return patchWithResponse(id, mergePatch, RequestOptions.DEFAULTS).value();
  }

  public Response<User> patchWithResponse(String id, Map<String, ?> mergePatch, RequestOptions options) {
    return http.call(ApiCall.patch(path(id)).mergePatch(mergePatch).options(options), User.class);
  }

  /**
   * Deletes the user; their sessions end and their tokens stop working.
   *
   * @throws dev.governance.client.exception.ConflictException ({@code last_admin}) for the last
   *     enabled admin
   */
  public void delete(String id) {
    deleteWithResponse(id, RequestOptions.DEFAULTS);
  }

  public Response<Void> deleteWithResponse(String id, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).options(options));
  }

  private static String path(String id) {
    return "/users/" + Ids.segment("user id", id);
  }
}
