// Lineage through time, asset history, change impact and origin-owned edge
// sets against a scripted fetch: what goes on the wire and what comes back.
import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { NotFoundError } from '../index.js';
import { client, json, problem, scripted } from './support.js';

const GRAPH = { root: 'a', direction: 'both', depth: 5, nodes: [], edges: [], truncated: false };
const MOMENT = new Date('2026-11-01T12:00:00.123Z');
const REPORT = {
  project: 'shop',
  changes: [{ kind: 'column_removed', asset: 'model.shop.orders', column: 'id', from: null, to: null, breaking: true }],
  impacted: [{ asset: 'dash.revenue', column: null, distance: 1, owners: ['bi@shop'], via: ['model.shop.orders', 'dash.revenue'] }],
  breaking: true,
  depth: 3,
};
const params = (call) => Object.fromEntries(call.url.searchParams);

describe('as_of', () => {
  test('every traversal sends it; a Date as its UTC instant', async () => {
    const { fetch, calls } = scripted(json(200, GRAPH));
    const { lineage } = client(fetch).client;
    await lineage.get('a', { as_of: MOMENT });
    await lineage.upstream('a', { as_of: MOMENT, depth: 2 });
    await lineage.downstream('a', { as_of: '2026-11-01T12:00:00Z' });
    await lineage.columnUpstream('a', 'x', { as_of: MOMENT });
    await lineage.columnDownstream('a', 'x', { as_of: MOMENT });
    assert.deepEqual(
      calls.map((c) => c.url.searchParams.get('as_of')),
      ['2026-11-01T12:00:00.123Z', '2026-11-01T12:00:00.123Z', '2026-11-01T12:00:00Z', '2026-11-01T12:00:00.123Z', '2026-11-01T12:00:00.123Z'],
    );
    assert.deepEqual(params(calls[1]), { as_of: '2026-11-01T12:00:00.123Z', depth: '2' });
    assert.equal(calls[3].url.pathname, '/api/v1/lineage/a/columns/x/upstream');
  });

  test('an invalid Date is refused before sending', async () => {
    const { fetch, calls } = scripted(json(200, GRAPH));
    await assert.rejects(client(fetch).client.lineage.get('a', { as_of: new Date('nope') }), RangeError);
    assert.equal(calls.length, 0);
  });

  test('a root that did not exist then is NotFoundError', async () => {
    const { fetch } = scripted(problem(404, 'asset_not_found'));
    await assert.rejects(client(fetch).client.lineage.upstream('a', { as_of: MOMENT }), NotFoundError);
  });
});

describe('diff', () => {
  test('sends from, to and the bounds; answers both sides', async () => {
    const answer = {
      root: 's3://lake/x',
      direction: 'both',
      depth: 5,
      from: '2026-11-01T12:00:00.123Z',
      to: '2026-11-27T06:00:00.000Z',
      added: { nodes: [], edges: [{ source: 'a', target: 'b', transformation: null }] },
      removed: { nodes: [], edges: [] },
      changed: { edges: [{ source: 'b', target: 'c', transformation: 'select 2', previous_transformation: 'select 1' }] },
      truncated: false,
    };
    const { fetch, calls } = scripted(json(200, answer));
    const { lineage } = client(fetch).client;
    assert.deepEqual(await lineage.diff('s3://lake/x', { from: MOMENT }), answer);
    await lineage.diff('a', { from: MOMENT, to: new Date('2026-11-20T00:00:00Z'), direction: 'downstream', depth: 3, limit: 100 });
    assert.equal(calls[0].url.pathname, '/api/v1/lineage/s3%3A%2F%2Flake%2Fx/diff');
    assert.deepEqual(params(calls[0]), { from: '2026-11-01T12:00:00.123Z' });
    assert.deepEqual(params(calls[1]), {
      from: '2026-11-01T12:00:00.123Z',
      to: '2026-11-20T00:00:00.000Z',
      direction: 'downstream',
      depth: '3',
      limit: '100',
    });
    assert.throws(() => lineage.diff('a', {}), TypeError);
  });
});

