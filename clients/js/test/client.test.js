// The request machinery against a scripted fetch: no network.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';

import {
  AuthenticationError,
  ConflictError,
  ConnectionError,
  GovernanceClient,
  GovernanceError,
  NotFoundError,
  PreconditionFailedError,
  ServerError,
  TimeoutError,
  UnavailableError,
  VERSION,
  ValidationError,
  retryDelayMs,
} from '../index.js';
import { BASE, client, json, problem, scripted } from './support.js';

const ASSET = { id: 'a', name: 'A', type: 'table', version: 1 };

describe('construction', () => {
  test('reads GOVERNANCE_URL and GOVERNANCE_TOKEN when no option is given', async () => {
    const saved = { url: process.env.GOVERNANCE_URL, token: process.env.GOVERNANCE_TOKEN };
    process.env.GOVERNANCE_URL = 'http://env.test/';
    process.env.GOVERNANCE_TOKEN = 'dgs_env';
    try {
      const { fetch, calls } = scripted(json(200, { service: 's' }));
      const c = new GovernanceClient({ fetch });
      assert.equal(c.baseURL, 'http://env.test/api/v1');
      await c.info();
      assert.equal(calls[0].headers.get('authorization'), 'Bearer dgs_env');
      assert.equal(calls[0].url.href, 'http://env.test/api/v1');
    } finally {
      restore('GOVERNANCE_URL', saved.url);
      restore('GOVERNANCE_TOKEN', saved.token);
    }
  });

  test('without an address it talks to http://localhost:8080', () => {
    const saved = process.env.GOVERNANCE_URL;
    delete process.env.GOVERNANCE_URL;
    try {
      assert.equal(new GovernanceClient({ token: null }).baseURL, 'http://localhost:8080/api/v1');
    } finally {
      restore('GOVERNANCE_URL', saved);
    }
  });

  test('documented defaults; bad numbers are refused', () => {
    const c = new GovernanceClient({ baseURL: BASE, token: null });
    assert.equal(c.timeoutMs, 60_000);
    assert.equal(c.maxRetries, 2);
    assert.throws(() => new GovernanceClient({ baseURL: BASE, maxRetries: -1 }), RangeError);
    assert.throws(() => new GovernanceClient({ baseURL: BASE, timeoutMs: 0 }), RangeError);
    assert.throws(() => new GovernanceClient({ baseURL: 'ftp://x' }), TypeError);
  });

  test('token null sends no Authorization header', async () => {
    const { fetch, calls } = scripted(json(200, {}));
    await client(fetch, { token: null }).client.openapi();
    assert.equal(calls[0].headers.get('authorization'), null);
    assert.equal(calls[0].url.pathname, '/api/v1/openapi.json');
  });
});

describe('requests', () => {
  test('ids are one encoded path segment', async () => {
    const { fetch, calls } = scripted(json(200, ASSET));
    await client(fetch).client.assets.get('s3://lake/raw/(x),$#');
    assert.equal(calls[0].url.pathname, '/api/v1/assets/s3%3A%2F%2Flake%2Fraw%2F%28x%29%2C%24%23');
  });

  test('filters: repeated tags, booleans, nothing for undefined', async () => {
    const { fetch, calls } = scripted(json(200, { items: [], next_cursor: null }));
    await client(fetch).client.assets.list({ tag: ['pii', 'gold'], placeholder: false, owner: undefined, limit: 5 });
    assert.equal(calls[0].url.search, '?tag=pii&tag=gold&placeholder=false&limit=5');
  });

  test('PATCH is a merge patch and ifMatch becomes a quoted ETag', async () => {
    const { fetch, calls } = scripted(json(200, ASSET));
    await client(fetch).client.assets.patch('a', { description: null }, { ifMatch: 3 });
    assert.equal(calls[0].init.method, 'PATCH');
    assert.equal(calls[0].headers.get('content-type'), 'application/merge-patch+json');
    assert.equal(calls[0].headers.get('if-match'), '"3"');
    assert.equal(calls[0].body, '{"description":null}');
  });

  test('ifMatch accepts an ETag or * as it is', async () => {
    const { fetch, calls } = scripted(new Response(null, { status: 204 }));
    const { client: c } = client(fetch);
    await c.assets.delete('a', { ifMatch: '"7"' });
    await c.assets.delete('a', { ifMatch: '*' });
    assert.deepEqual(calls.map((x) => x.headers.get('if-match')), ['"7"', '*']);
  });

  test('204 resolves to undefined; withResponse gives status and request id', async () => {
    const { fetch } = scripted(new Response(null, { status: 204 }), json(201, ASSET));
    const { client: c } = client(fetch);
    assert.equal(await c.lineage.deleteEdge('a', 'b'), undefined);
    const { data, status, requestId, headers } = await c.assets.put('a', ASSET).withResponse();
    assert.deepEqual(data, ASSET);
    assert.equal(status, 201);
    assert.equal(requestId, 'req-1');
    assert.ok(headers instanceof Headers);
  });

  test('strict travels in the query string', async () => {
    const { fetch, calls } = scripted(json(201, {}));
    await client(fetch).client.lineage.create({ source: 'a', target: 'b' }, { strict: true });
    assert.equal(calls[0].url.search, '?strict=true');
  });
});

