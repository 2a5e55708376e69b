// Policies, quality rules and queries against a scripted fetch: what goes on the
// wire, how pages are followed, which calls are retried and how. No network.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { gunzipSync, gzipSync } from 'node:zlib';

import { ConnectionError, UnavailableError, ValidationError } from '../index.js';
import { client, json, problem, scripted } from './support.js';

const POLICY = { id: 'pol_1', name: 'owners', kind: 'require_owner', version: 1 };
const RULE = { id: 'qr_1', asset_id: 'a', name: 'n', type: 'not_null', version: 1 };
const sent = (call) => JSON.parse(call.body);

describe('policies', () => {
  test('create posts the policy with an Idempotency-Key', async () => {
    const { fetch, calls } = scripted(json(201, POLICY));
    const policy = { name: 'owners', kind: 'require_owner', selector: { type: ['table', 'view'] }, severity: 'high' };
    assert.deepEqual(await client(fetch).client.policies.create(policy), POLICY);
    assert.equal(calls[0].init.method, 'POST');
    assert.equal(calls[0].url.pathname, '/api/v1/policies');
    assert.match(calls[0].headers.get('idempotency-key'), /^[0-9a-f-]{36}$/);
    assert.deepEqual(sent(calls[0]), policy);
  });

  test('iterate filters by kind and enabled and follows next_cursor', async () => {
    const { fetch, calls } = scripted(
      json(200, { items: [{ id: 'pol_1' }], next_cursor: 'c1' }),
      json(200, { items: [{ id: 'pol_2' }], next_cursor: null }),
    );
    const seen = [];
    for await (const p of client(fetch).client.policies.iterate({ kind: 'restricted_flow', enabled: false, limit: 1 })) {
      seen.push(p.id);
    }
    assert.deepEqual(seen, ['pol_1', 'pol_2']);
    assert.equal(calls[0].url.search, '?kind=restricted_flow&enabled=false&limit=1');
    assert.equal(calls[1].url.search, '?kind=restricted_flow&enabled=false&limit=1&cursor=c1');
  });

  test('replace, patch and delete carry ifMatch', async () => {
    const { fetch, calls } = scripted(json(200, POLICY), json(200, POLICY), json(204));
    const { client: c } = client(fetch);
    await c.policies.replace('pol_1', { name: 'n', kind: 'tag_propagation', params: { tag: 'pii' } }, { ifMatch: 1 });
    await c.policies.patch('pol_1', { description: null }, { ifMatch: '"2"' });
    assert.equal(await c.policies.delete('pol_1', { ifMatch: 3 }), undefined);
    assert.deepEqual(calls.map((x) => [x.init.method, x.url.pathname, x.headers.get('if-match')]), [
      ['PUT', '/api/v1/policies/pol_1', '"1"'],
      ['PATCH', '/api/v1/policies/pol_1', '"2"'],
      ['DELETE', '/api/v1/policies/pol_1', '"3"'],
    ]);
    assert.equal(calls[1].headers.get('content-type'), 'application/merge-patch+json');
    assert.deepEqual(sent(calls[1]), { description: null });
  });

  test('violations follow next_cursor over the violations list', async () => {
    const page = (ids, next) => ({
      policy_id: 'pol/1',
      evaluated_at: '2026-01-01T00:00:00.000Z',
      violations: ids.map((asset_id) => ({ asset_id, reason: 'no owner' })),
      next_cursor: next,
    });
    const { fetch, calls } = scripted(json(200, page(['a', 'b'], 'c1')), json(200, page(['c'], null)));
    const { client: c } = client(fetch);
    const seen = [];
    for await (const v of c.policies.iterateViolations('pol/1', { limit: 2 })) seen.push(v.asset_id);
    assert.deepEqual(seen, ['a', 'b', 'c']);
    assert.equal(calls[0].url.pathname, '/api/v1/policies/pol%2F1/violations');
    assert.equal(calls[1].url.search, '?limit=2&cursor=c1');
    assert.throws(() => c.policies.iterateViolations(''), TypeError);
  });

  test('evaluate posts nothing, with a key, and is retried with the same key', async () => {
    const summary = { evaluated_at: 't', policies: [{ policy_id: 'pol_1', violations: 0, opened: 0, resolved: 1 }] };
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable', {}, { 'retry-after': '1' }), json(200, summary));
    const { client: c, sleeps } = client(fetch);
    assert.deepEqual(await c.policies.evaluate(), summary);
    assert.equal(calls[0].url.pathname, '/api/v1/policies/evaluate');
    assert.equal(calls[0].body, undefined);
    assert.equal(calls[0].headers.get('content-type'), null);
    assert.equal(calls[0].headers.get('idempotency-key'), calls[1].headers.get('idempotency-key'));
    assert.deepEqual(sleeps, [1000]);
  });

  test('a bad kind is a ValidationError naming body.kind, not retried', async () => {
    const errors = [{ loc: ['body', 'kind'], msg: 'Input should be ...', type: 'literal_error' }];
    const { fetch, calls } = scripted(problem(422, 'validation_error', { errors }));
    const err = await client(fetch).client.policies.create({ name: 'x', kind: 'require_magic' }).catch((e) => e);
    assert.ok(err instanceof ValidationError, String(err));
    assert.deepEqual(err.errors[0].loc, ['body', 'kind']);
    assert.equal(calls.length, 1);
  });
});