describe('history', () => {
  const version = (n) => ({
    version: n,
    at: `2026-11-0${n}T00:00:00.000Z`,
    actor: 'token:tok_1',
    deleted: false,
    changes: [{ field: 'description', column: null, change: 'set', from: null, to: `v${n}` }],
  });

  test('pages newest first', async () => {
    const { fetch, calls } = scripted(
      json(200, { items: [version(3), version(2)], next_cursor: 'c2' }),
      json(200, { items: [version(1)], next_cursor: null }),
    );
    const seen = [];
    for await (const v of client(fetch).client.assets.iterateHistory('model.shop.orders', { limit: 2 })) seen.push(v.version);
    assert.deepEqual(seen, [3, 2, 1]);
    assert.equal(calls[0].url.pathname, '/api/v1/assets/model.shop.orders/history');
    assert.deepEqual(params(calls[1]), { limit: '2', cursor: 'c2' });
  });

  test('one page; an empty id fails at once', async () => {
    const { fetch, calls } = scripted(json(200, { items: [version(1)], next_cursor: null }));
    const { assets } = client(fetch).client;
    assert.equal((await assets.listHistory('a b')).items[0].changes[0].to, 'v1');
    assert.equal(calls[0].url.pathname, '/api/v1/assets/a%20b/history');
    assert.throws(() => assets.iterateHistory(''), TypeError);
  });
});

describe('checkManifest', () => {
  test('posts the manifest gzipped with project and namespace', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'gov-impact-'));
    const path = join(dir, 'manifest.json');
    await writeFile(path, '{"nodes":{}}');
    const { fetch, calls } = scripted(json(200, REPORT));
    const report = await client(fetch).client.lineage.checkManifest(path, { project: 'shop', namespace: 'snowflake://acme', depth: 3 });
    assert.deepEqual(report, REPORT);
    const call = calls[0];
    assert.equal(`${call.init.method} ${call.url.pathname}`, 'POST /api/v1/impact/manifest');
    assert.deepEqual(params(call), { project: 'shop', namespace: 'snowflake://acme', depth: '3' });
    assert.equal(call.headers.get('content-encoding'), 'gzip');
    assert.equal(call.headers.get('content-type'), 'application/json');
    assert.equal(gunzipSync(call.body).toString(), '{"nodes":{}}');
  });

  test('writes nothing, so it is retried without an Idempotency-Key', async () => {
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable'), json(200, REPORT));
    const report = await client(fetch).client.lineage.checkManifest(Buffer.from('{}'), { project: 'shop' });
    assert.equal(report.breaking, true);
    assert.equal(calls.length, 2);
    assert.ok(calls.every((c) => !c.headers.has('idempotency-key')));
  });
});

describe('edge sets owned by their origin', () => {
  const RETIRED = { edges: 2, edges_removed: 1, column_mappings: 0, column_mappings_removed: 0 };
  const answer = { received: 1, created: 0, existing: 1, assets_created: 0, retired: RETIRED };

  test('bulk names its origin and replaces its set', async () => {
    const { fetch, calls } = scripted(json(200, answer));
    const { lineage } = client(fetch).client;
    const result = await lineage.bulk([{ source: 'a', target: 'b' }], { origin: 'airflow:sync', replace: true });
    assert.deepEqual(result.retired, RETIRED);
    assert.deepEqual(params(calls[0]), { origin: 'airflow:sync', replace: 'true' });
    await lineage.bulk([{ source: 'a', target: 'b' }], { origin: 'airflow:sync' });
    assert.deepEqual(params(calls[1]), { origin: 'airflow:sync' });
    assert.throws(() => lineage.bulk([{ source: 'a', target: 'b' }], { replace: true }), TypeError);
  });

  test('pushBulk sends the origin with every chunk; a replacement is one request', async () => {
    const { fetch, calls } = scripted(json(200, answer));
    const { lineage } = client(fetch).client;
    const two = [{ source: 'a', target: 'b' }, { source: 'b', target: 'c' }];
    const total = await lineage.pushBulk(two, { origin: 'o', chunkSize: 1 });
    assert.equal(total.requests, 2);
    assert.deepEqual(total.retired, { edges: 4, edges_removed: 2, column_mappings: 0, column_mappings_removed: 0 });
    assert.ok(calls.every((c) => c.url.searchParams.get('origin') === 'o'));
    await assert.rejects(lineage.pushBulk(two, { origin: 'o', replace: true, chunkSize: 1 }), RangeError);
    assert.equal(calls.length, 2);
    const replaced = await lineage.pushBulk(two, { origin: 'o', replace: true });
    assert.equal(replaced.requests, 1);
    assert.equal(JSON.parse(calls[2].body).length, 2);
    assert.deepEqual(params(calls[2]), { origin: 'o', replace: 'true' });
  });
});
