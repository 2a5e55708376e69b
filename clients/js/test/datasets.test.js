// Cross-tool lineage against a scripted fetch: datasets on assets and as edge
// ends, the dataset filters, dataset_taken, SQL ingestion and a manifest's
// namespace, as they go on the wire and come back. No network.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ConflictError, ValidationError } from '../index.js';
import { client, json, problem, scripted } from './support.js';

const sent = (call) => JSON.parse(call.body);
const ORDERS = { namespace: 'snowflake://acme-prod', name: 'ANALYTICS.PUBLIC.ORDERS' };
const ASSET = {
  id: 'warehouse.orders',
  name: 'orders',
  type: 'table',
  dataset: ORDERS,
  aliases: ['snowflake://acme-prod/ANALYTICS.PUBLIC.ORDERS'],
  placeholder: false,
  version: 1,
};

describe('datasets on assets', () => {
  test('create, put and patch send dataset as given; the answer carries dataset and aliases', async () => {
    const { fetch, calls } = scripted(json(201, ASSET), json(200, ASSET), json(200, { ...ASSET, dataset: null }));
    const { client: c } = client(fetch);
    const lower = { namespace: 'snowflake://ACME-prod', name: 'analytics.public.orders' };
    const made = await c.assets.create({ id: 'warehouse.orders', name: 'orders', type: 'table', dataset: lower });
    assert.deepEqual(made.dataset, ORDERS);
    assert.deepEqual(made.aliases, ['snowflake://acme-prod/ANALYTICS.PUBLIC.ORDERS']);
    await c.assets.put('warehouse.orders', { name: 'orders', type: 'table', dataset: lower }, { ifMatch: 1 });
    const cleared = await c.assets.patch('warehouse.orders', { dataset: null });
    assert.equal(cleared.dataset, null);
    assert.deepEqual(sent(calls[0]).dataset, lower, 'normalising is the service’s job');
    assert.deepEqual(sent(calls[1]).dataset, lower);
    assert.deepEqual(sent(calls[2]), { dataset: null });
    assert.equal(calls[2].headers.get('content-type'), 'application/merge-patch+json');
  });

  test('a former id is asked for as it is, one encoded segment', async () => {
    const { fetch, calls } = scripted(json(200, ASSET));
    const got = await client(fetch).client.assets.get('snowflake://acme-prod/ANALYTICS.PUBLIC.ORDERS');
    assert.equal(got.id, 'warehouse.orders');
    assert.equal(calls[0].url.pathname, '/api/v1/assets/snowflake%3A%2F%2Facme-prod%2FANALYTICS.PUBLIC.ORDERS');
  });

  test('dataset_namespace and dataset_name filter list and iterate', async () => {
    const { fetch, calls } = scripted(
      json(200, { items: [ASSET], next_cursor: null }),
      json(200, { items: [ASSET], next_cursor: 'c1' }),
      json(200, { items: [], next_cursor: null }),
    );
    const { client: c } = client(fetch);
    const holder = await c.assets.list({ dataset_namespace: 'snowflake://acme-prod', dataset_name: 'analytics.public.orders' });
    assert.deepEqual(holder.items.map((a) => a.id), ['warehouse.orders']);
    const all = [];
    for await (const a of c.assets.iterate({ dataset_namespace: 'snowflake://acme-prod', limit: 1 })) all.push(a.id);
    assert.deepEqual(all, ['warehouse.orders']);
    assert.deepEqual(Object.fromEntries(calls[0].url.searchParams), {
      dataset_namespace: 'snowflake://acme-prod',
      dataset_name: 'analytics.public.orders',
    });
    assert.equal(calls[2].url.search, '?dataset_namespace=snowflake%3A%2F%2Facme-prod&limit=1&cursor=c1');
  });

  test('409 dataset_taken is a ConflictError with the holder, never retried', async () => {
    const body = { holder: 'warehouse.orders', dataset: ORDERS };
    const { fetch, calls } = scripted(problem(409, 'dataset_taken', body));
    const { client: c } = client(fetch);
    const err = await c.assets.create({ id: 'other', name: 'o', type: 'table', dataset: ORDERS }).catch((e) => e);
    assert.ok(err instanceof ConflictError, String(err));
    assert.equal(err.code, 'dataset_taken');
    assert.equal(err.kind, 'conflict');
    assert.equal(err.problem.holder, 'warehouse.orders');
    assert.deepEqual(err.problem.dataset, ORDERS);
    assert.equal(calls.length, 1);
  });
});

