// Against a running service: GOVERNANCE_URL and GOVERNANCE_TOKEN (an admin token).
// Every id starts with a random prefix, since other clients may share the database.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';

import {
  AuthenticationError,
  ConflictError,
  GovernanceClient,
  NotFoundError,
  PermissionError,
  PreconditionFailedError,
  ValidationError,
} from '../index.js';
import { liveSuite } from './live-support.js';

// The repository root (clients/js/test -> ../../..) holds the service's dbt fixtures.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
// A real dbt 1.11 manifest (schema v12), gzipped as uploadManifest may take it.
const MANIFEST = path.join(repoRoot, 'tests', 'fixtures', 'dbt_versions', 'manifest_v12_dbt1.11.16.json.gz');

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const prefix = `js-${randomUUID()}`;
  const id = (name) => `${prefix}.${name}`;
  let requests = [];
  const countingFetch = (url, init) => {
    requests.push(`${init.method} ${new URL(url).pathname}`);
    return fetch(url, init);
  };
  const client = new GovernanceClient({ baseURL, token, fetch: countingFetch });
  const table = (extra = {}) => ({ name: 'Orders', type: 'table', platform: 'postgres', ...extra });

  after(async () => {
    const mine = [];
    for await (const asset of client.assets.iterate({ q: prefix, limit: 500 })) mine.push(asset.id);
    await Promise.all(mine.map((asset) => client.assets.delete(asset).catch(() => undefined)));
  });

  describe('service', () => {
    test('info needs no token; the base URL may end in /api/v1', async () => {
      const anonymous = new GovernanceClient({ baseURL: `${baseURL}/api/v1/`, token: null });
      const info = await anonymous.info();
      assert.equal(info.api_version, 'v1');
      assert.equal(typeof info.version, 'string');
    });
  });

  describe('assets', () => {
    const awkward = `s3://lake/${prefix}/raw(v1),$#@表.parquet`;

    test('create, get, put, patch and delete, with If-Match guarding each change', async () => {
      const created = await client.assets
        .create({ id: awkward, ...table({ tags: ['PII', 'pii', 'Gold'] }) })
        .withResponse();
      assert.equal(created.status, 201);
      assert.equal(created.data.id, awkward);
      assert.equal(created.data.version, 1);
      assert.deepEqual(created.data.tags, ['pii', 'gold']);
      assert.equal(created.headers.get('etag'), '"1"');

      const got = await client.assets.get(awkward);
      assert.deepEqual(got, created.data);

      const replaced = await client.assets.put(awkward, table({ description: 'v2' }), { ifMatch: 1 }).withResponse();
      assert.equal(replaced.status, 200);
      assert.equal(replaced.data.version, 2);
      assert.deepEqual(replaced.data.tags, []);
      await assert.rejects(
        client.assets.put(awkward, table(), { ifMatch: 1 }),
        (e) => e instanceof PreconditionFailedError && e.status === 412 && e.code === 'precondition_failed',
      );

      const patched = await client.assets.patch(
        awkward,
        { description: null, owners: ['data-eng'], properties: { rows: 10, pii: true } },
        { ifMatch: replaced.headers.get('etag') },
      );
      assert.equal(patched.version, 3);
      assert.equal(patched.description, null);
      assert.deepEqual(patched.owners, ['data-eng']);
      assert.deepEqual(patched.properties, { rows: 10, pii: true });
      assert.equal(patched.name, 'Orders');
      await assert.rejects(client.assets.patch(awkward, { name: 'x' }, { ifMatch: 2 }), PreconditionFailedError);
      await assert.rejects(client.assets.delete(awkward, { ifMatch: 2 }), PreconditionFailedError);
      assert.equal((await client.assets.get(awkward)).version, 3, 'a refused change changes nothing');

      assert.equal(await client.assets.delete(awkward, { ifMatch: 3 }), undefined);
      await assert.rejects(client.assets.get(awkward), NotFoundError);
    });

    test('PUT creates an asset that does not exist (201)', async () => {
      const { status, data } = await client.assets.put(id('put-new'), table()).withResponse();
      assert.equal(status, 201);
      assert.equal(data.id, id('put-new'));
    });

    test('404 is a NotFoundError with code and request id', async () => {
      requests = [];
      const err = await client.assets.get(id('missing')).catch((e) => e);
      assert.ok(err instanceof NotFoundError, String(err));
      assert.equal(err.status, 404);
      assert.equal(err.code, 'asset_not_found');
      assert.equal(err.kind, 'not_found');
      assert.ok(err.requestId, 'a request id');
      assert.equal(err.requestId, err.headers.get('x-request-id'));
      assert.equal(err.problem.status, 404);
      assert.equal(requests.length, 1, 'a 404 is not retried');
    });

    test('409 is a ConflictError, never retried', async () => {
      await client.assets.create({ id: id('dup'), ...table() });
      requests = [];
      const err = await client.assets.create({ id: id('dup'), ...table() }).catch((e) => e);
      assert.ok(err instanceof ConflictError, String(err));
      assert.equal(err.code, 'already_exists');
      assert.equal(requests.length, 1);
    });

    test('422 is a ValidationError listing the fields', async () => {
      const err = await client.assets.create({ id: id('bad'), type: 'table', tags: [''] }).catch((e) => e);
      assert.ok(err instanceof ValidationError, String(err));
      assert.equal(err.code, 'validation_error');
      const where = err.errors.map((e) => e.loc.join('.'));
      assert.ok(where.includes('body.name'), where.join(', '));
      assert.ok(where.some((w) => w.startsWith('body.tags')), where.join(', '));
    });

    test('for await pages through every match, following next_cursor', async () => {
      const names = ['p1', 'p2', 'p3', 'p4', 'p5'];
      const tag = `t-${prefix.slice(3, 20)}`;
      await Promise.all(
        names.map((n, i) => client.assets.create({ id: id(`page.${n}`), ...table({ tags: i % 2 ? [tag] : [tag, 'odd'] }) })),
      );
      requests = [];
      const seen = [];
      for await (const asset of client.assets.iterate({ q: id('page.'), limit: 2 })) seen.push(asset.id);
      assert.deepEqual(seen, names.map((n) => id(`page.${n}`)));
      assert.equal(requests.length, 3, 'three pages of at most 2');

      const both = [];
      for await (const asset of client.assets.iterate({ tag: [tag, 'odd'], limit: 1 })) both.push(asset.id);
      assert.deepEqual(both, ['p1', 'p3', 'p5'].map((n) => id(`page.${n}`)));

      const first = await client.assets.list({ q: id('page.'), limit: 4 });
      assert.equal(first.items.length, 4);
      const rest = await client.assets.list({ q: id('page.'), limit: 4, cursor: first.next_cursor });
      assert.deepEqual(rest.items.map((a) => a.id), [id('page.p5')]);
      assert.equal(rest.next_cursor, null);
    });
  });

  describe('lineage', () => {
    test('pushBulk chunks, sums, and repeating it changes nothing', async () => {
      const source = id('bulk.src');
      const edges = Array.from({ length: 25 }, (_, i) => ({
        source,
        target: id(`bulk.t${String(i).padStart(2, '0')}`),
        transformation: `select ${i}`,
      }));
      requests = [];
      const first = await client.lineage.pushBulk(edges, { chunkSize: 10 });
      assert.deepEqual(first, { received: 25, created: 25, existing: 0, assets_created: 26, requests: 3 });
      assert.deepEqual(requests, Array(3).fill('POST /api/v1/lineage/bulk'));

      const again = await client.lineage.pushBulk(edges, { chunkSize: 10 });
      assert.deepEqual(again, { received: 25, created: 0, existing: 25, assets_created: 0, requests: 3 });

      const listed = [];
      for await (const edge of client.lineage.iterateEdges({ source, limit: 10 })) listed.push(edge);
      assert.equal(listed.length, 25);
      assert.deepEqual(listed.map((e) => e.target), edges.map((e) => e.target));
      assert.ok(listed.every((e) => e.origins.includes('api')));

      const placeholder = await client.assets.get(source);
      assert.equal(placeholder.placeholder, true);
      assert.equal(placeholder.type, 'unknown');
    });

    test('bulk is validated whole: a bad item is named by index and nothing is written', async () => {
      const err = await client.lineage
        .bulk([{ source: id('v.a'), target: id('v.b') }, { source: id('v.c'), target: id('v.c') }])
        .catch((e) => e);
      assert.ok(err instanceof ValidationError, String(err));
      assert.equal(err.code, 'self_loop');
      assert.deepEqual(err.errors[0].loc, ['body', 1, 'target']);
      await assert.rejects(client.assets.get(id('v.a')), NotFoundError);
    });

    test('strict refuses unknown assets with unknown_assets', async () => {
      const err = await client.lineage
        .create({ source: id('s.a'), target: id('s.b') }, { strict: true })
        .catch((e) => e);
      assert.ok(err instanceof ValidationError, String(err));
      assert.equal(err.code, 'unknown_assets');
      assert.deepEqual([...err.problem.unknown_assets].sort(), [id('s.a'), id('s.b')]);
    });

    test('upstream and downstream traversals', async () => {
      const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((n) => id(`walk/${n}`));
      const made = await client.lineage.create({ source: a, target: b, transformation: 'select * from a' }).withResponse();
      assert.equal(made.status, 201);
      assert.deepEqual(made.data.origins, ['api']);
      const repeat = await client.lineage.create({ source: a, target: b }).withResponse();
      assert.equal(repeat.status, 200);
      await client.lineage.bulk([{ source: b, target: c }, { source: d, target: b }]);

      const up = await client.lineage.upstream(c);
      assert.equal(up.root, c);
      assert.equal(up.direction, 'upstream');
      assert.equal(up.truncated, false);
      const distances = Object.fromEntries(up.nodes.map((n) => [n.id, [n.distance, n.direction]]));
      assert.deepEqual(distances, { [c]: [0, 'root'], [b]: [1, 'upstream'], [a]: [2, 'upstream'], [d]: [2, 'upstream'] });
      assert.equal(up.edges.length, 3);
      assert.equal(up.edges.find((e) => e.source === a).transformation, 'select * from a');

      const down = await client.lineage.downstream(a, { depth: 1 });
      assert.deepEqual(down.nodes.map((n) => n.id), [a, b]);
      assert.deepEqual(down.edges, [{ source: a, target: b, transformation: 'select * from a' }]);

      const around = await client.lineage.get(b, { direction: 'both' });
      assert.deepEqual(around.nodes.map((n) => n.id).sort(), [a, b, c, d].sort());

      const capped = await client.lineage.upstream(c, { limit: 2 });
      assert.equal(capped.nodes.length, 2);
      assert.equal(capped.truncated, true);

      await assert.rejects(client.lineage.upstream(c, { depth: 0 }), (e) => e instanceof ValidationError && e.errors[0].loc.join('.') === 'query.depth');
      await assert.rejects(client.lineage.get(b, { direction: 'sideways' }), ValidationError);
      await assert.rejects(client.lineage.downstream(id('walk/none')), (e) => e instanceof NotFoundError && e.code === 'asset_not_found');
    });

    test('column lineage: mappings ride on edges and are walked both ways', async () => {
      const [raw, orders, mart] = ['col.raw', 'col/orders', 'col.mart'].map(id);
      const cols = (...names) => names.map((name) => ({ name, type: 'int' }));
      await client.assets.create({ id: raw, ...table({ columns: cols('id', 'gross amount/usd') }) });
      await client.assets.create({ id: orders, ...table({ columns: cols('order_id', 'total') }) });
      await client.assets.create({ id: mart, ...table({ columns: cols('total_usd', 'unused') }) });
      const edge = await client.lineage.create({
        source: raw,
        target: orders,
        columns: [
          { source: 'id', target: 'order_id' },
          { source: 'gross amount/usd', target: 'total', transformation: 'sum(amount)' },
        ],
      });
      assert.deepEqual(
        edge.columns.map((c) => [c.source, c.target, c.transformation, c.origins]),
        [['gross amount/usd', 'total', 'sum(amount)', ['api']], ['id', 'order_id', null, ['api']]],
      );
      const bulk = await client.lineage.bulk([{ source: orders, target: mart, columns: [{ source: 'total', target: 'total_usd' }] }]);
      assert.deepEqual(bulk.column_mappings, { created: 1, existing: 0 });

      const up = await client.lineage.columnUpstream(mart, 'total_usd');
      assert.deepEqual(up.root, { asset: mart, column: 'total_usd' });
      assert.equal(up.direction, 'upstream');
      assert.deepEqual(
        up.nodes.map((n) => [n.asset, n.column, n.distance]),
        [[mart, 'total_usd', 0], [orders, 'total', 1], [raw, 'gross amount/usd', 2]],
      );
      assert.ok(up.edges.some((e) => e.source.column === 'gross amount/usd' && e.transformation === 'sum(amount)'));
      const down = await client.lineage.columnDownstream(raw, 'gross amount/usd', { depth: 1 });
      assert.deepEqual(down.nodes.map((n) => n.column), ['gross amount/usd', 'total']);
      const alone = await client.lineage.columnUpstream(mart, 'unused');
      assert.deepEqual([alone.nodes.length, alone.edges.length], [1, 0]);
      await assert.rejects(
        client.lineage.columnDownstream(raw, 'nope'),
        (e) => e instanceof NotFoundError && e.code === 'column_not_found',
      );
      const [listed] = (await client.lineage.listEdges({ source: raw })).items;
      assert.equal(listed.columns.length, 2);
    });

    test('OpenLineage run events: one at a time or pushed in chunks', async () => {
      const ns = `${prefix}-ol`;
      const runEvent = (eventType, input, output, fields = {}) => ({
        eventType,
        eventTime: new Date().toISOString(),
        producer: 'https://example.com/js-client-tests',
        schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
        run: { runId: randomUUID() },
        job: { namespace: ns, name: `load_${output}`, facets: { sql: { query: `insert into ${output} select * from ${input}` } } },
        inputs: [{ namespace: ns, name: input }],
        outputs: [
          {
            namespace: ns,
            name: output,
            facets: {
              schema: { fields: Object.keys(fields).map((name) => ({ name, type: 'int' })) },
              columnLineage: {
                fields: Object.fromEntries(
                  Object.entries(fields).map(([to, from]) => [to, { inputFields: [{ namespace: ns, name: input, field: from }] }]),
                ),
              },
            },
          },
        ],
      });
      const events = [
        runEvent('START', 'raw', 'staged'),
        runEvent('COMPLETE', 'raw', 'staged', { id: 'raw_id' }),
        runEvent('COMPLETE', 'staged', 'final', { key: 'id' }),
      ];
      const seen = [];
      const total = await client.lineage.pushOpenLineage(events, { chunkSize: 2, onChunk: (r) => seen.push(r.received) });
      assert.deepEqual(seen, [2, 1]);
      assert.deepEqual([total.requests, total.received, total.complete], [2, 3, 2]);
      assert.deepEqual(total.edges, { created: 2, existing: 0 });
      assert.deepEqual(total.column_mappings, { created: 2, existing: 0 });

      const up = await client.lineage.upstream(`${ns}/final`);
      assert.deepEqual(up.nodes.map((n) => n.id).sort(), [`${ns}/final`, `${ns}/raw`, `${ns}/staged`].sort());
      const [edge] = (await client.lineage.listEdges({ source: `${ns}/raw` })).items;
      assert.deepEqual(edge.origins, [`openlineage:${ns}/load_staged`]);
      const columns = await client.lineage.columnUpstream(`${ns}/final`, 'key');
      assert.deepEqual(columns.nodes.map((n) => [n.asset, n.column]), [[`${ns}/final`, 'key'], [`${ns}/staged`, 'id'], [`${ns}/raw`, 'raw_id']]);

      const again = await client.lineage.openLineage(events[1]);
      assert.deepEqual([again.received, again.edges.created, again.edges.existing], [1, 0, 1]);
      const bad = await client.lineage.openLineage({ ...events[1], run: { runId: 'not-a-uuid' } }).catch((e) => e);
      assert.ok(bad instanceof ValidationError, String(bad));
    });

    test('an edge can be deleted once', async () => {
      const [x, y] = [id('del.x'), id('del.y')];
      await client.lineage.create({ source: x, target: y });
      assert.equal(await client.lineage.deleteEdge(x, y), undefined);
      await assert.rejects(client.lineage.deleteEdge(x, y), (e) => e instanceof NotFoundError && e.code === 'edge_not_found');
      const left = await client.lineage.listEdges({ source: x });
      assert.deepEqual(left, { items: [], next_cursor: null });
    });
  });

  describe('tokens', () => {
    let created;
    let reader;

    before(async () => {
      created = await client.tokens.create({ name: `${prefix}-reader`, scopes: ['read'], expires_in_days: 1 });
      reader = new GovernanceClient({ baseURL, token: created.token, maxRetries: 0 });
    });

    test('the secret is shown once, then only metadata', async () => {
      assert.match(created.token, /^dgs_[0-9A-Za-z]{42}$/);
      assert.match(created.id, /^tok_/);
      assert.equal(created.prefix, created.token.slice(0, 8));
      assert.deepEqual(created.scopes, ['read']);
      assert.ok(created.expires_at);
      const meta = await client.tokens.get(created.id);
      assert.equal(meta.token, undefined);
      assert.equal(meta.revoked_at, null);
      let found = false;
      for await (const t of client.tokens.iterate({ limit: 100 })) found ||= t.id === created.id;
      assert.ok(found, 'listed');
    });

    test('a read token reads but cannot write (PermissionError)', async () => {
      await reader.assets.list({ limit: 1 });
      const err = await reader.assets.create({ id: id('by-reader'), ...table() }).catch((e) => e);
      assert.ok(err instanceof PermissionError, String(err));
      assert.equal(err.code, 'insufficient_scope');
      await assert.rejects(reader.tokens.list(), PermissionError);
    });

    test('a revoked token gets AuthenticationError', async () => {
      assert.equal(await client.tokens.revoke(created.id), undefined);
      assert.ok((await client.tokens.get(created.id)).revoked_at);
      const err = await reader.assets.list().catch((e) => e);
      assert.ok(err instanceof AuthenticationError, String(err));
      assert.equal(err.status, 401);
      assert.equal(err.code, 'invalid_token');
      await assert.rejects(client.tokens.get('tok_00000000000000000000000000'), NotFoundError);
    });
  });

  describe('dbt manifest and events', () => {
    const project = `js-${randomUUID().slice(0, 8)}`;
    // Where the project's tables live: this run's own, so no other run holds them.
    const namespace = `duckdb://${project}`;
    let first;

    test('uploadManifest from a path ingests the project', async () => {
      first = await client.lineage.uploadManifest(MANIFEST, { project, namespace });
      assert.equal(first.project, project);
      assert.equal(first.dbt_version, '1.11.16');
      assert.equal(first.dbt_schema_version, 'v12');
      assert.ok(first.edges.created + first.edges.existing > 0, JSON.stringify(first.edges));
      assert.equal(first.edges.removed, 0);
      for (const key of ['created', 'updated', 'merged']) assert.equal(typeof first.assets[key], 'number');
      for (const key of ['created', 'updated', 'removed']) {
        assert.equal(typeof first.quality_rules[key], 'number');
      }
      assert.ok(Array.isArray(first.warnings));
    });

    test('uploading the same bytes again changes no edges', async () => {
      const again = await client.lineage.uploadManifest(readFileSync(MANIFEST), { project, namespace });
      assert.equal(again.project, project);
      assert.equal(again.assets.merged, 0);
      assert.equal(again.edges.created, 0);
      assert.equal(again.edges.removed, 0);
      assert.equal(again.edges.existing, first.edges.created + first.edges.existing);
    });

    test('with a namespace, each model holds its table: an edge naming it meets the dbt node', async () => {
      const name = 'corner_shop.main_marts.orders';
      const { items } = await client.assets.list({ dataset_namespace: namespace, dataset_name: name.toUpperCase() });
      assert.deepEqual(items.map((a) => [a.id, a.dataset]), [['model.corner_shop.orders', { namespace, name }]]);
      const dashboard = id('manifest.dashboard');
      const edge = await client.lineage.create({ source: { namespace, name }, target: dashboard });
      assert.equal(edge.source, 'model.corner_shop.orders');
      await client.lineage.deleteEdge('model.corner_shop.orders', dashboard);
    });

    test('the ingestion shows up in the event log', async () => {
      const page = await client.events.list({ types: ['lineage.manifest.ingested'], limit: 5 });
      assert.ok(Array.isArray(page.items));
      assert.ok('next_cursor' in page);
      let found = null;
      for await (const event of client.events.iterate({ types: ['lineage.manifest.ingested'] })) {
        assert.equal(event.type, 'lineage.manifest.ingested');
        if (event.data?.project === project) {
          found = event;
          break;
        }
      }
      assert.ok(found, `no lineage.manifest.ingested event for ${project}`);
      assert.equal(typeof found.seq, 'number');
    });
  });
}
