package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.EvaluationSummary;
import dev.governance.client.model.Page;
import dev.governance.client.model.Policy;
import dev.governance.client.model.PolicyFilter;
import dev.governance.client.model.PolicyInput;
import dev.governance.client.model.PolicyViolations;
import dev.governance.client.model.Violation;
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
    return list(filter, null);
  }

  /** As {@link #list(PolicyFilter)}, each page sent with {@code options}. */
  public PagedIterable<Policy> list(PolicyFilter filter, RequestOptions options) {
    return new PagedIterable<>(
        filter.cursor(),
        cursor ->
            http.json(
                ApiCall.get("/policies")
                    .param("kind", filter.kind())
                    .param("enabled", filter.enabled())
                    .param("limit", filter.pageSize())
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
    return createWithResponse(policy, null).value();
  }

  public Response<Policy> createWithResponse(PolicyInput policy, RequestOptions options) {
    return http.call(ApiCall.post("/policies").json(policy).options(options), Policy.class);
  }

  /** @throws dev.governance.client.exception.NotFoundException if there is no such policy */
  public Policy get(String id) {
    return getWithResponse(id, null).value();
  }

  public Response<Policy> getWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), Policy.class);
  }

  /**
   * Replaces the policy's definition (PUT). It never creates: an unknown id is a
   * {@code NotFoundException}. An unchanged policy keeps its version.
   */
  public Policy replace(String id, PolicyInput policy) {
    return replace(id, policy, null);
  }

  /**
   * Replaces the policy only if its version is still {@code ifMatchVersion}.
   *
   * @throws dev.governance.client.exception.PreconditionFailedException if it changed meanwhile
   */
  public Policy replace(String id, PolicyInput policy, Long ifMatchVersion) {
    return replaceWithResponse(id, policy, ifMatchVersion, null).value();
  }

  public Response<Policy> replaceWithResponse(
      String id, PolicyInput policy, Long ifMatchVersion, RequestOptions options) {
    return http.call(
        ApiCall.put(path(id)).ifMatch(ifMatchVersion).json(policy).options(options), Policy.class);
  }

  /**
   * Applies a JSON Merge Patch (RFC 7396), e.g. {@code Map.of("enabled", false)}; the patched
   * policy is validated whole. Use a {@code HashMap} to send nulls (which remove a field).
   */
  public Policy patch(String id, Map<String, ?> mergePatch) {
    return patch(id, mergePatch, null);
  }

  /** A merge patch applied only if the version is still {@code ifMatchVersion}. */
  public Policy patch(String id, Map<String, ?> mergePatch, Long ifMatchVersion) {
    return patchWithResponse(id, mergePatch, ifMatchVersion, null).value();
  }

  public Response<Policy> patchWithResponse(
      String id, Map<String, ?> mergePatch, Long ifMatchVersion, RequestOptions options) {
    return http.call(
        ApiCall.patch(path(id)).ifMatch(ifMatchVersion).mergePatch(mergePatch).options(options),
        Policy.class);
  }

  /** Deletes the policy; its open violations are announced resolved. */
  public void delete(String id) {
    delete(id, null);
  }

  /** Deletes the policy only if its version is still {@code ifMatchVersion}. */
  public void delete(String id, Long ifMatchVersion) {
    deleteWithResponse(id, ifMatchVersion, null);
  }

  public Response<Void> deleteWithResponse(String id, Long ifMatchVersion, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).ifMatch(ifMatchVersion).options(options));
  }

  /** Every open violation of the policy, ordered by asset id, paged automatically. */
  public PagedIterable<Violation> violations(String policyId) {
    return violations(policyId, null);
  }

  /** As {@link #violations(String)}, {@code pageSize} (1-500) violations per request. */
  public PagedIterable<Violation> violations(String policyId, Integer pageSize) {
    return violations(policyId, pageSize, null);
  }

  /** As {@link #violations(String, Integer)}, each page sent with {@code options}. */
  public PagedIterable<Violation> violations(String policyId, Integer pageSize, RequestOptions options) {
    Ids.segment("policy id", policyId);
    return new PagedIterable<>(
        null,
        cursor -> {
          PolicyViolations page = violationsPageWithResponse(policyId, pageSize, cursor, options).value();
          return new Page<>(page.violations(), page.nextCursor());
        });
  }

  /**
   * One page of the policy's open violations, with the time of the evaluation that stored
   * them.
   *
   * @param limit violations per page (1-500), null for the service default (50)
   * @param cursor a page's {@code nextCursor}; null for the first page
   */
  public PolicyViolations violationsPage(String policyId, Integer limit, String cursor) {
    return violationsPageWithResponse(policyId, limit, cursor, null).value();
  }

  public Response<PolicyViolations> violationsPageWithResponse(
      String policyId, Integer limit, String cursor, RequestOptions options) {
    return http.call(
        ApiCall.get(path(policyId) + "/violations")
            .param("limit", limit)
            .param("cursor", cursor)
            .options(options),
        PolicyViolations.class);
  }

  /**
   * Evaluates every policy now ({@code POST /policies/evaluate}) and tells what each found.
   * Violations that open or resolve are announced once each; a disabled policy's violations
   * resolve.
   */
  public EvaluationSummary evaluate() {
    return evaluateWithResponse(null).value();
  }

  public Response<EvaluationSummary> evaluateWithResponse(RequestOptions options) {
    return http.call(ApiCall.post("/policies/evaluate").options(options), EvaluationSummary.class);
  }

  private static String path(String id) {
    return "/policies/" + Ids.segment("policy id", id);
  }
}
