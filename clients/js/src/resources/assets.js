/**
 * `/assets`: list filters `type`, `platform`, `tag` (a string or an array;
 * every tag must match), `owner`, `q` (substring of id, name or description),
 * `placeholder`, `dataset_namespace` (the assets of a namespace) and with it
 * `dataset_name` (the one asset holding that dataset, if any). The client
 * chooses each asset's id; a second `create` with the same id is a
 * ConflictError (409 `already_exists`). Changes honour `ifMatch`.
 *
 * An asset may hold a physical `dataset` `{namespace, name}`, at most one asset
 * per dataset, stored as each platform spells it. Taking a dataset a placeholder
 * holds merges the placeholder in (its id joins `aliases`, and any former id
 * still finds the asset); one another asset holds is a ConflictError
 * `dataset_taken`, whose `problem.holder` names that asset.
 */

import { MERGE_PATCH_JSON, MutableCollection, walk } from './collection.js';

export { MERGE_PATCH_JSON };

export class Assets extends MutableCollection {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    super(client, '/assets');
  }

  /**
   * `PUT /assets/{id}`: create (201) or replace (200) it; `withResponse()` tells which.
   * With `ifMatch` (a version or an ETag) a mismatch is PreconditionFailedError (412).
   */
  put(id, asset, options = {}) {
    return this._client.request({ ...options, method: 'PUT', path: this._path(id), body: asset });
  }

  /**
   * One page of `GET /assets/{id}/history` (`limit`, `cursor`): the asset's
   * versions, newest first, each `{version, at, actor, changes}`; `changes` names
   * each field with its old and new value, columns added, removed or retyped included.
   */
  listHistory(id, params = {}, options = {}) {
    return this._listBelow(id, 'history', params, options);
  }

  /** Every version of the asset, newest first, page after page. */
  iterateHistory(id, params = {}, options = {}) {
    this._path(id); // an empty id fails now, not at the first iteration
    return walk(this._client, (query) => this.listHistory(id, query, options), params);
  }
}
