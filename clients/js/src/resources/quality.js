/** `/quality` (CONTRACT §6): quality rules, their results, and dbt test runs. */

import { APIPromise } from '../api-promise.js';
import { artifactBytes, gzipOnce } from '../artifacts.js';
import { encodeSegment } from '../url.js';
import { MERGE_PATCH_JSON } from './assets.js';

/** How long `uploadDbtResults` waits by default: a large run records many results. */
export const DBT_RESULTS_TIMEOUT_MS = 600_000;

export class Quality {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    this._client = client;
  }

  /** One page of `GET /quality/rules`, filters `asset_id`, `status`, `type`, `limit`, `cursor`. */
  list(params = {}, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: '/quality/rules', query: params });
  }

  /** Every rule matching the filters, page after page. */
  iterate(params = {}, options = {}) {
    const { cursor, ...filters } = params;
    return this._client.paginate((next) => this.list({ ...filters, cursor: next }, options), cursor);
  }

  /**
   * `POST /quality/rules` (201): `{asset_id, name, type, column?, params?, severity?,
   * enabled?}` on an existing asset; the id (`qr_...`) is made by the service.
   */
  create(rule, options = {}) {
    return this._client.request({ ...options, method: 'POST', path: '/quality/rules', body: rule });
  }

  /** `GET /quality/rules/{id}`: the rule with its `status` and `last_result`. */
  get(id, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: path(id) });
  }

  /** `PUT /quality/rules/{id}`: replaces the definition; never creates. Honours `ifMatch`. */
  replace(id, rule, options = {}) {
    return this._client.request({ ...options, method: 'PUT', path: path(id), body: rule });
  }

  /** `PATCH /quality/rules/{id}` with a JSON merge patch of definition fields. Honours `ifMatch`. */
  patch(id, patch, options = {}) {
    return this._client.request({
      ...options,
      method: 'PATCH',
      path: path(id),
      body: patch,
      contentType: MERGE_PATCH_JSON,
    });
  }

  /** `DELETE /quality/rules/{id}`, its results with it. Honours `ifMatch`. */
  delete(id, options = {}) {
    return this._client.request({ ...options, method: 'DELETE', path: path(id) });
  }

  /**
   * `POST /quality/rules/{id}/results` (201): `{status: 'pass'|'fail'|'error',
   * observed_value?, message?, run_at?}`, or just the status. `run_at` may be a
   * Date; it defaults to now. The rule's status follows its newest result by `run_at`.
   */
  recordResult(ruleId, result, options = {}) {
    const body = typeof result === 'string' ? { status: result } : { ...result };
    if (body.run_at instanceof Date) body.run_at = body.run_at.toISOString();
    return this._client.request({
      ...options,
      method: 'POST',
      path: `${path(ruleId)}/results`,
      body,
    });
  }

  /** One page of `GET /quality/rules/{id}/results`, newest first (`limit`, `cursor`). */
  listResults(ruleId, params = {}, options = {}) {
    return this._client.request({
      ...options,
      method: 'GET',
      path: `${path(ruleId)}/results`,
      query: params,
    });
  }

  /** The rule's kept history, newest first, page after page. */
  results(ruleId, params = {}, options = {}) {
    const { cursor, ...rest } = params;
    path(ruleId);
    return this._client.paginate(
      (next) => this.listResults(ruleId, { ...rest, cursor: next }, options),
      cursor,
    );
  }

  /**
   * `POST /quality/results/dbt`: a dbt `run_results.json` (a file path, its bytes,
   * or the parsed object), gzipped on the way, recorded against the rules the
   * manifest upload made. The service records an invocation once, so it is
   * retried like other POSTs. The timeout defaults to 600 s.
   */
  uploadDbtResults(source, options = {}) {
    const sent = artifactBytes(source, 'uploadDbtResults', { document: true }).then((bytes) =>
      this._client
        .request({
          timeoutMs: DBT_RESULTS_TIMEOUT_MS,
          ...options,
          method: 'POST',
          path: '/quality/results/dbt',
          body: gzipOnce(bytes),
          contentType: 'application/json',
          headers: { ...(options.headers ?? {}), 'content-encoding': 'gzip' },
        })
        .withResponse(),
    );
    return new APIPromise(sent);
  }
}

function path(id) {
  return `/quality/rules/${encodeSegment(id)}`;
}
