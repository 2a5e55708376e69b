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
    return new PagedIterable<>(
        filter.cursor(),
        cursor ->
            http.json(
                ApiCall.get("/policies")
                    .param("kind", filter.kind())
                    .param("enabled", filter.enabled())
                    .param("limit", filter.pageSize())
                    .param("cursor", cursor),
                PAGE));
  }

  /**
   * Creates a policy (201).
   *
   * @throws dev.governance.client.exception.ValidationException naming the bad field, e.g.
   *     {@code body.kind} or {@code body.params.tag}; nothing is written
   */
  public Policy create(PolicyInput policy) {
    return http.json(ApiCall.post("/policies").json(policy), Policy.class);
  }

  /** @throws dev.governance.client.exception.NotFoundException if there is no such policy */
  public Policy get(String id) {
    return http.json(ApiCall.get(path(id)), Policy.class);
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
    return http.json(ApiCall.put(path(id)).ifMatch(ifMatchVersion).json(policy), Policy.class);
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
    ApiCall call =
        ApiCall.patch(path(id))
            .ifMatch(ifMatchVersion)
            .body(Json.write(mergePatch), ApiCall.MERGE_PATCH_JSON);
    return http.json(call, Policy.class);
  }

  /** Deletes the policy; its open violations are announced resolved. */
  public void delete(String id) {
    delete(id, null);
  }

  /** Deletes the policy only if its version is still {@code ifMatchVersion}. */
  public void delete(String id, Long ifMatchVersion) {
    http.execute(ApiCall.delete(path(id)).ifMatch(ifMatchVersion));
  }

  /** Every open violation of the policy, ordered by asset id, paged automatically. */
  public PagedIterable<Violation> violations(String policyId) {
    return violations(policyId, null);
  }

  /** As {@link #violations(String)}, {@code pageSize} (1-500) violations per request. */
  public PagedIterable<Violation> violations(String policyId, Integer pageSize) {
    String path = path(policyId) + "/violations";
    return new PagedIterable<>(
        null,
        cursor -> {
          PolicyViolations page = fetchViolations(path, pageSize, cursor);
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
    return fetchViolations(path(policyId) + "/violations", limit, cursor);
  }

  private PolicyViolations fetchViolations(String path, Integer limit, String cursor) {
    return http.json(
        ApiCall.get(path).param("limit", limit).param("cursor", cursor), PolicyViolations.class);
  }

  /**
   * Evaluates every policy now ({@code POST /policies/evaluate}) and tells what each found.
   * Violations that open or resolve are announced once each; a disabled policy's violations
   * resolve.
   */
  public EvaluationSummary evaluate() {
    return http.json(ApiCall.post("/policies/evaluate"), EvaluationSummary.class);
  }

  private static String path(String id) {
    return "/policies/" + Ids.segment("policy id", id);
  }
}
