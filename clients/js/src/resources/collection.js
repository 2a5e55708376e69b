/**
 * What every collection of the API shares, written once: one page of the
 * list (`limit`, `cursor`, filters), every item page after page, one item by
 * id, creation; and for collections whose items change, a JSON merge patch and
 * deletion. Resources add their own operations on top.
 */

import { encodeSegment } from '../url.js';

export const MERGE_PATCH_JSON = 'application/merge-patch+json';

/**
 * Every item of a paged list, following `next_cursor`: `page(params)` fetches
 * one page; `pick` turns an answer into `{items, next_cursor}` when the list
 * is not called `items`.
 */
export function walk(client, page, params, pick = (answer) => answer) {
  const { cursor, ...rest } = params;
  return client.paginate((next) => page({ ...rest, cursor: next }).then(pick), cursor);
}

export class Collection {
  /**
   * @param {import('../client.js').GovernanceClient} client
   * @param {string} base the collection's path, e.g. `/assets`
   */
  constructor(client, base) {
    this._client = client;
    this._base = base;
  }

  /** One page, `{items, next_cursor}`, ordered by id; `limit` (1-500), `cursor` and the filters. */
  list(params = {}, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: this._base, query: params });
  }

  /** Every item matching the filters, page after page: `for await (const x of ...)`. */
  iterate(params = {}, options = {}) {
    return walk(this._client, (query) => this.list(query, options), params);
  }

  /** `POST` to the collection (201); the service makes the id where the body has none. */
  create(body, options = {}) {
    return this._client.request({ ...options, method: 'POST', path: this._base, body });
  }

  /** One item; NotFoundError if there is none. */
  get(id, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: this._path(id) });
  }

  /** @protected The item's path, its id one percent-encoded segment. */
  _path(id) {
    return `${this._base}/${encodeSegment(id)}`;
  }

  /** @protected One page of a list below an item, e.g. `/policies/{id}/violations`. */
  _listBelow(id, below, params, options) {
    return this._client.request({
      ...options,
      method: 'GET',
      path: `${this._path(id)}/${below}`,
      query: params,
    });
  }
}

export class MutableCollection extends Collection {
  /**
   * `PATCH` with a JSON merge patch (RFC 7396): keys set to `null` are removed,
   * objects merge, arrays are replaced. Honours `ifMatch` where items have versions.
   */
  patch(id, patch, options = {}) {
    return this._client.request({
      ...options,
      method: 'PATCH',
      path: this._path(id),
      body: patch,
      contentType: MERGE_PATCH_JSON,
    });
  }

  /** `DELETE` the item. Honours `ifMatch` where items have versions. */
  delete(id, options = {}) {
    return this._client.request({ ...options, method: 'DELETE', path: this._path(id) });
  }
}
