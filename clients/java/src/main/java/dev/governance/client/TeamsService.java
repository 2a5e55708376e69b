package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Team;
import dev.governance.client.model.TeamInput;
import java.util.List;

/**
 * {@code /teams}: named groups of users, given roles in domains. Reading needs the {@code read}
 * scope, writing the {@code admin} scope. Obtain it with {@link GovernanceClient#teams()}.
 */
public final class TeamsService {
  private static final TypeReference<Whole<Team>> ALL = new TypeReference<>() {};
  private final Requester http;

  TeamsService(Requester http) {
    this.http = http;
  }

  /**
   * Creates the team (201) or replaces it (200: {@link Response#status()} tells which). The id
   * is a slug: {@code a-z 0-9}, then up to 62 of {@code a-z 0-9 _ -}.
   */
  public Team put(String id, TeamInput team) {
    return putWithResponse(id, team, RequestOptions.DEFAULTS).value();
  }

  public Response<Team> putWithResponse(String id, TeamInput team, RequestOptions options) {
    return http.call(ApiCall.put(path(id)).json(team).options(options), Team.class);
  }

  /** Every team, in one answer (the list is not paged). */
  public List<Team> list() {
    return listWithResponse(RequestOptions.DEFAULTS).value();
  }

  public Response<List<Team>> listWithResponse(RequestOptions options) {
    Response<Whole<Team>> answer = http.call(ApiCall.get("/teams").options(options), ALL);
    return Whole.items(answer);
  }

  /** @throws dev.governance.client.exception.NotFoundException if there is no such team */
  public Team get(String id) {
    return getWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  public Response<Team> getWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), Team.class);
  }

  /**
   * Deletes the team.
   *
   * @throws dev.governance.client.exception.ConflictException ({@code team_owns_domains}) while
   *     it owns a domain
   */
  public void delete(String id) {
    deleteWithResponse(id, RequestOptions.DEFAULTS);
  }

  public Response<Void> deleteWithResponse(String id, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).options(options));
  }

  /**
   * Makes the user a member of the team (nothing changes if they are one).
   *
   * @throws dev.governance.client.exception.NotFoundException for an unknown team or user
   */
  public void addMember(String id, String userId) {
    addMemberWithResponse(id, userId, RequestOptions.DEFAULTS);
  }

  public Response<Void> addMemberWithResponse(String id, String userId, RequestOptions options) {
    return http.callWithoutBody(ApiCall.put(memberPath(id, userId)).options(options));
  }

  /** Takes the user out of the team. */
  public void removeMember(String id, String userId) {
    removeMemberWithResponse(id, userId, RequestOptions.DEFAULTS);
  }

  public Response<Void> removeMemberWithResponse(String id, String userId, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(memberPath(id, userId)).options(options));
  }

  private static String path(String id) {
    return "/teams/" + Ids.segment("team id", id);
  }

  private static String memberPath(String id, String userId) {
    return path(id) + "/members/" + Ids.segment("user id", userId);
  }
}
