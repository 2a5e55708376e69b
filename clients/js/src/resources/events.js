/** `/events`: the change log, oldest first, by sequence number. */

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
    const { cursor, ...filters } = params;
    return this._client.paginate(
      (next) => this.list(next === undefined ? filters : { ...filters, cursor: next }, options),
      cursor,
    );
  }
}

function joinTypes(types) {
  if (types === undefined || types === null) return undefined;
  const list = typeof types === 'string' ? [types] : [...types];
  return list.length ? list.join(',') : undefined;
}
