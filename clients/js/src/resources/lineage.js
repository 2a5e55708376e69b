/**
 * `/lineage`: edges (with their column mappings) one by one or in bulk, dbt
 * manifests, OpenLineage run events, SQL, and traversals of assets and columns.
 * An edge's `source` and `target` are each an asset id (a former id too) or a
 * dataset `{namespace, name}`, which resolves to the asset holding it.
 */

import { APIPromise } from '../api-promise.js';
import { artifactBytes, gzipOnce } from '../artifacts.js';
import { MAX_BULK_EDGES, addAnswer, chunksOf } from '../chunks.js';
import { encodeSegment } from '../url.js';
import { walk } from './collection.js';
import { exportLineage } from './lineage-export.js';

export const MANIFEST_TIMEOUT_MS = 600_000;
/** A query log of 10,000 statements is parsed on the server: as long as an upload. */
export const SQL_TIMEOUT_MS = MANIFEST_TIMEOUT_MS;

export class Lineage {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    this._client = client;
  }

  /**
   * `POST /lineage`: creates the edge (201) or updates the existing one (200).
   * `source` and `target` are asset ids or datasets `{namespace, name}`. Unknown
   * ids, and datasets no asset holds, become placeholder assets (a dataset's is
   * `<namespace>/<name>`, normalised) unless `strict: true` (then ValidationError
   * `unknown_assets`).
   */
  create(edge, options = {}) {
    const { strict, ...rest } = options;
    return this._client.request({
      ...rest,
      method: 'POST',
      path: '/lineage',
      query: { strict },
      body: edge,
    });
  }

  /**
   * `POST /lineage/bulk`: 1-10,000 edges in one atomic request. For more, use
   * `pushBulk`. Answers `{received, created, existing, assets_created}`.
   * `origin` names the writer asserting the edges (default `api`); with
   * `replace: true` the request is that origin's whole edge set: the edges it
   * asserted before and not now are retired (`retired`), while an edge another
   * origin still asserts stays. The service merges edges, so a repeat writes
   * nothing new: it is retried with no Idempotency-Key unless `idempotencyKey`
   * gives one.
   */
  bulk(edges, options = {}) {
    const { strict, origin, replace, ...rest } = options;
    checkReplace(origin, replace);
    return this._client.request({
      ...rest,
      method: 'POST',
      path: '/lineage/bulk',
      query: { strict, origin, replace: replace ? true : undefined },
      body: edges,
      idempotent: true,
    });
  }

  /**
   * Any number of edges (an array, iterable or async iterable) sent in requests
   * of at most `chunkSize` (default 10,000, the server's limit), one after
   * another; the answers are summed and `requests` counts them. Each request is
   * atomic, the whole push is not: if one fails, the earlier ones stay written.
   * Pushing again is safe, as bulk writes are idempotent. `origin` goes with
   * every request; a replacement (`replace: true`) is one request, so more edges
   * than one chunk are refused (RangeError) before anything is sent.
   */
  async pushBulk(edges, options = {}) {
    const zero = { received: 0, created: 0, existing: 0, assets_created: 0 };
    if (!options.replace) {
      return this._push(edges, options, zero, (chunk, rest) => this.bulk(chunk, rest));
    }
    checkReplace(options.origin, options.replace);
    const only = await oneChunk(edges, options.chunkSize ?? MAX_BULK_EDGES);
    // One "chunk" holding the whole set: sent even when empty (the origin now asserts nothing).
    return this._push([only], { ...options, chunkSize: 1 }, zero, ([set], rest) => this.bulk(set, rest));
  }

  /**
   * `POST /lineage/openlineage`: one OpenLineage RunEvent, or an array of up to
   * 10,000, written in one transaction. COMPLETE events give edges (origin
   * `openlineage:<job namespace>/<job name>`) and column mappings from the
   * `columnLineage` facet; every event records its run's state. For more events,
   * use `pushOpenLineage`. Events that arrive twice converge, so it is retried,
   * with no Idempotency-Key unless `idempotencyKey` gives one.
   */
  openLineage(events, options = {}) {
    return this._client.request({
      ...options,
      method: 'POST',
      path: '/lineage/openlineage',
      body: events,
      idempotent: true,
    });
  }

  /**
   * Any number of RunEvents (an array, iterable or async iterable) sent in
   * requests of at most `chunkSize` (default 10,000, the server's limit); the
   * answers are summed (`runs` counts per request) and `requests` counts them.
   */
  pushOpenLineage(events, options = {}) {
    const zero = {
      received: 0,
      complete: 0,
      runs: 0,
      edges: { created: 0, existing: 0 },
      column_mappings: { created: 0, existing: 0 },
      assets: { created: 0, updated: 0 },
      warnings: [],
    };
    return this._push(events, options, zero, (chunk, rest) => this.openLineage(chunk, rest));
  }

  /** @private Sends `items` chunk by chunk through `send`, summing the answers. */
  async _push(items, options, zero, send) {
    const { chunkSize = MAX_BULK_EDGES, onChunk, ...rest } = options;
    if (rest.idempotencyKey !== undefined) {
      throw new TypeError('a push sends several requests: give an idempotencyKey to each single request instead');
    }
    const total = { ...zero, requests: 0 };
    for await (const chunk of chunksOf(items, chunkSize)) {
      const result = await send(chunk, rest);
      addAnswer(total, result);
      total.requests += 1;
      if (onChunk) await onChunk(result, total.requests - 1);
    }
    return total;
  }

  /**
   * `POST /lineage/manifest`: a dbt `manifest.json` (a file path, or its bytes)
   * becomes assets, edges and quality rules of `project`. Gzipped on the way
   * unless it already is; `prune` (default true) removes what this project's
   * earlier uploads asserted and this one does not; `namespace` (e.g.
   * `snowflake://acme-prod`) is where the project's tables live, so each model,
   * seed, snapshot and source holds its dataset `(namespace, db.schema.table)`.
   * Idempotent, so retried like other POSTs. The timeout defaults to 600 s.
   */
  uploadManifest(pathOrBytes, options = {}) {
    const { project, prune = true, namespace, ...rest } = options;
    const sent = artifactBytes(pathOrBytes, 'uploadManifest').then((bytes) =>
      this._client
        .request({
          timeoutMs: MANIFEST_TIMEOUT_MS,
          ...rest,
          method: 'POST',
          path: '/lineage/manifest',
          query: { project, prune, namespace },
          body: gzipOnce(bytes),
          contentType: 'application/json',
          headers: { ...(rest.headers ?? {}), 'content-encoding': 'gzip' },
        })
        .withResponse(),
    );
    return new APIPromise(sent);
  }

  /**
   * `POST /impact/manifest`: what uploading a candidate dbt `manifest.json` (a
   * file path, or its bytes; `project` and `namespace` as for `uploadManifest`;
   * `depth`: hops walked downstream) would change and break, writing nothing:
   * `{project, changes: [{kind, asset, column, from, to, breaking}], impacted:
   * [{asset, column, distance, owners, via}], breaking, depth}`. A project never
   * uploaded is NotFoundError `unknown_project`. Gzipped on the way unless it
   * already is; retried like a read (no Idempotency-Key). The timeout defaults to 600 s.
   */
  checkManifest(pathOrBytes, options = {}) {
    const { project, namespace, depth, ...rest } = options;
    const sent = artifactBytes(pathOrBytes, 'checkManifest').then((bytes) =>
      this._client
        .request({
          timeoutMs: MANIFEST_TIMEOUT_MS,
          ...rest,
          method: 'POST',
          path: '/impact/manifest',
          query: { project, namespace, depth },
          body: gzipOnce(bytes),
          contentType: 'application/json',
          headers: { ...(rest.headers ?? {}), 'content-encoding': 'gzip' },
          idempotent: true,
        })
        .withResponse(),
    );
    return new APIPromise(sent);
  }

  /**
   * `POST /lineage/sql`: SQL parsed in `dialect` becomes table and column lineage
   * between the assets holding its tables (datasets `(namespace, db.schema.table)`,
   * completed with `default_database` and `default_schema`; placeholders for
   * tables no asset holds). Give `sql` (one statement or a `;`-separated script)
   * or `statements` (a query log of 1-10,000: each `{sql, query_id?, user?,
   * timestamp?}`, or just the SQL text). Edges get origin `sql:<source>` (default
   * `api`). A statement that does not parse is listed in `failures` by index and
   * writes nothing; the others are written in one transaction. Retried like other
   * POSTs; the timeout defaults to 600 s.
   */
  ingestSql(body, options = {}) {
    const sent =
      body && Array.isArray(body.statements)
        ? { ...body, statements: body.statements.map((s) => (typeof s === 'string' ? { sql: s } : s)) }
        : body;
    return this._client.request({
      timeoutMs: SQL_TIMEOUT_MS,
      ...options,
      method: 'POST',
      path: '/lineage/sql',
      body: sent,
    });
  }

  /**
   * A query log of any length (`statements`: an array, iterable or async iterable
   * of `{sql, query_id?, ...}` or SQL text) sent through `ingestSql` in requests of
   * at most `chunkSize` statements (default 10,000, the server's limit), one after
   * another; the answers are summed, each failure's `index` counted from the
   * log's start, and `requests` counts them. Each request is atomic, the whole
   * push is not: pushing again is safe, as the same statements give the same edges.
   */
  async pushSql(body, options = {}) {
    const { statements, ...fields } = body ?? {};
    if (statements === null || typeof statements !== 'object' || typeof statements === 'string') {
      throw new TypeError('pushSql takes a query log as `statements` (for a script, use ingestSql)');
    }
    const zero = {
      origin: `sql:${fields.source ?? 'api'}`,
      statements: { received: 0, with_lineage: 0, without_lineage: 0, failed: 0 },
      edges: { created: 0, existing: 0 },
      column_mappings: { created: 0, existing: 0 },
      assets_created: 0,
      failures: [],
      warnings: [],
    };
    let offset = 0;
    return this._push(statements, options, zero, async (chunk, rest) => {
      const result = await this.ingestSql({ ...fields, statements: chunk }, rest);
      const shifted = offsetFailures(result, offset);
      offset += chunk.length;
      return shifted;
    });
  }

  /** One page of `GET /lineage/edges`, filters `source`, `target`, `origin`, `limit`, `cursor`. */
  listEdges(params = {}, options = {}) {
    return this._client.request({
      ...options,
      method: 'GET',
      path: '/lineage/edges',
      query: params,
    });
  }

  /** Every edge matching the filters, page after page. */
  iterateEdges(params = {}, options = {}) {
    return walk(this._client, (query) => this.listEdges(query, options), params);
  }

  /** `DELETE /lineage/edges?source=&target=`. NotFoundError (`edge_not_found`) if absent. */
  deleteEdge(source, target, options = {}) {
    return this._client.request({
      ...options,
      method: 'DELETE',
      path: '/lineage/edges',
      query: { source: required('source', source), target: required('target', target) },
    });
  }

  /**
   * `GET /lineage/{id}`: the graph around an asset; `direction` both (default),
   * upstream or downstream. Every traversal takes `as_of` (a `Date`, or an RFC
   * 3339 string): the graph as it stood then (NotFoundError if the asset did not
   * exist then). A traversal of an asset answers one page of at most `limit`
   * nodes, and `next_cursor` (null on the last page) to pass back as `cursor`
   * with the same other params; `type`, `platform`, `tag` and `owner` (a
   * string or an array: any value of one, every one given) show only the
   * assets that match, the walk going through the others (`hidden` counts
   * them); `fanout` shows at most that many neighbours of any one node
   * (`capped` lists those that had more).
   */
  get(id, params = {}, options = {}) {
    return this._traverse(`/lineage/${encodeSegment(id)}`, params, options);
  }

  /**
   * Every page of a traversal (`get`'s params; `limit` is the page size), from
   * `cursor` on: `next_cursor` is sent back with the same other params until
   * it is null, so every node comes in exactly one page, the root in the
   * first. Nothing is sent before the first `next()`; stopping the loop stops
   * the requests.
   */
  async *lineagePages(id, params = {}, options = {}) {
    let cursor = params.cursor ?? undefined;
    const path = `/lineage/${encodeSegment(id)}`;
    for (;;) {
      const page = await this._traverse(path, cursor === undefined ? params : { ...params, cursor }, options);
      yield page;
      const next = page.next_cursor ?? undefined;
      if (next === undefined || next === cursor) return;
      cursor = next;
    }
  }

  /** `GET /lineage/{id}/upstream`: what flows into the asset, `depth` hops back (default 5). */
  upstream(id, params = {}, options = {}) {
    return this._traverse(`/lineage/${encodeSegment(id)}/upstream`, params, options);
  }

  /** `GET /lineage/{id}/downstream`: what the asset flows into. */
  downstream(id, params = {}, options = {}) {
    return this._traverse(`/lineage/${encodeSegment(id)}/downstream`, params, options);
  }

  /**
   * `GET /lineage/{id}/diff`: how the lineage around an asset changed from
   * `from` to `to` (each a `Date` or an RFC 3339 string; `to` defaults to now),
   * over both neighbourhoods (`direction`, `depth`, `limit` as for a traversal):
   * `{root, direction, depth, from, to, added: {nodes, edges}, removed: {nodes,
   * edges}, changed: {edges}, truncated}`, `changed` holding the edges in both
   * whose transformation changed (with `previous_transformation`).
   */
  diff(id, params, options = {}) {
    if (params?.from === undefined || params.from === null) {
      throw new TypeError('diff needs `from`: the moment it compares with');
    }
    return this._traverse(`/lineage/${encodeSegment(id)}/diff`, params, options);
  }

  /**
   * `GET /lineage/{id}/export`: the traversal of `get` (same `direction`,
   * `depth`, `as_of`; `limit` up to the service's export maximum, also the
   * default) written as a file in `format`: `openlineage` (a JSON array of
   * RunEvents that `openLineage` takes back), `dot`, `mermaid` or `csv`.
   * Resolves to `{text, filename, truncated}`: the file's text, the name the
   * service gives it, and whether the neighbourhood was cut at `limit`.
   */
  export(id, params, options = {}) {
    return exportLineage(this._client, id, params, options);
  }

  /**
   * `GET /lineage/{id}/columns/{column}/upstream`: the columns that feed this
   * column, each once at its fewest hops (`depth`, default 5), and the column
   * mappings among them. NotFoundError `column_not_found` for a column the asset
   * neither declares nor has lineage for.
   */
  columnUpstream(id, column, params = {}, options = {}) {
    return this._traverse(columnPath(id, column, 'upstream'), columnParams(params), options);
  }

  /** `GET /lineage/{id}/columns/{column}/downstream`: the columns this column feeds. */
  columnDownstream(id, column, params = {}, options = {}) {
    return this._traverse(columnPath(id, column, 'downstream'), columnParams(params), options);
  }

  /** @private */
  _traverse(path, params, options) {
    return this._client.request({ ...options, method: 'GET', path, query: params });
  }
}