describe('errors', () => {
  test('a problem becomes the matching class with status, code, requestId and body', async () => {
    const { fetch } = scripted(problem(404, 'asset_not_found'));
    const err = await client(fetch).client.assets.get('nope').catch((e) => e);
    assert.ok(err instanceof NotFoundError);
    assert.equal(err.status, 404);
    assert.equal(err.code, 'asset_not_found');
    assert.equal(err.requestId, 'req-42');
    assert.equal(err.kind, 'not_found');
    assert.equal(err.problem.instance, '/api/v1/x');
    assert.match(err.message, /404 asset_not_found: detail of asset_not_found \(request id req-42\)/);
  });

  test('422 exposes the field errors', async () => {
    const errors = [{ loc: ['body', 'name'], msg: 'Field required', type: 'missing' }];
    const { fetch } = scripted(problem(422, 'validation_error', { errors }));
    const err = await client(fetch).client.assets.create({}).catch((e) => e);
    assert.ok(err instanceof ValidationError);
    assert.deepEqual(err.errors, errors);
  });

  test('a body that is not JSON still gives a ServerError with the header request id', async () => {
    const { fetch } = scripted(new Response('Bad gateway', { status: 502, headers: { 'x-request-id': 'r9' } }));
    const err = await client(fetch, { maxRetries: 0 }).client.info().catch((e) => e);
    assert.ok(err instanceof ServerError);
    assert.equal(err.code, null);
    assert.equal(err.requestId, 'r9');
    assert.match(err.message, /502: Bad gateway/);
  });

  test('a 2xx body that is not JSON is a GovernanceError', async () => {
    const { fetch } = scripted(new Response('<html>', { status: 200 }));
    await assert.rejects(client(fetch).client.info(), GovernanceError);
  });
});