describe('edges by dataset', () => {
  const ref = { namespace: 'postgres://db', name: 'raw.orders' };

  test('create sends a dataset end as an object, strict as a query flag', async () => {
    const edge = { source: 'postgres://db:5432/raw.orders', target: 'mart.revenue', origins: ['api'], columns: [] };
    const { fetch, calls } = scripted(json(201, edge), problem(422, 'unknown_assets', { unknown_assets: ['postgres://db:5432/raw.orders'] }));
    const { client: c } = client(fetch);
    const made = await c.lineage.create({ source: ref, target: 'mart.revenue' }).withResponse();
    assert.equal(made.status, 201);
    assert.equal(made.data.source, 'postgres://db:5432/raw.orders');
    assert.deepEqual(sent(calls[0]), { source: ref, target: 'mart.revenue' });
    const err = await c.lineage.create({ source: 'a', target: ref }, { strict: true, maxRetries: 0 }).catch((e) => e);
    assert.ok(err instanceof ValidationError && err.code === 'unknown_assets', String(err));
    assert.equal(calls[1].url.search, '?strict=true');
    assert.deepEqual(sent(calls[1]).target, ref);
  });

  test('bulk and pushBulk carry dataset ends through the chunks', async () => {
    const { fetch, calls } = scripted((_url, init) => {
      const n = JSON.parse(init.body).length;
      return json(200, { received: n, created: n, existing: 0, assets_created: 1 });
    });
    const { client: c } = client(fetch);
    const edges = [
      { source: ref, target: 'a' },
      { source: 'a', target: { namespace: 'kafka://broker:9092', name: 'orders' } },
      { source: ref, target: 'b' },
    ];
    await c.lineage.bulk(edges.slice(0, 1));
    async function* stream() {
      yield* edges;
    }
    const total = await c.lineage.pushBulk(stream(), { chunkSize: 2 });
    assert.deepEqual(total, { received: 3, created: 3, existing: 0, assets_created: 2, requests: 2 });
    assert.deepEqual(sent(calls[0]), [edges[0]]);
    assert.deepEqual(sent(calls[1]), edges.slice(0, 2));
    assert.deepEqual(sent(calls[2]), edges.slice(2));
    assert.ok(calls.every((x) => x.url.pathname === '/api/v1/lineage/bulk'));
  });
});