describe('quality', () => {
  test('rules: create, list filters, replace, patch, delete', async () => {
    const { fetch, calls } = scripted(
      json(201, RULE),
      json(200, { items: [], next_cursor: null }),
      json(200, RULE),
      json(200, RULE),
      json(204),
    );
    const { client: c } = client(fetch);
    const rule = { asset_id: 's3://lake/a', name: 'status ok', type: 'accepted_values', column: 'status', params: { values: ['a'] } };
    await c.quality.create(rule);
    await c.quality.list({ asset_id: 's3://lake/a', status: 'failing', type: 'not_null' });
    await c.quality.replace('qr_1', { ...rule, type: 'unique', params: {} }, { ifMatch: 2 });
    await c.quality.patch('qr_1', { severity: 'error' });
    await c.quality.delete('test.shop.unique_orders_id.abc', { ifMatch: '*' });
    assert.deepEqual(sent(calls[0]), rule);
    assert.ok(calls[0].headers.get('idempotency-key'));
    assert.equal(calls[1].url.pathname, '/api/v1/quality/rules');
    assert.equal(calls[1].url.search, '?asset_id=s3%3A%2F%2Flake%2Fa&status=failing&type=not_null');
    assert.deepEqual([calls[2].init.method, calls[2].headers.get('if-match')], ['PUT', '"2"']);
    assert.equal(calls[3].headers.get('content-type'), 'application/merge-patch+json');
    assert.equal(calls[3].headers.get('if-match'), null);
    assert.equal(calls[4].url.pathname, '/api/v1/quality/rules/test.shop.unique_orders_id.abc');
    assert.equal(calls[4].headers.get('if-match'), '*');
  });

  test('recordResult takes a status or a result; a Date run_at becomes RFC 3339', async () => {
    const { fetch, calls } = scripted(json(201, { id: 'r1' }));
    const { client: c } = client(fetch);
    await c.quality.recordResult('qr_1', {
      status: 'pass',
      observed_value: 0,
      message: '',
      run_at: new Date(Date.UTC(2026, 2, 1, 12, 30, 5, 123)),
    });
    await c.quality.recordResult('qr_1', 'error');
    assert.equal(calls[0].url.pathname, '/api/v1/quality/rules/qr_1/results');
    assert.deepEqual(sent(calls[0]), { status: 'pass', observed_value: 0, message: '', run_at: '2026-03-01T12:30:05.123Z' });
    assert.deepEqual(sent(calls[1]), { status: 'error' });
    assert.ok(calls[1].headers.get('idempotency-key'));
  });

  test('results page newest first', async () => {
    const { fetch, calls } = scripted(
      json(200, { items: [{ id: 'r3' }, { id: 'r2' }], next_cursor: 'c1' }),
      json(200, { items: [{ id: 'r1' }], next_cursor: null }),
    );
    const seen = [];
    for await (const r of client(fetch).client.quality.iterateResults('qr_1', { limit: 2 })) seen.push(r.id);
    assert.deepEqual(seen, ['r3', 'r2', 'r1']);
    assert.equal(calls[1].url.search, '?limit=2&cursor=c1');
  });

  test('uploadDbtResults gzips a path, bytes or an object; retried with one key', async () => {
    const summary = { received: 1, recorded: 1, unmatched: [], failed: ['test.a'], recovered: [] };
    const dir = mkdtempSync(path.join(tmpdir(), 'gov-dbt-'));
    const file = path.join(dir, 'run_results.json');
    writeFileSync(file, '{"results":[]}');
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable'), json(200, summary));
    const { client: c } = client(fetch);
    const { data, status } = await c.quality.uploadDbtResults(file).withResponse();
    assert.deepEqual([data, status], [summary, 200]);
    await c.quality.uploadDbtResults({ results: [], metadata: { invocation_id: 'é' } });
    const gz = gzipSync(Buffer.from('{}'));
    await c.quality.uploadDbtResults(gz);
    const [first, second, fromObject, already] = calls;
    assert.equal(first.init.method, 'POST');
    assert.equal(first.url.pathname, '/api/v1/quality/results/dbt');
    assert.equal(first.headers.get('content-type'), 'application/json');
    assert.equal(first.headers.get('content-encoding'), 'gzip');
    assert.equal(first.headers.get('idempotency-key'), second.headers.get('idempotency-key'));
    assert.equal(gunzipSync(second.body).toString(), '{"results":[]}');
    assert.deepEqual(JSON.parse(gunzipSync(fromObject.body)), { results: [], metadata: { invocation_id: 'é' } });
    assert.deepEqual(Buffer.from(already.body), gz);
    await assert.rejects(c.quality.uploadDbtResults(42), TypeError);
    await assert.rejects(c.quality.uploadDbtResults(new Map()), TypeError);
  });
});

