/**
 * `/policies`: rules every governed asset must follow, and their violations.
 * List filters `kind` and `enabled`. `create({name, kind, selector?, params?,
 * severity?, description?, enabled?})` (201; the id `pol_...` is the service's):
 * an unknown kind, selector key or param is a ValidationError naming it
 * (`body.kind`, `body.params.tag`). Deleting a policy resolves its open
 * violations. Changes honour `ifMatch`.
 */

import { MutableCollection, walk } from './collection.js';

export class Policies extends MutableCollection {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    super(client, '/policies');
  }

  /**
   * `PUT /policies/{id}`: replaces the definition (fields left out take their
   * defaults); never creates. Honours `ifMatch`.
   */
  replace(id, policy, options = {}) {
    return this._client.request({ ...options, method: 'PUT', path: this._path(id), body: policy });
  }

  /**
   * One page of `GET /policies/{id}/violations` (`limit`, `cursor`):
   * `{policy_id, evaluated_at, violations, next_cursor}`, ordered by asset id.
   */
  listViolations(id, params = {}, options = {}) {
    return this._listBelow(id, 'violations', params, options);
  }

  /** Every open violation of the policy, page after page: `for await (const v of ...)`. */
  iterateViolations(id, params = {}, options = {}) {
    this._path(id); // an empty id fails now, not at the first iteration
    return walk(
      this._client,
      (query) => this.listViolations(id, query, options),
      params,
      (page) => ({ items: page.violations, next_cursor: page.next_cursor }),
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
