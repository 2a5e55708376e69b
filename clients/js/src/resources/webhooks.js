/**
 * `/webhooks` (admin scope): endpoints that receive every matching event as a
 * signed POST, their test deliveries and delivery logs. `patch` is a merge
 * patch of `url`, `types`, `enabled`, `description` (enabling a disabled
 * webhook clears its failure state); `delete` drops its pending deliveries.
 */

import { verifyWebhook } from '../webhooks.js';
import { MutableCollection, walk } from './collection.js';

export class Webhooks extends MutableCollection {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    super(client, '/webhooks');
  }

  /**
   * `POST /webhooks` `{url, types?, enabled?, description?}` (201): the answer's
   * `secret` (`whsec_...`) signs every delivery and is shown this once. The URL
   * must be https to a public address unless the service allows private targets.
   *
   * Never retried and sent without an Idempotency-Key: the service keeps no
   * answer holding a secret, so a repeat would make a second webhook.
   */
  create(webhook, options = {}) {
    return super.create(webhook, { ...options, replayable: false });
  }

  /**
   * `POST /webhooks/{id}/test`: sends a signed `webhook.test` event now and
   * answers `{delivered, status, error, duration_ms}` (never the receiver's body).
   */
  test(id, options = {}) {
    return this._client.request({ ...options, method: 'POST', path: `${this._path(id)}/test` });
  }

  /** One page of the webhook's delivery log (`limit`, `cursor`). */
  listDeliveries(id, params = {}, options = {}) {
    return this._listBelow(id, 'deliveries', params, options);
  }

  /** Every delivery of the webhook, page after page. */
  iterateDeliveries(id, params = {}, options = {}) {
    this._path(id); // an empty id fails now, not at the first iteration
    return walk(this._client, (query) => this.listDeliveries(id, query, options), params);
  }

  /**
   * Checks a delivery received by your endpoint and returns its event: the same
   * as the `verifyWebhook` function (Standard Webhooks signatures).
   */
  verify(secret, headers, body, options) {
    return verifyWebhook(secret, headers, body, options);
  }
}