describe('retries', () => {
  test('a GET is retried on 503 after Retry-After, then succeeds', async () => {
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable', {}, { 'retry-after': '2' }), json(200, ASSET));
    const { client: c, sleeps } = client(fetch);
    assert.deepEqual(await c.assets.get('a'), ASSET);
    assert.equal(calls.length, 2);
    assert.deepEqual(sleeps, [2000]);
  });

  test('gives up after maxRetries with the last error', async () => {
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable'));
    const { client: c, sleeps } = client(fetch, { maxRetries: 2 });
    const err = await c.assets.get('a').catch((e) => e);
    assert.ok(err instanceof UnavailableError);
    assert.equal(calls.length, 3);
    assert.equal(sleeps.length, 2);
    assert.ok(sleeps[0] >= 0 && sleeps[0] <= 500, `first wait ${sleeps[0]}`);
    assert.ok(sleeps[1] >= 0 && sleeps[1] <= 1000, `second wait ${sleeps[1]}`);
  });

  test('every POST carries one Idempotency-Key, the same on each attempt', async () => {
    const { fetch, calls } = scripted(problem(500, 'internal_error'), problem(429, 'rate_limited', {}, { 'retry-after': '0' }), json(201, ASSET));
    const { client: c, sleeps } = client(fetch);
    await c.assets.create({ id: 'a', name: 'A', type: 'table' });
    const keys = calls.map((x) => x.headers.get('idempotency-key'));
    assert.equal(keys.length, 3);
    assert.match(keys[0], /^[0-9a-f-]{36}$/);
    assert.equal(new Set(keys).size, 1);
    assert.equal(sleeps[1], 0);
  });

  test('a 409 is never retried', async () => {
    const { fetch, calls } = scripted(problem(409, 'already_exists'));
    await assert.rejects(client(fetch).client.assets.create({ id: 'a' }), ConflictError);
    assert.equal(calls.length, 1);
  });

  test('4xx other than 429 is not retried', async () => {
    const { fetch, calls } = scripted(problem(412, 'precondition_failed'));
    await assert.rejects(client(fetch).client.assets.put('a', {}, { ifMatch: 1 }), PreconditionFailedError);
    assert.equal(calls.length, 1);
  });

  test('PATCH is retried only with an Idempotency-Key of the caller', async () => {
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable'));
    const { client: c } = client(fetch);
    await assert.rejects(c.assets.patch('a', {}), UnavailableError);
    assert.equal(calls.length, 1);
    assert.equal(calls[0].headers.get('idempotency-key'), null);
    await assert.rejects(c.assets.patch('a', {}, { idempotencyKey: 'k-1', maxRetries: 1 }), UnavailableError);
    assert.equal(calls.length, 3);
    assert.equal(calls[2].headers.get('idempotency-key'), 'k-1');
  });

  test('token and webhook creation get no automatic key and are never retried', async () => {
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable'));
    const { client: c } = client(fetch);
    await assert.rejects(c.tokens.create({ name: 'n', scopes: ['read'] }), UnavailableError);
    await assert.rejects(c.webhooks.create({ url: 'https://example.com/h' }), UnavailableError);
    // the service keeps no answer holding a secret, so even a key does not make a repeat safe
    await assert.rejects(c.tokens.create({ name: 'n', scopes: ['read'] }, { idempotencyKey: 'k' }), UnavailableError);
    assert.equal(calls.length, 3);
    assert.deepEqual(calls.map((x) => x.headers.get('idempotency-key')), [null, null, 'k']);
  });

  test('with maxRetries 0 a POST gets no key', async () => {
    const { fetch, calls } = scripted(json(201, {}));
    await client(fetch, { maxRetries: 0 }).client.lineage.create({ source: 'a', target: 'b' });
    assert.equal(calls[0].headers.get('idempotency-key'), null);
  });

  test('a Retry-After beyond 60 s is waited for 60 s only', async () => {
    const { fetch, calls } = scripted(problem(429, 'rate_limited', {}, { 'retry-after': '120' }));
    const { client: c, sleeps } = client(fetch, { maxRetries: 1 });
    const err = await c.assets.get('a').catch((e) => e);
    assert.equal(err.retryAfter, 120);
    assert.equal(calls.length, 2);
    assert.deepEqual(sleeps, [60_000]);
  });

  test('a 408 is retried like a 5xx; a bare POST is not', async () => {
    const { fetch, calls } = scripted(problem(408, 'request_timeout'), json(200, ASSET));
    const { client: c } = client(fetch);
    assert.deepEqual(await c.assets.get('a'), ASSET);
    assert.equal(calls.length, 2);
    const once = scripted(problem(408, 'request_timeout'));
    await assert.rejects(client(once.fetch, { maxRetries: 0 }).client.assets.create({ id: 'a' }));
    assert.equal(once.calls.length, 1);
  });

  test('requestId is sent as X-Request-ID', async () => {
    const { fetch, calls } = scripted(json(200, ASSET));
    await client(fetch).client.assets.get('a', { requestId: 'trace-7' });
    assert.equal(calls[0].headers.get('x-request-id'), 'trace-7');
  });

  test('connection errors are retried, then raised as ConnectionError', async () => {
    const { fetch, calls } = scripted(() => {
      throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    });
    const err = await client(fetch, { maxRetries: 1 }).client.assets.get('a').catch((e) => e);
    assert.ok(err instanceof ConnectionError);
    assert.ok(!(err instanceof TimeoutError));
    assert.match(err.message, /ECONNREFUSED/);
    assert.equal(calls.length, 2);
  });

  test('no answer within timeoutMs is a TimeoutError', async () => {
    const hang = (_url, init) =>
      new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason)));
    const { fetch, calls } = scripted(hang);
    const err = await client(fetch, { timeoutMs: 20, maxRetries: 1 }).client.info().catch((e) => e);
    assert.ok(err instanceof TimeoutError, String(err));
    assert.ok(err instanceof ConnectionError);
    assert.equal(calls.length, 2);
  });

  test("the caller's abort stops at once and is not retried", async () => {
    const hang = (_url, init) =>
      new Promise((_, reject) => init.signal.addEventListener('abort', () => reject(init.signal.reason)));
    const { fetch, calls } = scripted(hang);
    const controller = new AbortController();
    const pending = client(fetch).client.info({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await assert.rejects(pending, /stop/);
    assert.equal(calls.length, 1);
  });

  test('backoff: full jitter under 0.5 s x 2^n, capped at 8 s; Retry-After capped at 60 s', () => {
    assert.equal(retryDelayMs({ attempt: 0, random: () => 1 }), 500);
    assert.equal(retryDelayMs({ attempt: 0, random: () => 0 }), 0);
    assert.equal(retryDelayMs({ attempt: 1, random: () => 0.5 }), 500);
    assert.equal(retryDelayMs({ attempt: 3, random: () => 1 }), 4000);
    assert.equal(retryDelayMs({ attempt: 10, random: () => 1 }), 8000);
    assert.equal(retryDelayMs({ attempt: 0, retryAfter: 3 }), 3000);
    assert.equal(retryDelayMs({ attempt: 0, retryAfter: 61 }), 60_000);
  });
});

