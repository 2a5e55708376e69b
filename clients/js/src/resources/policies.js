/** `/policies` (CONTRACT §5): rules every governed asset must follow, and their violations. */

import { encodeSegment } from '../url.js';
import { MERGE_PATCH_JSON } from './assets.js';

export class Policies {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    this._client = client;
  }

  /** One page of `GET /policies`, filters `kind`, `enabled`, `limit`, `cursor`; ordered by id. */
  list(params = {}, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: '/policies', query: params });
  }

  /** Every policy matching the filters, page after page: `for await (const p of ...)`. */
  iterate(params = {}, options = {}) {
    const { cursor, ...filters } = params;
    return this._client.paginate((next) => this.list({ ...filters, cursor: next }, options), cursor);
  }

  /**
   * `POST /policies` (201): `{name, kind, selector?, params?, severity?, description?,
   * enabled?}`; the id (`pol_...`) is made by the service. An unknown kind, selector
   * key or param is a ValidationError naming it (`body.kind`, `body.params.tag`).
   */
  create(policy, options = {}) {
    return this._client.request({ ...options, method: 'POST', path: '/policies', body: policy });
  }

  /** `GET /policies/{id}`. NotFoundError if there is none. */
  get(id, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * `PUT /policies/{id}`: replaces the definition (fields left out take their
   * defaults); never creates. Honours `ifMatch`.
   */
  replace(id, policy, options = {}) {
    return this._client.request({ ...options, method: 'PUT', path: path(id), body: policy });
  }

  /** `PATCH /policies/{id}` with a JSON merge patch. Honours `ifMatch`. */
  patch(id, patch, options = {}) {
    return this._client.request({
      ...options,
      method: 'PATCH',
      path: path(id),
      body: patch,
      contentType: MERGE_PATCH_JSON,
    });
  }

  /** `DELETE /policies/{id}`: its open violations are announced as resolved. Honours `ifMatch`. */
  delete(id, options = {}) {
    return this._client.request({ ...options, method: 'DELETE', path: path(id) });
  }

  /**
   * One page of `GET /policies/{id}/violations` (`limit`, `cursor`):
   * `{policy_id, evaluated_at, violations, next_cursor}`, ordered by asset id.
   */
  listViolations(id, params = {}, options = {}) {
    return this._client.request({
      ...options,
      method: 'GET',
      path: `${path(id)}/violations`,
      query: params,
    });
  }

  /** Every open violation of the policy, page after page: `for await (const v of ...)`. */
  violations(id, params = {}, options = {}) {
    const { cursor, ...rest } = params;
    path(id); // an empty id fails now, not at the first iteration
    return this._client.paginate(
      (next) =>
        this.listViolations(id, { ...rest, cursor: next }, options).then((page) => ({
          items: page.violations,
          next_cursor: page.next_cursor,
        })),
      cursor,
    );
  }

  /**
   * `POST /policies/evaluate`: evaluates every enabled policy now (the service
   * also does it in the background after changes) and answers
   * `{evaluated_at, policies: [{policy_id, violations, opened, resolved}]}`.
   */
  evaluate(options = {}) {
    return this._client.request({ ...options, method: 'POST', path: '/policies/evaluate' });
  }
}

function path(id) {
  return `/policies/${encodeSegment(id)}`;
}