describe('query', () => {
  const DOWNSTREAM = {
    start: { ids: ['raw.orders'] },
    traverse: { direction: 'downstream', max_depth: 10 },
    return: 'nodes',
    limit: 1,
  };

  test('run posts the body as it is, with no key', async () => {
    const { fetch, calls } = scripted(json(200, { count: 3, next_cursor: null }));
    const answer = await client(fetch).client.query.run({ ...DOWNSTREAM, return: 'count' });
    assert.deepEqual(answer, { count: 3, next_cursor: null });
    assert.equal(calls[0].url.pathname, '/api/v1/query');
    assert.deepEqual(sent(calls[0]), { ...DOWNSTREAM, return: 'count' });
    assert.equal(calls[0].headers.get('idempotency-key'), null);
  });

  test('a query only reads, so it is retried without a key', async () => {
    let tries = 0;
    const refuse = () => {
      tries += 1;
      throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED', message: 'refused' } });
    };
    const { fetch, calls } = scripted(refuse, problem(503, 'neo4j_unavailable'), json(200, { nodes: [], next_cursor: null }));
    const { client: c, sleeps } = client(fetch);
    assert.deepEqual((await c.query.run(DOWNSTREAM)).nodes, []);
    assert.equal(tries, 1);
    assert.equal(calls.length, 3);
    assert.ok(calls.every((x) => x.headers.get('idempotency-key') === null));
    assert.equal(sleeps.length, 2);
  });

  test('a refused query is not retried and names the field', async () => {
    const errors = [{ loc: ['body', 'traverse', 'depth'], msg: 'extra', type: 'extra_forbidden' }];
    const { fetch, calls } = scripted(problem(422, 'validation_error', { errors }));
    const err = await client(fetch).client.query.run({ start: { ids: ['a'] }, traverse: { depth: 2 } }).catch((e) => e);
    assert.ok(err instanceof ValidationError);
    assert.deepEqual(err.errors[0].loc, ['body', 'traverse', 'depth']);
    assert.equal(calls.length, 1);
  });

  test('pages send the same body with each cursor; iterate yields the items', async () => {
    const answers = [
      json(200, { nodes: [{ id: 'a' }], next_cursor: 'c1' }),
      json(200, { nodes: [{ id: 'b' }], next_cursor: 'c2' }),
      json(200, { nodes: [{ id: 'c' }], next_cursor: null }),
    ];
    const { fetch, calls } = scripted(...answers.map((r) => r.clone()), ...answers);
    const { client: c } = client(fetch);
    const pages = [];
    for await (const page of c.query.pages(DOWNSTREAM)) pages.push(page.nodes[0].id);
    assert.deepEqual(pages, ['a', 'b', 'c']);
    assert.deepEqual(calls.slice(0, 3).map(sent), [DOWNSTREAM, { ...DOWNSTREAM, cursor: 'c1' }, { ...DOWNSTREAM, cursor: 'c2' }]);
    assert.equal(DOWNSTREAM.cursor, undefined);
    const ids = [];
    for await (const node of c.query.iterate(DOWNSTREAM)) ids.push(node.id);
    assert.deepEqual(ids, ['a', 'b', 'c']);
  });

  test('iterate picks paths for a path query; graph and count go through pages', async () => {
    const { fetch, calls } = scripted(json(200, { paths: [['a', 'b']], truncated: false, next_cursor: null }));
    const { client: c } = client(fetch);
    const paths = [];
    for await (const p of c.query.iterate({ path: { from: 'a', to: 'b' } })) paths.push(p);
    assert.deepEqual(paths, [['a', 'b']]);
    assert.throws(() => c.query.iterate({ ...DOWNSTREAM, return: 'graph' }), /pages/);
    assert.throws(() => c.query.iterate({ ...DOWNSTREAM, return: 'count' }), TypeError);
    assert.equal(calls.length, 1);
  });

  test('cypher sends query, parameters and limit; retried as a read', async () => {
    const answer = { columns: ['id'], rows: [['a']], truncated: false };
    const { fetch, calls } = scripted(problem(502, 'bad_gateway'), json(200, answer), json(200, answer));
    const { client: c } = client(fetch);
    assert.deepEqual(await c.query.cypher('MATCH (a:Asset {id: $id}) RETURN a.id AS id', { parameters: { id: 'a' }, limit: 5 }), answer);
    await c.query.cypher('RETURN 1 AS one');
    assert.equal(calls[1].url.pathname, '/api/v1/query/cypher');
    assert.deepEqual(sent(calls[1]), { query: 'MATCH (a:Asset {id: $id}) RETURN a.id AS id', parameters: { id: 'a' }, limit: 5 });
    assert.deepEqual(sent(calls[2]), { query: 'RETURN 1 AS one' });
    assert.equal(calls[1].headers.get('idempotency-key'), null);
    assert.throws(() => c.query.cypher(''), TypeError);
  });

  test('with maxRetries 0 a query is tried once', async () => {
    const { fetch, calls } = scripted(problem(503, 'neo4j_unavailable'));
    await assert.rejects(client(fetch, { maxRetries: 0 }).client.query.cypher('RETURN 1'), UnavailableError);
    assert.equal(calls.length, 1);
    const refused = scripted(() => {
      throw new TypeError('fetch failed');
    });
    await assert.rejects(client(refused.fetch, { maxRetries: 0 }).client.query.run(DOWNSTREAM), ConnectionError);
  });
});