describe('SQL ingestion', () => {
  const RESULT = {
    origin: 'sql:api',
    statements: { received: 2, with_lineage: 1, without_lineage: 0, failed: 1 },
    edges: { created: 1, existing: 0 },
    column_mappings: { created: 2, existing: 0 },
    assets_created: 2,
    failures: [{ index: 1, message: 'Expected table name', query_id: null }],
    warnings: [],
  };

  test('a script goes as sql, with the dialect, namespace, defaults and source', async () => {
    const { fetch, calls } = scripted(json(200, { ...RESULT, origin: 'sql:nightly' }));
    const body = {
      dialect: 'snowflake',
      namespace: 'snowflake://acme-prod',
      default_database: 'ANALYTICS',
      default_schema: 'PUBLIC',
      source: 'nightly',
      sql: 'insert into mart.revenue select * from raw.orders; select 1',
    };
    const result = await client(fetch).client.lineage.ingestSql(body);
    assert.equal(result.origin, 'sql:nightly');
    const [call] = calls;
    assert.equal(call.init.method, 'POST');
    assert.equal(call.url.pathname, '/api/v1/lineage/sql');
    assert.equal(call.url.search, '');
    assert.equal(call.headers.get('content-type'), 'application/json');
    assert.match(call.headers.get('idempotency-key'), /^[0-9a-f-]{36}$/);
    assert.deepEqual(sent(call), body);
  });

  test('a query log: strings become {sql}, entries go as they are', async () => {
    const { fetch, calls } = scripted(json(200, RESULT));
    const statements = ['insert into mart.revenue select 1 from raw.orders', { sql: 'select broken from', query_id: 'q2', user: 'etl' }];
    const result = await client(fetch).client.lineage.ingestSql({ dialect: 'postgres', namespace: 'postgres://db', statements });
    assert.deepEqual(result, RESULT);
    assert.deepEqual(sent(calls[0]), {
      dialect: 'postgres',
      namespace: 'postgres://db',
      statements: [{ sql: statements[0] }, statements[1]],
    });
    assert.equal(statements[0], 'insert into mart.revenue select 1 from raw.orders', 'the caller’s array is left alone');
  });

  test('retried on 503 with one key; the timeout is an upload’s', async () => {
    const { fetch, calls } = scripted(problem(503, 'neo4j_busy'), json(200, RESULT));
    const { client: c } = client(fetch);
    const specs = [];
    const request = c.request.bind(c);
    c.request = (spec) => {
      specs.push(spec);
      return request(spec);
    };
    await c.lineage.ingestSql({ dialect: 'postgres', namespace: 'postgres://db', sql: 'select 1' });
    await c.lineage.ingestSql({ dialect: 'postgres', namespace: 'postgres://db', sql: 'select 1' }, { timeoutMs: 1234 });
    assert.equal(calls.length, 3);
    assert.equal(calls[0].headers.get('idempotency-key'), calls[1].headers.get('idempotency-key'));
    assert.deepEqual(specs.map((s) => s.timeoutMs), [600_000, 1234]);
  });

  test('pushSql sends a query log in chunks, sums them and counts failures from the log’s start', async () => {
    const { fetch, calls } = scripted((_url, init) => {
      const { statements } = JSON.parse(init.body);
      const failures = statements.flatMap((s, index) => (s.sql === 'select broken from' ? [{ index, message: 'm', query_id: s.query_id ?? null }] : []));
      return json(200, {
        ...RESULT,
        origin: 'sql:log',
        statements: { received: statements.length, with_lineage: 0, without_lineage: statements.length - failures.length, failed: failures.length },
        failures,
        warnings: ['w'],
      });
    });
    async function* log() {
      yield 'select 1';
      yield { sql: 'select 2', query_id: 'q1' };
      yield 'select 3';
      yield { sql: 'select broken from', query_id: 'q3' };
      yield 'select broken from';
    }
    const seen = [];
    const total = await client(fetch).client.lineage.pushSql(
      { dialect: 'postgres', namespace: 'postgres://db', source: 'log', statements: log() },
      { chunkSize: 2, onChunk: (r, i) => seen.push([i, r.failures.map((f) => f.index)]) },
    );
    assert.deepEqual(calls.map((x) => sent(x).statements), [
      [{ sql: 'select 1' }, { sql: 'select 2', query_id: 'q1' }],
      [{ sql: 'select 3' }, { sql: 'select broken from', query_id: 'q3' }],
      [{ sql: 'select broken from' }],
    ]);
    assert.ok(calls.every((x) => sent(x).dialect === 'postgres' && sent(x).source === 'log'));
    assert.deepEqual(seen, [[0, []], [1, [3]], [2, [4]]]);
    assert.equal(total.origin, 'sql:log');
    assert.equal(total.requests, 3);
    assert.deepEqual(total.statements, { received: 5, with_lineage: 0, without_lineage: 3, failed: 2 });
    assert.deepEqual(total.failures, [{ index: 3, message: 'm', query_id: 'q3' }, { index: 4, message: 'm', query_id: null }]);
    assert.deepEqual(total.edges, { created: 3, existing: 0 });
    assert.deepEqual(total.warnings, ['w', 'w', 'w']);
  });

  test('pushSql of an empty log sends nothing; a script or a key of your own is refused', async () => {
    const { fetch, calls } = scripted(json(200, RESULT));
    const { client: c } = client(fetch);
    const none = await c.lineage.pushSql({ dialect: 'postgres', namespace: 'postgres://db', statements: [] });
    assert.deepEqual([none.requests, none.origin, none.statements.received], [0, 'sql:api', 0]);
    await assert.rejects(c.lineage.pushSql({ dialect: 'postgres', namespace: 'n', sql: 'select 1' }), TypeError);
    await assert.rejects(
      c.lineage.pushSql({ dialect: 'postgres', namespace: 'n', statements: ['select 1'] }, { idempotencyKey: 'k' }),
      TypeError,
    );
    assert.equal(calls.length, 0);
  });

  test('an unknown dialect is a ValidationError naming body.dialect', async () => {
    const errors = [{ loc: ['body', 'dialect'], msg: 'unknown dialect', type: 'unknown_dialect' }];
    const { fetch } = scripted(problem(422, 'validation_error', { errors }));
    const err = await client(fetch)
      .client.lineage.ingestSql({ dialect: 'klingon', namespace: 'postgres://db', sql: 'select 1' })
      .catch((e) => e);
    assert.ok(err instanceof ValidationError, String(err));
    assert.deepEqual(err.errors[0].loc, ['body', 'dialect']);
  });
});

describe('manifest namespace', () => {
  test('namespace rides as a query parameter, left out when not given', async () => {
    const summary = { project: 'p', assets: { created: 1, updated: 0, merged: 2 } };
    const { fetch, calls } = scripted(json(200, summary));
    const { client: c } = client(fetch);
    const got = await c.lineage.uploadManifest(Buffer.from('{}'), { project: 'p', namespace: 'snowflake://acme-prod' });
    assert.equal(got.assets.merged, 2);
    await c.lineage.uploadManifest(Buffer.from('{}'), { project: 'p' });
    assert.equal(calls[0].url.searchParams.get('namespace'), 'snowflake://acme-prod');
    assert.equal(calls[1].url.searchParams.has('namespace'), false);
  });
});