/** A chunk's answer with each failure's `index` counted from the whole log's start. */
function offsetFailures(result, offset) {
  if (!offset || !Array.isArray(result?.failures) || result.failures.length === 0) return result;
  return { ...result, failures: result.failures.map((f) => ({ ...f, index: f.index + offset })) };
}

/** All the edges of a replacement, refused when they do not fit in one request. */
async function oneChunk(edges, chunkSize) {
  let only = [];
  for await (const chunk of chunksOf(edges, chunkSize)) {
    if (only.length > 0) {
      throw new RangeError(`a replacement is one request: at most ${chunkSize} edges (chunkSize)`);
    }
    only = chunk;
  }
  return only;
}

/** A replacement needs the origin whose edge set it replaces. */
function checkReplace(origin, replace) {
  if (replace && (typeof origin !== 'string' || origin === '')) {
    throw new TypeError("replace needs an origin: the edge set it replaces is that origin's");
  }
}

/** What only traversals of assets take: column traversals neither page nor filter. */
const ASSET_ONLY = ['cursor', 'type', 'platform', 'tag', 'owner', 'fanout'];

/** A column traversal's params, refusing a page cursor, filters or fanout rather than dropping them. */
function columnParams(params) {
  const given = ASSET_ONLY.filter((name) => params?.[name] !== undefined && params[name] !== null);
  if (given.length > 0) {
    throw new TypeError(`column traversals take no ${given.join(', ')}: only depth, limit and as_of`);
  }
  return params;
}

function columnPath(id, column, direction) {
  return `/lineage/${encodeSegment(id)}/columns/${encodeSegment(column)}/${direction}`;
}

function required(name, value) {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${name} must be a non-empty string`);
  }
  return value;
}
