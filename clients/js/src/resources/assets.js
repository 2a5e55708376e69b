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

import { encodeSegment } from '../url.js';
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

  /**
   * `GET /assets/{id}/columns`: the asset's columns, each with its own `tags` and
   * those it `inherited` along column lineage, each `{tag, from: {asset, column},
   * path: [{asset, column, kind}]}` (docs/column-classification.md). NotFoundError
   * for an unknown asset.
   */
  columns(id, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: `${this._path(id)}/columns` });
  }

  /**
   * `GET /column-tags/{tag}`: which mapping kinds stop the tag downstream,
   * `{tag, stops, default, updated_at}`; a tag with no rule of its own answers
   * the default one (`default: true`).
   */
  getColumnTagRule(tag, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: columnTagPath(tag) });
  }

  /**
   * `PUT /column-tags/{tag}` with `{stops}` (`[]`: nothing stops it): sets the
   * tag's rule and recomputes where it is inherited. Idempotent.
   */
  putColumnTagRule(tag, rule, options = {}) {
    return this._client.request({ ...options, method: 'PUT', path: columnTagPath(tag), body: { stops: rule.stops } });
  }
}

function columnTagPath(tag) {
  return `/column-tags/${encodeSegment(tag)}`;
}
