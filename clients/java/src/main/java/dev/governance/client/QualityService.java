package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.DbtResultsSummary;
import dev.governance.client.model.Page;
import dev.governance.client.model.QualityResult;
import dev.governance.client.model.QualityRule;
import dev.governance.client.model.QualityRuleInput;
import dev.governance.client.model.ResultInput;
import dev.governance.client.model.RuleFilter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code /quality}: data quality rules, their results, and dbt run results. Obtain it with
 * {@link GovernanceClient#quality()}. Rule ids are made by the service ({@code qr_...}) or are
 * the dbt test's {@code unique_id} (rules made by a manifest upload).
 */
public final class QualityService {
  private static final TypeReference<Page<QualityRule>> RULES = new TypeReference<>() {};
  private static final TypeReference<Page<QualityResult>> RESULTS = new TypeReference<>() {};
  private final Requester http;

  QualityService(Requester http) {
    this.http = http;
  }

  /** Every rule, paged automatically (ordered by id). */
  public PagedIterable<QualityRule> rules() {
    return rules(RuleFilter.all());
  }

  /** The rules that match the filter, paged automatically. */
  public PagedIterable<QualityRule> rules(RuleFilter filter) {
    return new PagedIterable<>(
        filter.cursor(),
        cursor ->
            http.json(
                ApiCall.get("/quality/rules")
                    .param("asset_id", filter.assetId())
                    .param("status", filter.status())
                    .param("type", filter.type())
                    .param("limit", filter.pageSize())
                    .param("cursor", cursor),
                RULES));
  }

  /**
   * Creates a rule (201).
   *
   * @throws dev.governance.client.exception.ValidationException naming {@code body.asset_id}
   *     for an unknown asset, or the param that does not fit the type
   */
  public QualityRule createRule(QualityRuleInput rule) {
    return http.json(ApiCall.post("/quality/rules").json(rule), QualityRule.class);
  }

  /** @throws dev.governance.client.exception.NotFoundException if there is no such rule */
  public QualityRule getRule(String id) {
    return http.json(ApiCall.get(path(id)), QualityRule.class);
  }

  /**
   * Replaces the rule's definition (PUT); its status and history stay. It never creates: an
   * unknown id is a {@code NotFoundException}.
   */
  public QualityRule replaceRule(String id, QualityRuleInput rule) {
    return replaceRule(id, rule, null);
  }

  /**
   * Replaces the rule only if its version is still {@code ifMatchVersion}.
   *
   * @throws dev.governance.client.exception.PreconditionFailedException if it changed meanwhile
   */
  public QualityRule replaceRule(String id, QualityRuleInput rule, Long ifMatchVersion) {
    return http.json(ApiCall.put(path(id)).ifMatch(ifMatchVersion).json(rule), QualityRule.class);
  }

  /** Applies a JSON Merge Patch (RFC 7396) to the rule's definition. */
  public QualityRule patchRule(String id, Map<String, ?> mergePatch) {
    return patchRule(id, mergePatch, null);
  }

  /** A merge patch applied only if the version is still {@code ifMatchVersion}. */
  public QualityRule patchRule(String id, Map<String, ?> mergePatch, Long ifMatchVersion) {
    ApiCall call =
        ApiCall.patch(path(id))
            .ifMatch(ifMatchVersion)
            .body(Json.write(mergePatch), ApiCall.MERGE_PATCH_JSON);
    return http.json(call, QualityRule.class);
  }

  /** Deletes the rule and its results. */
  public void deleteRule(String id) {
    deleteRule(id, null);
  }

  /** Deletes the rule only if its version is still {@code ifMatchVersion}. */
  public void deleteRule(String id, Long ifMatchVersion) {
    http.execute(ApiCall.delete(path(id)).ifMatch(ifMatchVersion));
  }

  /**
   * Records one run of the rule (201). The rule's status follows its newest result by run
   * time; turning failing raises a {@code quality.rule.failed} alert with the downstream impact.
   */
  public QualityResult recordResult(String ruleId, ResultInput result) {
    return http.json(ApiCall.post(path(ruleId) + "/results").json(result), QualityResult.class);
  }

  /** The rule's results, newest first, paged automatically. */
  public PagedIterable<QualityResult> results(String ruleId) {
    return results(ruleId, null);
  }

  /** As {@link #results(String)}, {@code pageSize} (1-500) results per request. */
  public PagedIterable<QualityResult> results(String ruleId, Integer pageSize) {
    String path = path(ruleId) + "/results";
    return new PagedIterable<>(
        null,
        cursor -> http.json(ApiCall.get(path).param("limit", pageSize).param("cursor", cursor), RESULTS));
  }

  /**
   * Records a dbt {@code run_results.json} (plain or gzipped) from a file. See
   * {@link #uploadRunResults(byte[])}.
   *
   * @throws UncheckedIOException when the file cannot be read
   */
  public DbtResultsSummary uploadRunResults(Path path) {
    try {
      return uploadRunResults(Files.readAllBytes(path));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read run results " + path, e);
    }
  }

  /**
   * {@code POST /quality/results/dbt}: each data test result of a dbt {@code run_results.json}
   * (schema v4 and later) is recorded against the rule whose id is the test's
   * {@code unique_id}, so upload the manifest first ({@code lineage().uploadManifest}). The
   * bytes are gzipped unless they already are. Uploading the same dbt invocation again records
   * nothing ({@code duplicates}), so the upload is retried like other POSTs.
   *
   * @throws dev.governance.client.exception.ValidationException ({@code invalid_run_results})
   *     for a body the service cannot read
   */
  public DbtResultsSummary uploadRunResults(byte[] runResults) {
    if (runResults == null || runResults.length == 0) {
      throw new IllegalArgumentException("the run results must not be null or empty");
    }
    ApiCall call =
        ApiCall.post("/quality/results/dbt")
            .body(Gzip.unlessGzipped(runResults), ApiCall.JSON)
            .header("Content-Encoding", "gzip")
            .timeoutAtLeast(LineageService.MANIFEST_TIMEOUT);
    return http.json(call, DbtResultsSummary.class);
  }

  private static String path(String id) {
    return "/quality/rules/" + Ids.segment("rule id", id);
  }
}
