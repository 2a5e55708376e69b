package dev.governance.client;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.EvaluationSummary;
import dev.governance.client.model.Page;
import dev.governance.client.model.Policy;
import dev.governance.client.model.PolicyFilter;
import dev.governance.client.model.PolicyInput;
import dev.governance.client.model.Violation;
import java.util.List;
import java.util.Map;

/**
 * {@code /policies}: governance policies, their violations, and evaluation. Obtain it with
 * {@link GovernanceClient#policies()}. Policy ids are made by the service ({@code pol_...}).
 * After a change the service re-evaluates policies in the background; {@link #evaluate()} does
 * it at once.
 */
public final class PoliciesService {
  private static final TypeReference<Page<Policy>> PAGE = new TypeReference<>() {};
  private final Requester http;

  PoliciesService(Requester http) {
    this.http = http;
  }

  /** Every policy, paged automatically (ordered by id). */
  public PagedIterable<Policy> list() {
    return list(PolicyFilter.all());
  }

  /** The policies that match the filter, paged automatically. */
  public PagedIterable<Policy> list(PolicyFilter filter) {
    return list(filter, RequestOptions.DEFAULTS);
  }

  /** As {@link #list(PolicyFilter)}, each page sent with {@code options}. */
  public PagedIterable<Policy> list(PolicyFilter filter, RequestOptions options) {
    return new PagedIterable<>(
        (cursor, size) ->
            http.json(
                ApiCall.get("/policies")
                    .param("kind", filter.kind())
                    .param("enabled", filter.enabled())
                    .param("limit", size)
                    .param("cursor", cursor)
                    .options(options),
                PAGE));
  }

  /**
   * Creates a policy (201).
   *
   * @throws dev.governance.client.exception.ValidationException naming the bad field, e.g.
   *     {@code body.kind} or {@code body.params.tag}; nothing is written
   */
  public Policy create(PolicyInput policy) {
    return createWithResponse(policy, RequestOptions.DEFAULTS).value();
  }

  public Response<Policy> createWithResponse(PolicyInput policy, RequestOptions options) {
    return http.call(ApiCall.post("/policies").json(policy).options(options), Policy.class);
  }

  /** @throws dev.governance.client.exception.NotFoundException if there is no such policy */
  public Policy get(String id) {
    return getWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  public Response<Policy> getWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), Policy.class);
  }

  /**
   * Replaces the policy's definition (PUT). It never creates: an unknown id is a
   * {@code NotFoundException}. An unchanged policy keeps its version.
   */
  public Policy replace(String id, PolicyInput policy) {
    return replaceWithResponse(id, policy, RequestOptions.DEFAULTS).value();
  }

  /**
   * Replaces the policy only if its version is still {@code ifMatchVersion}.
   *
   * @throws dev.governance.client.exception.PreconditionFailedException if it changed meanwhile
   */
  public Policy replace(String id, PolicyInput policy, long ifMatchVersion) {
    return replaceWithResponse(id, policy, RequestOptions.ifMatch(ifMatchVersion)).value();
  }

  public Response<Policy> replaceWithResponse(String id, PolicyInput policy, RequestOptions options) {
    return http.call(ApiCall.put(path(id)).json(policy).options(options), Policy.class);
  }

  /**
   * Applies a JSON Merge Patch (RFC 7396), e.g. {@code Map.of("enabled", false)}; the patched
   * policy is validated whole. Use a {@code HashMap} to send nulls (which remove a field).
   */
  public Policy patch(String id, Map<String, ?> mergePatch) {
    return patchWithResponse(id, mergePatch, RequestOptions.DEFAULTS).value();
  }

  /** A merge patch applied only if the version is still {@code ifMatchVersion}. */
  public Policy patch(String id, Map<String, ?> mergePatch, long ifMatchVersion) {
    return patchWithResponse(id, mergePatch, RequestOptions.ifMatch(ifMatchVersion)).value();
  }

  public Response<Policy> patchWithResponse(
      String id, Map<String, ?> mergePatch, RequestOptions options) {
    return http.call(ApiCall.patch(path(id)).mergePatch(mergePatch).options(options), Policy.class);
  }

  /** Deletes the policy; its open violations are announced resolved. */
  public void delete(String id) {
    deleteWithResponse(id, RequestOptions.DEFAULTS);
  }

  /** Deletes the policy only if its version is still {@code ifMatchVersion}. */
  public void delete(String id, long ifMatchVersion) {
    deleteWithResponse(id, RequestOptions.ifMatch(ifMatchVersion));
  }

  public Response<Void> deleteWithResponse(String id, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).options(options));
  }

  /**
   * Every open violation of the policy, ordered by asset id, paged automatically, as the
   * policy's latest evaluation stored them ({@link Policy#evaluatedAt()} tells when).
   */
  public PagedIterable<Violation> violations(String policyId) {
    return violations(policyId, RequestOptions.DEFAULTS);
  }

  /** As {@link #violations(String)}, each page sent with {@code options}. */
  public PagedIterable<Violation> violations(String policyId, RequestOptions options) {
    String path = path(policyId) + "/violations";
    return new PagedIterable<>(
        (cursor, size) -> {
          ViolationsPage page =
              http.json(
                  ApiCall.get(path).param("limit", size).param("cursor", cursor).options(options),
                  ViolationsPage.class);
          return new Page<>(page.violations(), page.nextCursor());
        });
  }

  /** The wire form of one page of violations. */
  record ViolationsPage(List<Violation> violations, @JsonProperty("next_cursor") String nextCursor) {}

  /**
   * Evaluates every policy now ({@code POST /policies/evaluate}) and tells what each found.
   * Violations that open or resolve are announced once each; a disabled policy's violations
   * resolve.
   */
  public EvaluationSummary evaluate() {
    return evaluateWithResponse(RequestOptions.DEFAULTS).value();
  }

  public Response<EvaluationSummary> evaluateWithResponse(RequestOptions options) {
    return http.call(ApiCall.post("/policies/evaluate").options(options), EvaluationSummary.class);
  }

  private static String path(String id) {
    return "/policies/" + Ids.segment("policy id", id);
  }
}