describe('paging and bulk', () => {
  test('iterate follows next_cursor and keeps the filters', async () => {
    const { fetch, calls } = scripted(
      json(200, { items: [{ id: '1' }, { id: '2' }], next_cursor: 'c1' }),
      json(200, { items: [{ id: '3' }], next_cursor: 'c2' }),
      json(200, { items: [], next_cursor: null }),
    );
    const ids = [];
    for await (const asset of client(fetch).client.assets.iterate({ q: 'x', limit: 2 })) ids.push(asset.id);
    assert.deepEqual(ids, ['1', '2', '3']);
    assert.deepEqual(calls.map((c) => c.url.search), ['?q=x&limit=2', '?q=x&limit=2&cursor=c1', '?q=x&limit=2&cursor=c2']);
  });

  test('pushBulk chunks any iterable and sums the answers', async () => {
    const { fetch, calls } = scripted((_url, init) => {
      const n = JSON.parse(init.body).length;
      return json(200, { received: n, created: n - 1, existing: 1, assets_created: 2 });
    });
    async function* edges() {
      for (let i = 0; i < 7; i++) yield { source: `s${i}`, target: `t${i}` };
    }
    const seen = [];
    const total = await client(fetch).client.lineage.pushBulk(edges(), {
      chunkSize: 3,
      strict: true,
      onChunk: (r, i) => seen.push([i, r.received]),
    });
    assert.deepEqual(total, { received: 7, created: 4, existing: 3, assets_created: 6, requests: 3 });
    assert.deepEqual(seen, [[0, 3], [1, 3], [2, 1]]);
    assert.deepEqual(calls.map((c) => JSON.parse(c.body).length), [3, 3, 1]);
    assert.ok(calls.every((c) => c.url.search === '?strict=true'));
    // Edges are merged, so the requests go without an Idempotency-Key.
    assert.ok(calls.every((c) => c.headers.get('idempotency-key') === null));
  });

  test('bulk is retried without an Idempotency-Key, as the service merges edges', async () => {
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable'), json(200, { received: 1 }));
    const { client: c } = client(fetch);
    assert.deepEqual(await c.lineage.bulk([{ source: 'a', target: 'b' }]), { received: 1 });
    assert.equal(calls.length, 2);
    assert.deepEqual(calls.map((x) => x.headers.get('idempotency-key')), [null, null]);
    await c.lineage.bulk([{ source: 'a', target: 'b' }], { idempotencyKey: 'k-7' });
    assert.equal(calls[2].headers.get('idempotency-key'), 'k-7');
  });

  test('pushBulk of nothing sends nothing; bad options are refused', async () => {
    const { fetch, calls } = scripted(json(200, {}));
    const { client: c } = client(fetch);
    assert.deepEqual(await c.lineage.pushBulk([]), { received: 0, created: 0, existing: 0, assets_created: 0, requests: 0 });
    await assert.rejects(c.lineage.pushBulk([{}], { chunkSize: 0 }), RangeError);
    await assert.rejects(c.lineage.pushBulk([{}], { idempotencyKey: 'k' }), TypeError);
    assert.equal(calls.length, 0);
  });

  test('an empty id is refused before any request', () => {
    const { fetch } = scripted(json(200, {}));
    assert.throws(() => client(fetch).client.assets.get(''), TypeError);
  });
});

