/**
 * `/query`: the JSON query language over the lineage graph, and
 * read-only Cypher for administrators. Both only read, so both are retried like
 * a GET, with no Idempotency-Key (the service would keep a keyed answer for replay).
 */

const PAGED_PARTS = new Set(['nodes', 'edges', 'paths']);

export class Query {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    this._client = client;
  }

  /**
   * `POST /query`: one answer, the requested part (`nodes`, `edges`, `paths`,
   * `count`) and `next_cursor`. A malformed query is a ValidationError whose
   * `errors[0].loc` names the field.
   */
  run(body, options = {}) {
    return this._client.request({ ...options, method: 'POST', path: '/query', body, readOnly: true });
  }

  /**
   * Every page of the answer: sends `body` again with each `next_cursor` until
   * there is none. `limit` in the body is the page size.
   */
  async *pages(body, options = {}) {
    let cursor = body.cursor ?? undefined;
    do {
      const page = await this.run(cursor === undefined ? body : { ...body, cursor }, options);
      yield page;
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }

  /**
   * Every item across the pages: the nodes, edges or paths the body returns
   * (`graph` holds two lists and `count` one number: use `pages`).
   */
  iterate(body, options = {}) {
    const part = body.return ?? (body.path ? 'paths' : 'nodes');
    if (!PAGED_PARTS.has(part)) {
      throw new TypeError(
        `return "${part}" has no single list of items: use query.pages() ` +
          '(a graph page holds nodes and edges; a count is one answer)',
      );
    }
    return items(this.pages(body, options), part);
  }

  /**
   * `POST /query/cypher` (admin scope): read-only Cypher with `parameters` and at
   * most `limit` rows; answers `{columns, rows, truncated}`. A write is a
   * ValidationError (`forbidden_query`) and nothing runs.
   */
  cypher(query, params = {}, options = {}) {
    if (typeof query !== 'string' || query === '') {
      throw new TypeError('query must be a non-empty string of Cypher');
    }
    const { parameters, limit } = params;
    return this._client.request({
      ...options,
      method: 'POST',
      path: '/query/cypher',
      body: { query, parameters, limit },
      readOnly: true,
    });
  }
}

async function* items(pages, part) {
  for await (const page of pages) yield* page[part] ?? [];
}
