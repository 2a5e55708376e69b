package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.DbtResultsSummary;
import dev.governance.client.model.Page;
import dev.governance.client.model.QualityResult;
import dev.governance.client.model.QualityRule;
import dev.governance.client.model.QualityRuleInput;
import dev.governance.client.model.ResultInput;
import dev.governance.client.model.RuleFilter;
import java.io.UncheckedIOException;
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
    return rules(filter, RequestOptions.DEFAULTS);
  }

  /** As {@link #rules(RuleFilter)}, each page sent with {@code options}. */
  public PagedIterable<QualityRule> rules(RuleFilter filter, RequestOptions options) {
    return new PagedIterable<>(
        (cursor, size) ->
            http.json(
                ApiCall.get("/quality/rules")
                    .param("asset_id", filter.assetId())
                    .param("status", filter.status())
                    .param("type", filter.type())
                    .param("limit", size)
                    .param("cursor", cursor)
                    .options(options),
                RULES));
  }

  /**
   * Creates a rule (201).
   *
   * @throws dev.governance.client.exception.ValidationException naming {@code body.asset_id}
   *     for an unknown asset, or the param that does not fit the type
   */
  public QualityRule createRule(QualityRuleInput rule) {
    return createRuleWithResponse(rule, RequestOptions.DEFAULTS).value();
  }

  public Response<QualityRule> createRuleWithResponse(QualityRuleInput rule, RequestOptions options) {
    return http.call(ApiCall.post("/quality/rules").json(rule).options(options), QualityRule.class);
  }

  /** @throws dev.governance.client.exception.NotFoundException if there is no such rule */
  public QualityRule getRule(String id) {
    return getRuleWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  public Response<QualityRule> getRuleWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), QualityRule.class);
  }

  /**
   * Replaces the rule's definition (PUT); its status and history stay. It never creates: an
   * unknown id is a {@code NotFoundException}.
   */
  public QualityRule replaceRule(String id, QualityRuleInput rule) {
    return replaceRuleWithResponse(id, rule, RequestOptions.DEFAULTS).value();
  }

  /**
   * Replaces the rule only if its version is still {@code ifMatchVersion}.
   *
   * @throws dev.governance.client.exception.PreconditionFailedException if it changed meanwhile
   */
  public QualityRule replaceRule(String id, QualityRuleInput rule, long ifMatchVersion) {
    return replaceRuleWithResponse(id, rule, RequestOptions.ifMatch(ifMatchVersion)).value();
  }

  public Response<QualityRule> replaceRuleWithResponse(
      String id, QualityRuleInput rule, RequestOptions options) {
    return http.call(ApiCall.put(path(id)).json(rule).options(options), QualityRule.class);
  }

  /** Applies a JSON Merge Patch (RFC 7396) to the rule's definition. */
  public QualityRule patchRule(String id, Map<String, ?> mergePatch) {
    return patchRuleWithResponse(id, mergePatch, RequestOptions.DEFAULTS).value();
  }

  /** A merge patch applied only if the version is still {@code ifMatchVersion}. */
  public QualityRule patchRule(String id, Map<String, ?> mergePatch, long ifMatchVersion) {
    return patchRuleWithResponse(id, mergePatch, RequestOptions.ifMatch(ifMatchVersion)).value();
  }

  public Response<QualityRule> patchRuleWithResponse(
      String id, Map<String, ?> mergePatch, RequestOptions options) {
    return http.call(
        ApiCall.patch(path(id)).mergePatch(mergePatch).options(options), QualityRule.class);
  }

  /** Deletes the rule and its results. */
  public void deleteRule(String id) {
    deleteRuleWithResponse(id, RequestOptions.DEFAULTS);
  }

  /** Deletes the rule only if its version is still {@code ifMatchVersion}. */
  public void deleteRule(String id, long ifMatchVersion) {
    deleteRuleWithResponse(id, RequestOptions.ifMatch(ifMatchVersion));
  }

  public Response<Void> deleteRuleWithResponse(String id, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).options(options));
  }

  /**
   * Records one run of the rule (201). The rule's status follows its newest result by run
   * time; turning failing raises a {@code quality.rule.failed} alert with the downstream impact.
   */
  public QualityResult recordResult(String ruleId, ResultInput result) {
    return recordResultWithResponse(ruleId, result, RequestOptions.DEFAULTS).value();
  }

  public Response<QualityResult> recordResultWithResponse(
      String ruleId, ResultInput result, RequestOptions options) {
    return http.call(
        ApiCall.post(path(ruleId) + "/results").json(result).options(options), QualityResult.class);
  }

  /** The rule's results, newest first, paged automatically. */
  public PagedIterable<QualityResult> results(String ruleId) {
    return results(ruleId, RequestOptions.DEFAULTS);
  }

  /** As {@link #results(String)}, each page sent with {@code options}. */
  public PagedIterable<QualityResult> results(String ruleId, RequestOptions options) {
    return PagedIterable.of(http, path(ruleId) + "/results", options, RESULTS);
  }

  /**
   * Records a dbt {@code run_results.json} (plain or gzipped) from a file. See
   * {@link #uploadRunResults(byte[])}.
   *
   * @throws UncheckedIOException when the file cannot be read
   */
  public DbtResultsSummary uploadRunResults(Path path) {
    return uploadRunResults(LineageService.read(path, "run results"));
  }

  /**
   * {@code POST /quality/results/dbt}: each data test result of a dbt {@code run_results.json}
   * (schema v4 and later) is recorded against the rule whose id is the test's
   * {@code unique_id}, so upload the manifest first ({@code lineage().uploadManifest}). The
   * bytes are gzipped unless they already are. Uploading the same dbt invocation again records
   * nothing ({@code duplicates}), so the upload is retried like other POSTs. Each attempt may
   * take {@link LineageService#MANIFEST_TIMEOUT}.
   *
   * @throws dev.governance.client.exception.ValidationException ({@code invalid_run_results})
   *     for a body the service cannot read
   */
  public DbtResultsSummary uploadRunResults(byte[] runResults) {
    return uploadRunResultsWithResponse(runResults, RequestOptions.DEFAULTS).value();
  }

  public Response<DbtResultsSummary> uploadRunResultsWithResponse(
      byte[] runResults, RequestOptions options) {
    return http.call(
        LineageService.upload("/quality/results/dbt", runResults, "run results").options(options),
        DbtResultsSummary.class);
  }

  private static String path(String id) {
    return "/quality/rules/" + Ids.segment("rule id", id);
  }
}
