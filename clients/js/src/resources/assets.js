/** `/assets` (CONTRACT §2). */

import { encodeSegment } from '../url.js';

export const MERGE_PATCH_JSON = 'application/merge-patch+json';

export class Assets {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    this._client = client;
  }

  /**
   * One page: `GET /assets` with filters `type`, `platform`, `tag` (a string or
   * an array; every tag must match), `owner`, `q`, `placeholder`, `limit`, `cursor`.
   */
  list(params = {}, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: '/assets', query: params });
  }

  /** Every asset matching the filters, page after page: `for await (const a of ...)`. */
  iterate(params = {}, options = {}) {
    const { cursor, ...filters } = params;
    return this._client.paginate((next) => this.list({ ...filters, cursor: next }, options), cursor);
  }

  /** `POST /assets` (201). ConflictError (409 `already_exists`) if a real asset has the id. */
  create(asset, options = {}) {
    return this._client.request({ ...options, method: 'POST', path: '/assets', body: asset });
  }

  /** `GET /assets/{id}`. NotFoundError (404 `asset_not_found`) if there is none. */
  get(id, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: path(id) });
  }

  /**
   * `PUT /assets/{id}`: create (201) or replace (200) it; `withResponse()` tells which.
   * With `ifMatch` (a version or an ETag) a mismatch is PreconditionFailedError (412).
   */
  put(id, asset, options = {}) {
    return this._client.request({ ...options, method: 'PUT', path: path(id), body: asset });
  }

  /**
   * `PATCH /assets/{id}` with a JSON merge patch (RFC 7396): keys set to `null`
   * are removed, objects merge, arrays are replaced. Honours `ifMatch`.
   */
  patch(id, patch, options = {}) {
    return this._client.request({
      ...options,
      method: 'PATCH',
      path: path(id),
      body: patch,
      contentType: MERGE_PATCH_JSON,
    });
  }

  /** `DELETE /assets/{id}` (its lineage edges go with it). Honours `ifMatch`. */
  delete(id, options = {}) {
    return this._client.request({ ...options, method: 'DELETE', path: path(id) });
  }
}

function path(id) {
  return `/assets/${encodeSegment(id)}`;
}
