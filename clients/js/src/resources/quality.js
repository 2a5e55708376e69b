/** `/quality`: quality rules, their results, and dbt test runs. */

import { APIPromise } from '../api-promise.js';
import { artifactBytes, gzipOnce } from '../artifacts.js';
import { MutableCollection, walk } from './collection.js';

/** How long `uploadDbtResults` waits by default: a large run records many results. */
export const DBT_RESULTS_TIMEOUT_MS = 600_000;

/**
 * Rules (`/quality/rules`): list filters `asset_id`, `status`, `type`;
 * `create({asset_id, name, type, column?, params?, severity?, enabled?})` on an
 * existing asset (201; the id `qr_...` is the service's); `get` gives the rule
 * with its `status` and `last_result`; deleting a rule deletes its results.
 * Changes honour `ifMatch`.
 */
export class Quality extends MutableCollection {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    super(client, '/quality/rules');
  }

  /** `PUT /quality/rules/{id}`: replaces the definition; never creates. Honours `ifMatch`. */
  replace(id, rule, options = {}) {
    return this._client.request({ ...options, method: 'PUT', path: this._path(id), body: rule });
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
      path: `${this._path(ruleId)}/results`,
      body,
    });
  }

  /** One page of `GET /quality/rules/{id}/results`, newest first (`limit`, `cursor`). */
  listResults(ruleId, params = {}, options = {}) {
    return this._listBelow(ruleId, 'results', params, options);
  }

  /** The rule's kept history, newest first, page after page. */
  iterateResults(ruleId, params = {}, options = {}) {
    this._path(ruleId); // an empty id fails now, not at the first iteration
    return walk(this._client, (query) => this.listResults(ruleId, query, options), params);
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
