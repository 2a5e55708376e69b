// Webhooks, users, /me, the probes, column lineage and OpenLineage against a
// scripted fetch: what goes on the wire and what comes back. No network.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { describe, test } from 'node:test';

import { ConflictError, UnavailableError, WebhookVerificationError } from '../index.js';
import { client, json, problem, scripted } from './support.js';

const sent = (call) => JSON.parse(call.body);
const page = (items, next = null) => json(200, { items, next_cursor: next });

describe('webhooks', () => {
  const HOOK = { id: 'whk_1', url: 'https://example.com/h', types: ['asset.*'], enabled: true };

  test('create posts the body; the secret comes back once', async () => {
    const { fetch, calls } = scripted(json(201, { ...HOOK, secret: 'whsec_c2VjcmV0' }));
    const made = await client(fetch).client.webhooks.create({ url: HOOK.url, types: ['asset.*'] });
    assert.equal(made.secret, 'whsec_c2VjcmV0');
    assert.equal(calls[0].url.pathname, '/api/v1/webhooks');
    assert.deepEqual(sent(calls[0]), { url: HOOK.url, types: ['asset.*'] });
  });

  test('get, patch as a merge patch, delete, test: each on its own path', async () => {
    const { fetch, calls } = scripted(
      json(200, HOOK),
      json(200, { ...HOOK, enabled: false }),
      new Response(null, { status: 204 }),
      json(200, { delivered: true, status: 204, error: null, duration_ms: 3.2 }),
    );
    const { client: c } = client(fetch);
    await c.webhooks.get('whk_1');
    assert.equal((await c.webhooks.patch('whk_1', { enabled: false })).enabled, false);
    assert.equal(await c.webhooks.delete('whk_1'), undefined);
    assert.equal((await c.webhooks.test('whk_1')).delivered, true);
    assert.deepEqual(
      calls.map((x) => `${x.init.method} ${x.url.pathname}`),
      ['GET /api/v1/webhooks/whk_1', 'PATCH /api/v1/webhooks/whk_1', 'DELETE /api/v1/webhooks/whk_1', 'POST /api/v1/webhooks/whk_1/test'],
    );
    assert.equal(calls[1].headers.get('content-type'), 'application/merge-patch+json');
    assert.ok(calls[3].headers.get('idempotency-key'), 'a test delivery may be retried');
  });

  test('list and iterate; deliveries page by page', async () => {
    const { fetch, calls } = scripted(
      page([HOOK]),
      page([{ id: 'd1' }], 'c1'),
      page([{ id: 'd2' }]),
    );
    const { client: c } = client(fetch);
    assert.deepEqual((await c.webhooks.list({ limit: 1 })).items, [HOOK]);
    const ids = [];
    for await (const d of c.webhooks.iterateDeliveries('whk_1', { limit: 1 })) ids.push(d.id);
    assert.deepEqual(ids, ['d1', 'd2']);
    assert.deepEqual(calls.map((x) => x.url.pathname + x.url.search), [
      '/api/v1/webhooks?limit=1',
      '/api/v1/webhooks/whk_1/deliveries?limit=1',
      '/api/v1/webhooks/whk_1/deliveries?limit=1&cursor=c1',
    ]);
  });

  test('verify checks a Standard Webhooks signature', () => {
    const { fetch } = scripted(json(200, {}));
    const key = Buffer.alloc(24, 1);
    const body = '{"id":"evt_1","seq":1,"type":"webhook.test","data":{}}';
    const ts = 1_700_000_000;
    const signature = createHmac('sha256', key).update(`evt_1.${ts}.${body}`).digest('base64');
    const headers = { 'webhook-id': 'evt_1', 'webhook-timestamp': String(ts), 'webhook-signature': `v1,${signature}` };
    const secret = `whsec_${key.toString('base64')}`;
    const { client: c } = client(fetch);
    assert.equal(c.webhooks.verify(secret, headers, body, { now: ts }).type, 'webhook.test');
    assert.throws(() => c.webhooks.verify(secret, headers, `${body} `, { now: ts }), WebhookVerificationError);
  });
});

describe('users and me', () => {
  const USER = { id: 'usr_1', username: 'ana', role: 'viewer', disabled: false };

  test('create, get, patch, delete; the patch is a merge patch', async () => {
    const { fetch, calls } = scripted(
      json(201, USER),
      json(200, USER),
      json(200, { ...USER, role: 'editor' }),
      new Response(null, { status: 204 }),
    );
    const { client: c } = client(fetch);
    await c.users.create({ username: 'ana', password: 'correct horse battery', role: 'viewer' });
    await c.users.get('usr_1');
    assert.equal((await c.users.patch('usr_1', { role: 'editor', display_name: null })).role, 'editor');
    await c.users.delete('usr_1');
    assert.deepEqual(
      calls.map((x) => `${x.init.method} ${x.url.pathname}`),
      ['POST /api/v1/users', 'GET /api/v1/users/usr_1', 'PATCH /api/v1/users/usr_1', 'DELETE /api/v1/users/usr_1'],
    );
    assert.ok(calls[0].headers.get('idempotency-key'));
    assert.deepEqual(sent(calls[2]), { role: 'editor', display_name: null });
    assert.equal(calls[2].headers.get('content-type'), 'application/merge-patch+json');
  });

  test('iterate follows next_cursor; last_admin is a ConflictError', async () => {
    const { fetch } = scripted(page([USER], 'c'), page([{ ...USER, id: 'usr_2' }]), problem(409, 'last_admin'));
    const { client: c } = client(fetch);
    const ids = [];
    for await (const u of c.users.iterate()) ids.push(u.id);
    assert.deepEqual(ids, ['usr_1', 'usr_2']);
    await assert.rejects(c.users.delete('usr_9'), (e) => e instanceof ConflictError && e.code === 'last_admin');
  });

  test('me asks GET /api/v1/me', async () => {
    const { fetch, calls } = scripted(json(200, { token: { id: 'tok_1', user_id: null }, user: null }));
    const me = await client(fetch).client.me();
    assert.equal(me.token.user_id, null);
    assert.equal(calls[0].url.pathname, '/api/v1/me');
  });
});

