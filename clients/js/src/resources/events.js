/** `/events`: the change log, oldest first, by sequence number, and its live stream. */

import { eventStream, joinTypes } from '../event-stream.js';
import { walk } from './collection.js';

export class Events {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    this._client = client;
  }

  /**
   * One page of `GET /events`: events after the sequence number `after`
   * (default 0), filtered by `types` (patterns such as `asset.*`), `limit`, `cursor`.
   */
  list(params = {}, options = {}) {
    const { types, ...rest } = params;
    return this._client.request({
      ...options,
      method: 'GET',
      path: '/events',
      query: { ...rest, types: joinTypes(types) },
    });
  }

  /** Every event after `after` matching `types`, page after page. */
  iterate(params = {}, options = {}) {
    return walk(this._client, (query) => this.list(query, options), params);
  }

  /**
   * `GET /events/stream`: live events as they happen, `for await (const e of ...)`.
   * With `after` (a sequence number) it starts with the events after it, else
   * with the next change. A dropped connection is resumed with `Last-Event-ID`,
   * so no event is missed or repeated; `maxRetries` bounds the failed attempts
   * in a row. `signal` ends it (rejecting with the signal's reason); so does
   * leaving the loop. `timeoutMs` is also the longest silence accepted (the
   * service sends a heartbeat every 15 s) before the connection counts as dropped.
   */
  stream(params = {}, options = {}) {
    const { after } = params;
    if (after !== undefined && after !== null && !(Number.isInteger(after) && after >= 0)) {
      throw new RangeError(`after must be a sequence number (an integer >= 0), got ${after}`);
    }
    return eventStream(this._client, params, options);
  }
}
