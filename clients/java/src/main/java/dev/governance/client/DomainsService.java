package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Domain;
import dev.governance.client.model.DomainInput;
import java.util.List;

/**
 * {@code /domains}: sets of assets owned by a team, chosen by rules, where grants give teams a
 * role. Reading needs the {@code read} scope (a private domain is seen only by callers with a
 * role in it), writing the {@code admin} scope or the domain's own admin role. Obtain it with
 * {@link GovernanceClient#domains()}.
 */
public final class DomainsService {
  private static final TypeReference<Whole<Domain>> ALL = new TypeReference<>() {};
  private final Requester http;

  DomainsService(Requester http) {
    this.http = http;
  }

  /**
   * Creates the domain (201) or replaces it (200: {@link Response#status()} tells which), then
   * re-evaluates which assets are in it.
   *
   * @throws dev.governance.client.exception.ValidationException for an unknown team in
   *     {@code ownerTeam} or the grants
   */
  public Domain put(String id, DomainInput domain) {
    return putWithResponse(id, domain, RequestOptions.DEFAULTS).value();
  }

  public Response<Domain> putWithResponse(String id, DomainInput domain, RequestOptions options) {
    return http.call(ApiCall.put(path(id)).json(domain).options(options), Domain.class);
  }

  /** Every domain the caller may see, in one answer (the list is not paged). */
  public List<Domain> list() {
    return listWithResponse(RequestOptions.DEFAULTS).value();
  }

  public Response<List<Domain>> listWithResponse(RequestOptions options) {
    Response<Whole<Domain>> answer = http.call(ApiCall.get("/domains").options(options), ALL);
    return Whole.items(answer);
  }

  /**
   * The domain with its asset count.
   *
   * @throws dev.governance.client.exception.NotFoundException if there is none (or it is
   *     private and out of the caller's reach)
   */
  public Domain get(String id) {
    return getWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  public Response<Domain> getWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), Domain.class);
  }

  /** Deletes the domain; its assets leave it. */
  public void delete(String id) {
    deleteWithResponse(id, RequestOptions.DEFAULTS);
  }

  public Response<Void> deleteWithResponse(String id, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).options(options));
  }

  private static String path(String id) {
    return "/domains/" + Ids.segment("domain id", id);
  }
}
