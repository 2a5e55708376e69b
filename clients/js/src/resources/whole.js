/**
 * A collection whose items have caller-chosen ids and that the service answers
 * whole, with no cursor (teams, domains): `PUT` to create or replace, one item,
 * every item in one answer, deletion.
 */

import { encodeSegment } from '../url.js';

export class Whole {
  /**
   * @param {import('../client.js').GovernanceClient} client
   * @param {string} base the collection's path, e.g. `/teams`
   */
  constructor(client, base) {
    this._client = client;
    this._base = base;
  }

  /** Every item, `{items}`, in one answer (no paging). */
  list(options = {}) {
    return this._client.request({ ...options, method: 'GET', path: this._base });
  }

  /** One item; NotFoundError if there is none. */
  get(id, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: this._path(id) });
  }

  /** `PUT` the item: 201 created, 200 replaced (`.withResponse()` tells which). */
  put(id, body = {}, options = {}) {
    return this._client.request({ ...options, method: 'PUT', path: this._path(id), body });
  }

  /** `DELETE` the item (204). */
  delete(id, options = {}) {
    return this._client.request({ ...options, method: 'DELETE', path: this._path(id) });
  }

  /** @protected The item's path, its id one percent-encoded segment. */
  _path(id) {
    return `${this._base}/${encodeSegment(id)}`;
  }
}
