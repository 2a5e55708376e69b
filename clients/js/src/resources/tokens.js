/** `/tokens` (admin scope): API tokens' metadata; the secret is shown once, at creation. */

import { Collection } from './collection.js';

export class Tokens extends Collection {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    super(client, '/tokens');
  }

  /**
   * `POST /tokens` `{name, scopes, expires_in_days?}` (201): the answer's `token`
   * is the secret, shown this once; `user_id` is the user the calling token
   * belongs to, if any.
   *
   * Never retried and sent without an Idempotency-Key: the service keeps no
   * answer holding a secret, so a repeat would make a second token.
   */
  create(token, options = {}) {
    return super.create(token, { ...options, replayable: false });
  }

  /** `DELETE /tokens/{id}`: revokes it, effective on the next request. */
  revoke(id, options = {}) {
    return this._client.request({ ...options, method: 'DELETE', path: this._path(id) });
  }
}
