/** `/lineage` (CONTRACT §3): edges one by one or in bulk, and traversals. */

import { APIPromise } from '../api-promise.js';
import { artifactBytes, gzipOnce } from '../artifacts.js';
import { MAX_BULK_EDGES, chunksOf } from '../chunks.js';
import { encodeSegment } from '../url.js';

export const MANIFEST_TIMEOUT_MS = 600_000;

export class Lineage {
  /** @param {import('../client.js').GovernanceClient} client */
  constructor(client) {
    this._client = client;
  }

  /**
   * `POST /lineage`: creates the edge (201) or updates the existing one (200).
   * Unknown endpoints become placeholder assets unless `strict: true`
   * (then ValidationError `unknown_assets`).
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
   */
  bulk(edges, options = {}) {
    const { strict, ...rest } = options;
    return this._client.request({
      ...rest,
      method: 'POST',
      path: '/lineage/bulk',
      query: { strict },
      body: edges,
    });
  }

  /**
   * Any number of edges (an array, iterable or async iterable) sent in requests
   * of at most `chunkSize` (default 10,000, the server's limit), one after
   * another; the answers are summed and `requests` counts them. Each request is
   * atomic, the whole push is not: if one fails, the earlier ones stay written.
   * Pushing again is safe, as bulk writes are idempotent.
   */
  async pushBulk(edges, options = {}) {
    const { chunkSize = MAX_BULK_EDGES, onChunk, ...rest } = options;
    if (rest.idempotencyKey !== undefined) {
      throw new TypeError('pushBulk sends several requests and gives each its own Idempotency-Key');
    }
    const total = { received: 0, created: 0, existing: 0, assets_created: 0, requests: 0 };
    for await (const chunk of chunksOf(edges, chunkSize)) {
      const result = await this.bulk(chunk, rest);
      for (const key of ['received', 'created', 'existing', 'assets_created']) {
        total[key] += result[key] ?? 0;
      }
      total.requests += 1;
      if (onChunk) await onChunk(result, total.requests - 1);
    }
    return total;
  }

  /**
   * `POST /lineage/manifest`: a dbt `manifest.json` (a file path, or its bytes)
   * becomes assets, edges and quality rules of `project`. Gzipped on the way
   * unless it already is; `prune` (default true) removes what this project's
   * earlier uploads asserted and this one does not. Idempotent, so retried like
   * other POSTs. The timeout defaults to 600 s.
   */
  uploadManifest(pathOrBytes, options = {}) {
    const { project, prune = true, ...rest } = options;
    const sent = artifactBytes(pathOrBytes, 'uploadManifest').then((bytes) =>
      this._client
        .request({
          timeoutMs: MANIFEST_TIMEOUT_MS,
          ...rest,
          method: 'POST',
          path: '/lineage/manifest',
          query: { project, prune },
          body: gzipOnce(bytes),
          contentType: 'application/json',
          headers: { ...(rest.headers ?? {}), 'content-encoding': 'gzip' },
        })
        .withResponse(),
    );
    return new APIPromise(sent);
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
    const { cursor, ...filters } = params;
    return this._client.paginate(
      (next) => this.listEdges({ ...filters, cursor: next }, options),
      cursor,
    );
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

  /** `GET /lineage/{id}`: the graph around an asset; `direction` both (default), upstream or downstream. */
  get(id, params = {}, options = {}) {
    return this._traverse(`/lineage/${encodeSegment(id)}`, params, options);
  }

  /** `GET /lineage/{id}/upstream`: what flows into the asset, `depth` hops back (default 5). */
  upstream(id, params = {}, options = {}) {
    return this._traverse(`/lineage/${encodeSegment(id)}/upstream`, params, options);
  }

  /** `GET /lineage/{id}/downstream`: what the asset flows into. */
  downstream(id, params = {}, options = {}) {
    return this._traverse(`/lineage/${encodeSegment(id)}/downstream`, params, options);
  }

  /** @private */
  _traverse(path, params, options) {
    return this._client.request({ ...options, method: 'GET', path, query: params });
  }
}

function required(name, value) {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${name} must be a non-empty string`);
  }
  return value;
}
