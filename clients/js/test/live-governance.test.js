// Policies, quality rules, dbt run results and queries against a running service:
// GOVERNANCE_URL and GOVERNANCE_TOKEN (an admin token). Other tests share the
// database, so every id starts with a random prefix, every policy governs only
// that prefix, and what a test makes is removed afterwards.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';

import {
  GovernanceClient,
  NotFoundError,
  PermissionError,
  PreconditionFailedError,
  ValidationError,
} from '../index.js';
import { liveSuite } from './live-support.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const DBT_QUALITY = path.join(repoRoot, 'tests', 'fixtures', 'dbt_quality');
// A test that fails in run_results_failing.json (its `failures` is 1).
const FAILING_TEST = 'test.quality_shop.not_null_orders_customer_id.c5f02694af';

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const prefix = `jsgov-${randomUUID()}`;
  const client = new GovernanceClient({ baseURL, token });
  const policies = [];

  after(async () => {
    for (const id of policies) await client.policies.delete(id).catch(() => undefined);
    const mine = [];
    for await (const asset of client.assets.iterate({ q: prefix, limit: 500 })) mine.push(asset.id);
    // One at a time: deleting linked assets together only makes the database retry.
    for (const id of mine) await client.assets.delete(id).catch(() => undefined);
  });

  /** Assets `<prefix>.<test>.root -> a -> b -> c`, made for one test. */
  async function chain(name) {
    const ids = ['root', 'a', 'b', 'c'].map((n) => `${prefix}.${name}.${n}`);
    for (const id of ids) await client.assets.create({ id, name: id, type: 'table', platform: 'postgres' });
    await client.lineage.bulk(ids.slice(1).map((target, i) => ({ source: ids[i], target })));
    return ids;
  }

  async function evaluationOf(policyId) {
    const summary = await client.policies.evaluate();
    assert.ok(summary.evaluated_at);
    const mine = summary.policies.filter((p) => p.policy_id === policyId);
    assert.equal(mine.length, 1, `${policyId} was not evaluated`);
    return mine[0];
  }

  async function all(iterable) {
    const items = [];
    for await (const item of iterable) items.push(item);
    return items;
  }

  describe('policies', () => {
    test('an asset without an owner violates require_owner until it gets one', async () => {
      const scope = `${prefix}.owners`;
      const [orders, customers] = [`${scope}.orders`, `${scope}.customers`];
      await client.assets.create({ id: orders, name: 'Orders', type: 'table' });
      await client.assets.create({ id: customers, name: 'Customers', type: 'table', owners: ['crm'] });
      const created = await client.policies
        .create({ name: `${scope} have owners`, kind: 'require_owner', selector: { id_prefix: scope }, severity: 'high' })
        .withResponse();
      const policy = created.data;
      policies.push(policy.id);
      assert.equal(created.status, 201);
      assert.equal(created.headers.get('etag'), '"1"');
      assert.match(policy.id, /^pol_/);
      assert.deepEqual([policy.kind, policy.severity, policy.enabled, policy.version], ['require_owner', 'high', true, 1]);

      assert.equal((await evaluationOf(policy.id)).violations, 1);
      const found = await all(client.policies.iterateViolations(policy.id));
      assert.deepEqual(found.map((v) => v.asset_id), [orders]);
      assert.ok(found[0].reason);
      const page = await client.policies.listViolations(policy.id, { limit: 1 });
      assert.equal(page.policy_id, policy.id);
      assert.ok(page.evaluated_at);
      assert.equal(page.next_cursor, null);

      await client.assets.patch(orders, { owners: ['sales'] });
      // The service also evaluates in the background after a change, so which
      // evaluation resolved the violation is not told; the outcome is.
      assert.equal((await evaluationOf(policy.id)).violations, 0);
      assert.deepEqual(await all(client.policies.iterateViolations(policy.id)), []);
    });

    test('get, list, patch, replace and delete, guarded by ifMatch', async () => {
      const scope = `${prefix}.crud`;
      const policy = await client.policies.create({
        name: `${scope} pii propagates`,
        kind: 'tag_propagation',
        selector: { id_prefix: scope },
        params: { tag: 'PII' },
        enabled: false,
      });
      policies.push(policy.id);
      assert.deepEqual(policy.params, { tag: 'pii' }); // no max_depth: as deep as the service allows
      assert.deepEqual(await client.policies.get(policy.id), policy);
      const listed = await all(client.policies.iterate({ kind: 'tag_propagation', enabled: false }));
      assert.ok(listed.some((p) => p.id === policy.id));

      const patched = await client.policies.patch(policy.id, { severity: 'critical' }, { ifMatch: 1 });
      assert.deepEqual([patched.severity, patched.version], ['critical', 2]);
      await assert.rejects(
        client.policies.replace(policy.id, { name: 'stale', kind: 'require_description' }, { ifMatch: 1 }),
        PreconditionFailedError,
      );
      const replaced = await client.policies.replace(
        policy.id,
        { name: `${scope} documented`, kind: 'require_description', selector: { id_prefix: scope }, enabled: false },
        { ifMatch: 2 },
      );
      assert.deepEqual([replaced.kind, replaced.params, replaced.severity], ['require_description', {}, 'medium']);
      await assert.rejects(client.policies.delete(policy.id, { ifMatch: 2 }), PreconditionFailedError);
      assert.equal(await client.policies.delete(policy.id, { ifMatch: replaced.version }), undefined);
      await assert.rejects(client.policies.get(policy.id), NotFoundError);
    });

    test('a bad kind or a missing param is a ValidationError naming the field', async () => {
      const bad = await client.policies.create({ name: `${prefix} magic`, kind: 'require_magic' }).catch((e) => e);
      assert.ok(bad instanceof ValidationError, String(bad));
      assert.deepEqual([bad.status, bad.code], [422, 'validation_error']);
      assert.ok(bad.errors.some((e) => e.loc.join('.') === 'body.kind'), JSON.stringify(bad.errors));
      const missing = await client.policies
        .create({ name: `${prefix} no tag`, kind: 'tag_propagation', params: {} })
        .catch((e) => e);
      assert.ok(missing instanceof ValidationError, String(missing));
      assert.ok(missing.errors.some((e) => e.loc.join('.') === 'body.params.tag'), JSON.stringify(missing.errors));
    });
  });

  describe('quality', () => {
    test('a failing result turns the rule failing and stays in its history', async () => {
      const asset = `${prefix}/s3://lake/orders.parquet`;
      await client.assets.create({ id: asset, name: 'Orders', type: 'file' });
      const rule = await client.quality.create({
        asset_id: asset,
        name: 'order id not null',
        type: 'not_null',
        column: 'order_id',
        severity: 'error',
      });
      assert.match(rule.id, /^qr_/);
      assert.deepEqual([rule.status, rule.last_result, rule.version], ['unknown', null, 1]);

      const earlier = new Date(Date.now() - 5 * 60_000);
      const passed = await client.quality.recordResult(rule.id, { status: 'pass', observed_value: 0, run_at: earlier });
      assert.deepEqual([passed.status, passed.rule_id, passed.source], ['pass', rule.id, 'api']);
      const failed = await client.quality.recordResult(rule.id, { status: 'fail', observed_value: 3, message: '3 null rows' });
      const now = await client.quality.get(rule.id);
      assert.equal(now.status, 'failing');
      assert.equal(now.last_result.status, 'fail');
      const failing = await client.quality.list({ asset_id: asset, status: 'failing' });
      assert.deepEqual(failing.items.map((r) => r.id), [rule.id]);

      const history = await all(client.quality.iterateResults(rule.id, { limit: 1 }));
      assert.deepEqual(history.map((r) => [r.id, r.status]), [[failed.id, 'fail'], [passed.id, 'pass']]);
      assert.deepEqual([history[0].observed_value, history[0].message], [3, '3 null rows']);

      const patched = await client.quality.patch(rule.id, { severity: 'warn' }, { ifMatch: 1 });
      assert.deepEqual([patched.severity, patched.status, patched.version], ['warn', 'failing', 2]);
      const replaced = await client.quality.replace(
        rule.id,
        { asset_id: asset, name: 'order id unique', type: 'unique', column: 'order_id' },
        { ifMatch: 2 },
      );
      assert.deepEqual([replaced.type, replaced.status], ['unique', 'failing']);
      await client.quality.delete(rule.id, { ifMatch: replaced.version });
      await assert.rejects(client.quality.get(rule.id), NotFoundError);
    });

    test('a dbt run records failures against the rules the manifest made', async () => {
      const manifest = await client.lineage.uploadManifest(path.join(DBT_QUALITY, 'manifest.json'), {
        project: 'quality_shop',
      });
      assert.equal(manifest.project, 'quality_shop');
      assert.equal((await client.quality.get(FAILING_TEST)).asset_id, 'model.quality_shop.orders');

      const file = path.join(DBT_QUALITY, 'run_results_failing.json');
      // Recorded the first time; later runs find its invocation recorded already.
      const asMade = await client.quality.uploadDbtResults(file);
      assert.equal(asMade.received, 24);
      assert.equal(asMade.recorded + asMade.duplicates, 24);

      // Other runs of these tests uploaded this file before, and the service records
      // an invocation once and keeps each rule's newest result by time: make the
      // rule pass now, then send the failing run again as a newer invocation.
      const now = Date.now();
      await client.quality.recordResult(FAILING_TEST, { status: 'pass', run_at: new Date(now - 1000) });
      assert.equal((await client.quality.get(FAILING_TEST)).status, 'passing');
      const fresh = JSON.parse(readFileSync(file, 'utf8'));
      fresh.metadata.invocation_id = randomUUID();
      fresh.metadata.generated_at = new Date(now).toISOString();
      for (const result of fresh.results) result.timing = [];
      const summary = await client.quality.uploadDbtResults(fresh);
      assert.ok(summary.failed.length > 0, JSON.stringify(summary));
      assert.ok(summary.failed.includes(FAILING_TEST));
      assert.deepEqual([summary.received, summary.recorded, summary.duplicates, summary.unmatched], [24, 24, 0, []]);

      assert.equal((await client.quality.get(FAILING_TEST)).status, 'failing');
      const [newest] = (await client.quality.listResults(FAILING_TEST, { limit: 1 })).items;
      assert.equal(newest.source, `dbt:${fresh.metadata.invocation_id}`);
      assert.deepEqual([newest.status, newest.observed_value], ['fail', 1]);

      const again = await client.quality.uploadDbtResults(Buffer.from(JSON.stringify(fresh)));
      assert.deepEqual([again.recorded, again.duplicates, again.failed], [0, 24, []]);
    });
  });

  describe('query', () => {
    test('downstream nodes page one at a time, and count', async () => {
      const [root, ...downstream] = await chain('paged');
      const body = {
        start: { ids: [root] },
        traverse: { direction: 'downstream', max_depth: 5 },
        return: 'nodes',
        limit: 1,
      };
      const first = await client.query.run(body);
      assert.deepEqual(first.nodes.map((n) => n.id), downstream.slice(0, 1));
      assert.ok(first.next_cursor);

      const pages = await all(client.query.pages(body));
      assert.equal(pages.length, 3);
      assert.equal(pages[2].next_cursor, null);
      const nodes = await all(client.query.iterate(body));
      assert.deepEqual(nodes.map((n) => [n.id, n.distance]), downstream.map((id, i) => [id, i + 1]));

      const counted = await client.query.run({ ...body, return: 'count' });
      assert.deepEqual(counted, { count: 3, next_cursor: null });
      const edges = await all(client.query.iterate({ ...body, return: 'edges', traverse: { direction: 'downstream', min_depth: 0 } }));
      assert.equal(edges.length, 3);
      const shortest = await client.query.run({ path: { from: root, to: downstream[2] } });
      assert.deepEqual(shortest.paths, [[root, ...downstream]]);

      const err = await client.query.run({ start: { ids: [root] }, traverse: { depth: 2 } }).catch((e) => e);
      assert.ok(err instanceof ValidationError, String(err));
      assert.ok(err.errors.some((e) => e.loc.join('.') === 'body.traverse.depth'), JSON.stringify(err.errors));
    });

    test('cypher answers rows, truncates at limit, refuses writes', async () => {
      const ids = await chain('cypher');
      const text = 'MATCH (a:Asset) WHERE a.id STARTS WITH $prefix RETURN a.id AS id ORDER BY id';
      const parameters = { prefix: `${prefix}.cypher.` };
      const answer = await client.query.cypher(text, { parameters });
      assert.deepEqual(answer, { columns: ['id'], rows: [...ids].sort().map((id) => [id]), truncated: false });
      const capped = await client.query.cypher(text, { parameters, limit: 2 });
      assert.deepEqual([capped.rows.length, capped.truncated], [2, true]);

      const err = await client.query
        .cypher('MATCH (a:Asset {id: $id}) DETACH DELETE a', { parameters: { id: ids[0] } })
        .catch((e) => e);
      assert.ok(err instanceof ValidationError, String(err));
      assert.equal(err.code, 'forbidden_query');
      assert.equal((await client.assets.get(ids[0])).id, ids[0]);
    });

    test('cypher needs the admin scope; a write token still queries', async () => {
      const [root] = await chain('scope');
      const created = await client.tokens.create({ name: `${prefix}-writer`, scopes: ['write'], expires_in_days: 1 });
      try {
        const writer = new GovernanceClient({ baseURL, token: created.token, maxRetries: 0 });
        const counted = await writer.query.run({ start: { ids: [root] }, traverse: { direction: 'downstream' }, return: 'count' });
        assert.equal(counted.count, 3);
        const err = await writer.query.cypher('RETURN 1 AS one').catch((e) => e);
        assert.ok(err instanceof PermissionError, String(err));
        assert.deepEqual([err.status, err.code], [403, 'insufficient_scope']);
      } finally {
        await client.tokens.revoke(created.id);
      }
    });
  });
}
