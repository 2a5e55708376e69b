/** `/tokens` (CONTRACT §1, §9); every operation needs the admin scope. */

import { encodeSegment } from '../url.js';

export class Tokens {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    this._client = client;
  }

  /** One page of token metadata (`limit`, `cursor`); never the secrets. */
  list(params = {}, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: '/tokens', query: params });
  }

  /** Every token, page after page. */
  iterate(params = {}, options = {}) {
    const { cursor, ...rest } = params;
    return this._client.paginate((next) => this.list({ ...rest, cursor: next }, options), cursor);
  }

  /**
   * `POST /tokens` `{name, scopes, expires_in_days?}` (201): the answer's `token`
   * is the secret, shown this once.
   *
   * Unlike other POSTs this one gets no automatic Idempotency-Key, and so is not
   * retried: the service keeps the answer of a keyed request for 24 h, and this
   * answer holds the secret. Pass `idempotencyKey` to opt in.
   */
  create(token, options = {}) {
    return this._client.request({
      autoIdempotencyKey: false,
      ...options,
      method: 'POST',
      path: '/tokens',
      body: token,
    });
  }

  /** `GET /tokens/{id}`: its metadata. */
  get(id, options = {}) {
    return this._client.request({ ...options, method: 'GET', path: `/tokens/${encodeSegment(id)}` });
  }

  /** `DELETE /tokens/{id}`: revokes it, effective on the next request. */
  revoke(id, options = {}) {
    return this._client.request({
      ...options,
      method: 'DELETE',
      path: `/tokens/${encodeSegment(id)}`,
    });
  }
}
