package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Asset;
import dev.governance.client.model.AssetColumns;
import dev.governance.client.model.AssetFilter;
import dev.governance.client.model.AssetInput;
import dev.governance.client.model.AssetVersion;
import dev.governance.client.model.ColumnTagRule;
import dev.governance.client.model.ColumnTagRuleInput;
import dev.governance.client.model.Dataset;
import dev.governance.client.model.Page;
import dev.governance.client.model.Saved;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /assets}: create, read, replace, merge-patch, delete and list data assets. Obtain it
 * with {@link GovernanceClient#assets()}. Ids may hold any characters the service accepts
 * ({@code /}, {@code :}, {@code #}, non-ASCII, ...); they are encoded as one path segment.
 */
public final class AssetsService {
  private static final TypeReference<Page<Asset>> PAGE = new TypeReference<>() {};
  private static final TypeReference<Page<AssetVersion>> VERSIONS = new TypeReference<>() {};
  private final Requester http;

  AssetsService(Requester http) {
    this.http = http;
  }

  /** Every asset, paged automatically. */
  public PagedIterable<Asset> list() {
    return list(AssetFilter.all());
  }

  /** The assets that match the filter, paged automatically (ordered by id). */
  public PagedIterable<Asset> list(AssetFilter filter) {
    return list(filter, RequestOptions.DEFAULTS);
  }

  /** As {@link #list(AssetFilter)}, each page sent with {@code options}. */
  public PagedIterable<Asset> list(AssetFilter filter, RequestOptions options) {
    return new PagedIterable<>((cursor, size) -> page(filter, cursor, size, options));
  }

  /**
   * The asset holding this dataset, found by any spelling the platform's naming rules make
   * equal ({@code GET /assets?dataset_namespace=&dataset_name=}); empty when nobody holds it.
   */
  public Optional<Asset> findByDataset(Dataset dataset) {
    return findByDataset(dataset, RequestOptions.DEFAULTS);
  }

  /** As {@link #findByDataset(Dataset)}, sent with {@code options}. */
  public Optional<Asset> findByDataset(Dataset dataset, RequestOptions options) {
    if (dataset == null || dataset.namespace() == null || dataset.name() == null) {
      throw new IllegalArgumentException("the dataset needs a namespace and a name");
    }
    AssetFilter filter = AssetFilter.builder().dataset(dataset).build();
    return page(filter, null, null, options).items().stream().findFirst();
  }

  private Page<Asset> page(AssetFilter filter, String cursor, Integer size, RequestOptions options) {
    ApiCall call =
        ApiCall.get("/assets")
            .param("type", filter.type())
            .param("platform", filter.platform())
            .param("owner", filter.owner())
            .param("q", filter.q())
            .param("placeholder", filter.placeholder())
            .param("dataset_namespace", filter.datasetNamespace())
            .param("dataset_name", filter.datasetName())
            .param("domain", filter.domain())
            .param("limit", size)
            .param("cursor", cursor)
            .options(options);
    filter.tags().forEach(tag -> call.param("tag", tag));
    return http.json(call, PAGE);
  }

  /**
   * Creates an asset (201). A placeholder made by lineage under that id is claimed. With a
   * {@link AssetInput#dataset() dataset}, a placeholder holding that dataset is merged in (its
   * id becomes one of {@link Asset#aliases()}).
   *
   * @throws dev.governance.client.exception.ConflictException if a real asset has the id
   *     ({@code already_exists}), or an asset created explicitly holds the dataset
   *     ({@code dataset_taken}, with {@link dev.governance.client.exception.ConflictException#holder()})
   * @throws dev.governance.client.exception.ValidationException naming each bad field
   */
  public Asset create(AssetInput asset) {
    return createWithResponse(asset, RequestOptions.DEFAULTS).value();
  }

  public Response<Asset> createWithResponse(AssetInput asset, RequestOptions options) {
    return http.call(ApiCall.post("/assets").json(asset).options(options), Asset.class);
  }

  /** @throws dev.governance.client.exception.NotFoundException if there is no such asset */
  public Asset get(String id) {
    return getWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  /** The asset with its {@code ETag} ({@link Response#etag()}). */
  public Response<Asset> getWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id)).options(options), Asset.class);
  }

  /**
   * Creates or replaces the asset with this id (idempotent upsert for sync jobs). The id in
   * {@code asset} may be null; if set it must equal {@code id}.
   */
  public Saved<Asset> put(String id, AssetInput asset) {
    return saved(putWithResponse(id, asset, RequestOptions.DEFAULTS));
  }

  /**
   * Replaces the asset only if its version is still {@code ifMatchVersion}.
   *
   * @throws dev.governance.client.exception.PreconditionFailedException if it changed meanwhile
   */
  public Saved<Asset> put(String id, AssetInput asset, long ifMatchVersion) {
    return saved(putWithResponse(id, asset, RequestOptions.ifMatch(ifMatchVersion)));
  }

  /**
   * The upsert's answer: {@link Response#created()} tells a 201 from a 200. A version in
   * {@link RequestOptions.Builder#ifMatch(long)} makes it conditional.
   */
  public Response<Asset> putWithResponse(String id, AssetInput asset, RequestOptions options) {
    return http.call(ApiCall.put(path(id)).json(asset).options(options), Asset.class);
  }

  private static Saved<Asset> saved(Response<Asset> answer) {
    return new Saved<>(answer.value(), answer.created());
  }

  /**
   * Applies a JSON Merge Patch (RFC 7396): keys set replace, keys mapped to {@code null} are
   * removed, nested objects merge. Use a {@code LinkedHashMap} or {@code HashMap} to send nulls.
   */
  public Asset patch(String id, Map<String, ?> mergePatch) {
    return patchWithResponse(id, mergePatch, RequestOptions.DEFAULTS).value();
  }

  /**
   * A merge patch applied only if the version is still {@code ifMatchVersion}.
   *
   * @throws dev.governance.client.exception.PreconditionFailedException if it changed meanwhile
   */
  public Asset patch(String id, Map<String, ?> mergePatch, long ifMatchVersion) {
    return patchWithResponse(id, mergePatch, RequestOptions.ifMatch(ifMatchVersion)).value();
  }

  public Response<Asset> patchWithResponse(
      String id, Map<String, ?> mergePatch, RequestOptions options) {
    return http.call(ApiCall.patch(path(id)).mergePatch(mergePatch).options(options), Asset.class);
  }

  /** Deletes the asset and its lineage edges. */
  public void delete(String id) {
    deleteWithResponse(id, RequestOptions.DEFAULTS);
  }

  /**
   * Deletes the asset only if its version is still {@code ifMatchVersion}.
   *
   * @throws dev.governance.client.exception.PreconditionFailedException if it changed meanwhile
   */
  public void delete(String id, long ifMatchVersion) {
    deleteWithResponse(id, RequestOptions.ifMatch(ifMatchVersion));
  }

  public Response<Void> deleteWithResponse(String id, RequestOptions options) {
    return http.callWithoutBody(ApiCall.delete(path(id)).options(options));
  }

  /**
   * The asset's versions, newest first, paged automatically: each says when, by whom and
   * what it changed (each field with its old and new value, columns added, removed or
   * retyped).
   */
  public PagedIterable<AssetVersion> history(String id) {
    return history(id, RequestOptions.DEFAULTS);
  }

  /** As {@link #history(String)}, each page sent with {@code options}. */
  public PagedIterable<AssetVersion> history(String id, RequestOptions options) {
    return PagedIterable.of(http, path(id) + "/history", options, VERSIONS);
  }

  /**
   * The asset's columns with the tags set on them and those they inherit along column lineage,
   * each with the column it came from and the path it took.
   *
   * @throws dev.governance.client.exception.NotFoundException if there is no such asset
   */
  public AssetColumns columns(String id) {
    return columnsWithResponse(id, RequestOptions.DEFAULTS).value();
  }

  public Response<AssetColumns> columnsWithResponse(String id, RequestOptions options) {
    return http.call(ApiCall.get(path(id) + "/columns").options(options), AssetColumns.class);
  }

  /** The rule of a column tag; a tag with no rule of its own answers the default one. */
  public ColumnTagRule columnTagRule(String tag) {
    return columnTagRuleWithResponse(tag, RequestOptions.DEFAULTS).value();
  }

  public Response<ColumnTagRule> columnTagRuleWithResponse(String tag, RequestOptions options) {
    return http.call(ApiCall.get(tagPath(tag)).options(options), ColumnTagRule.class);
  }

  /**
   * Sets the mapping kinds that stop a column tag; the service recomputes where the tag is
   * inherited in the same transaction. The same rule again changes nothing (idempotent).
   */
  public ColumnTagRule putColumnTagRule(String tag, ColumnTagRuleInput rule) {
    return putColumnTagRuleWithResponse(tag, rule, RequestOptions.DEFAULTS).value();
  }

  public Response<ColumnTagRule> putColumnTagRuleWithResponse(
      String tag, ColumnTagRuleInput rule, RequestOptions options) {
    return http.call(ApiCall.put(tagPath(tag)).json(rule).options(options), ColumnTagRule.class);
  }

  private static String tagPath(String tag) {
    return "/column-tags/" + Ids.segment("column tag", tag);
  }

  private static String path(String id) {
    return "/assets/" + Ids.segment("asset id", id);
  }
}