describe('manifest upload and events', () => {
  const summary = {
    project: 'p',
    dbt_version: '1.8.10',
    dbt_schema_version: 'v12',
    assets: { created: 1, updated: 0 },
    edges: { created: 1, existing: 0, removed: 0 },
    quality_rules: { created: 0, updated: 0, removed: 0 },
    skipped: [],
    warnings: [],
  };

  test('uploadManifest gzips the bytes and sends project and prune', async () => {
    const { fetch, calls } = scripted(json(200, summary));
    const { client: c } = client(fetch);
    const raw = Buffer.from('{"metadata":{}}');
    const { data, status } = await c.lineage.uploadManifest(raw, { project: 'p' }).withResponse();
    assert.deepEqual(data, summary);
    assert.equal(status, 200);
    const [call] = calls;
    assert.equal(call.init.method, 'POST');
    assert.equal(call.url.pathname, '/api/v1/lineage/manifest');
    assert.equal(call.url.searchParams.get('project'), 'p');
    assert.equal(call.url.searchParams.get('prune'), 'true');
    assert.equal(call.headers.get('content-type'), 'application/json');
    assert.equal(call.headers.get('content-encoding'), 'gzip');
    assert.ok(call.headers.get('idempotency-key'));
    assert.deepEqual(gunzipSync(call.body), raw);
  });

  test('already gzipped bytes go as they are; retried on 503 with one key', async () => {
    const { fetch, calls } = scripted(problem(503, 'unavailable'), json(200, summary));
    const { client: c } = client(fetch);
    const gz = gzipSync(Buffer.from('{}'));
    await c.lineage.uploadManifest(new Uint8Array(gz), { project: 'p', prune: false });
    assert.equal(calls.length, 2);
    assert.deepEqual(Buffer.from(calls[1].body), gz);
    assert.equal(calls[1].url.searchParams.get('prune'), 'false');
    assert.equal(calls[0].headers.get('idempotency-key'), calls[1].headers.get('idempotency-key'));
  });

  test('uploadManifest refuses what is neither a path nor bytes', async () => {
    const { fetch } = scripted(json(200, summary));
    const { client: c } = client(fetch);
    await assert.rejects(c.lineage.uploadManifest(42, { project: 'p' }), TypeError);
  });

  test('events.list joins types; iterate follows next_cursor', async () => {
    const { fetch, calls } = scripted(
      json(200, { items: [{ seq: 1 }, { seq: 2 }], next_cursor: 'c2' }),
      json(200, { items: [{ seq: 3 }], next_cursor: null }),
    );
    const { client: c } = client(fetch);
    const seen = [];
    for await (const e of c.events.iterate({ after: 0, types: ['asset.*', 'lineage.manifest.ingested'] })) {
      seen.push(e.seq);
    }
    assert.deepEqual(seen, [1, 2, 3]);
    assert.equal(calls[0].url.pathname, '/api/v1/events');
    assert.equal(calls[0].url.searchParams.get('types'), 'asset.*,lineage.manifest.ingested');
    assert.equal(calls[0].url.searchParams.get('after'), '0');
    assert.equal(calls[0].url.searchParams.get('cursor'), null);
    assert.equal(calls[1].url.searchParams.get('cursor'), 'c2');
    assert.equal(calls[1].url.searchParams.get('types'), 'asset.*,lineage.manifest.ingested');
  });
});

describe('authentication header', () => {
  test('401 maps to AuthenticationError', async () => {
    const { fetch } = scripted(problem(401, 'invalid_token'));
    await assert.rejects(client(fetch).client.tokens.list(), AuthenticationError);
  });
});

function restore(name, value) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}

describe('version', () => {
  test('VERSION is the package version, and every request says it', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    assert.equal(VERSION, pkg.version);
    const { fetch, calls } = scripted(json(200, {}));
    await client(fetch).client.info();
    assert.match(calls[0].headers.get('user-agent'), new RegExp(`^governance-client-js/${pkg.version} node/`));
  });
});