describe('probes', () => {
  test('healthz, readyz and metrics live at the service root', async () => {
    const { fetch, calls } = scripted(
      json(200, { status: 'ok' }),
      json(200, { status: 'ready' }),
      new Response('# HELP x\nx 1\n', { status: 200, headers: { 'content-type': 'text/plain; version=0.0.4' } }),
    );
    const { client: c } = client(fetch);
    assert.deepEqual(await c.healthz(), { status: 'ok' });
    assert.deepEqual(await c.readyz(), { status: 'ready' });
    assert.equal(await c.metrics(), '# HELP x\nx 1\n');
    assert.deepEqual(calls.map((x) => x.url.pathname), ['/healthz', '/readyz', '/metrics']);
    assert.equal(calls[2].headers.get('accept'), 'text/plain');
  });

  test('a service that is not ready is an UnavailableError', async () => {
    const { fetch } = scripted(problem(503, 'schema_not_applied', {}, { 'retry-after': '0' }));
    await assert.rejects(client(fetch, { maxRetries: 0 }).client.readyz(), UnavailableError);
  });
});

describe('column lineage and OpenLineage', () => {
  test('asset and column are each one encoded path segment', async () => {
    const { fetch, calls } = scripted(json(200, { root: {}, nodes: [], edges: [] }));
    const { client: c } = client(fetch);
    await c.lineage.columnUpstream('s3://lake/orders', 'a/b c', { depth: 2 });
    await c.lineage.columnDownstream('db.orders', 'id');
    assert.equal(calls[0].url.pathname, '/api/v1/lineage/s3%3A%2F%2Flake%2Forders/columns/a%2Fb%20c/upstream');
    assert.equal(calls[0].url.search, '?depth=2');
    assert.equal(calls[1].url.pathname, '/api/v1/lineage/db.orders/columns/id/downstream');
  });

  test('edges carry column mappings; pushBulk sums their counts too', async () => {
    const { fetch, calls } = scripted((_url, init) => {
      const n = JSON.parse(init.body).length;
      return json(200, { received: n, created: n, existing: 0, assets_created: 0, column_mappings: { created: n, existing: 1 } });
    });
    const edges = [1, 2, 3].map((i) => ({ source: 's', target: `t${i}`, columns: [{ source: 'id', target: 'id' }] }));
    const total = await client(fetch).client.lineage.pushBulk(edges, { chunkSize: 2 });
    assert.deepEqual(total, {
      received: 3, created: 3, existing: 0, assets_created: 0, requests: 2,
      column_mappings: { created: 3, existing: 2 },
    });
    assert.deepEqual(sent(calls[0])[0].columns, [{ source: 'id', target: 'id' }]);
  });

  const RESULT = {
    received: 1, complete: 1, runs: 1,
    edges: { created: 1, existing: 0 }, column_mappings: { created: 2, existing: 0 },
    assets: { created: 2, updated: 1 }, warnings: ['w'],
  };

  test('openLineage posts one event or an array as it is', async () => {
    const { fetch, calls } = scripted(json(200, RESULT));
    const { client: c } = client(fetch);
    const event = { eventType: 'COMPLETE', eventTime: '2025-01-01T00:00:00Z', producer: 'p', schemaURL: 's', run: { runId: 'r' }, job: { namespace: 'n', name: 'j' } };
    assert.deepEqual(await c.lineage.openLineage(event), RESULT);
    await c.lineage.openLineage([event, event]);
    assert.equal(calls[0].url.pathname, '/api/v1/lineage/openlineage');
    assert.deepEqual(sent(calls[0]), event);
    assert.equal(sent(calls[1]).length, 2);
    assert.equal(calls[0].headers.get('idempotency-key'), null);
  });

  test('openLineage is retried without an Idempotency-Key, as events converge', async () => {
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable'), json(200, RESULT));
    const { client: c } = client(fetch);
    assert.deepEqual(await c.lineage.openLineage([{ eventType: 'COMPLETE' }]), RESULT);
    assert.deepEqual(calls.map((x) => x.headers.get('idempotency-key')), [null, null]);
  });

  test('pushOpenLineage chunks to the limit and sums every count', async () => {
    const { fetch, calls } = scripted(json(200, RESULT));
    async function* events() {
      for (let i = 0; i < 5; i++) yield { eventType: 'COMPLETE', run: { runId: String(i) } };
    }
    const seen = [];
    const total = await client(fetch).client.lineage.pushOpenLineage(events(), {
      chunkSize: 2,
      onChunk: (_r, i) => seen.push(i),
    });
    assert.deepEqual(calls.map((x) => sent(x).length), [2, 2, 1]);
    assert.deepEqual(seen, [0, 1, 2]);
    assert.deepEqual(total, {
      received: 3, complete: 3, runs: 3,
      edges: { created: 3, existing: 0 }, column_mappings: { created: 6, existing: 0 },
      assets: { created: 6, updated: 3 }, warnings: ['w', 'w', 'w'], requests: 3,
    });
  });

  test('pushOpenLineage of nothing sends nothing', async () => {
    const { fetch, calls } = scripted(json(200, RESULT));
    const total = await client(fetch).client.lineage.pushOpenLineage([]);
    assert.equal(total.requests, 0);
    assert.equal(calls.length, 0);
  });
});
