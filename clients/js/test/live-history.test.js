// Lineage through time, asset history, change impact and origin-owned edge sets
// against a running service (GOVERNANCE_URL, admin GOVERNANCE_TOKEN). The moments
// the graph is read at are the service's own (a version's `at`), never this
// machine's clock.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';

import { GovernanceClient, NotFoundError, ValidationError } from '../index.js';
import { liveSuite } from './live-support.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const MANIFEST = path.join(repoRoot, 'tests', 'fixtures', 'dbt_quality', 'manifest.json');
const REVENUE = 'model.quality_shop.customer_revenue';

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const prefix = `js-hist-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const id = (name) => `${prefix}.${name}`;
  const client = new GovernanceClient({ baseURL, token });
  const ids = (graph) => graph.nodes.map((n) => n.id).sort();
  const pairs = (edges) => edges.map((e) => `${e.source} -> ${e.target}`).sort();
  const newestMoment = async (asset) => (await client.assets.listHistory(asset, { limit: 1 })).items[0].at;

  after(async () => {
    const mine = [];
    for await (const asset of client.assets.iterate({ q: prefix, limit: 500 })) mine.push(asset.id);
    await Promise.all(mine.map((asset) => client.assets.delete(asset).catch(() => undefined)));
  });

  describe('lineage through time', () => {
    test("an origin's replaced edges stay readable as they stood", async () => {
      const [a, b, c] = [id('a'), id('b'), id('c')];
      await client.assets.create({ id: a, name: 'A', type: 'table', columns: [{ name: 'x', type: 'int' }] });
      await client.assets.create({ id: b, name: 'B', type: 'table', columns: [{ name: 'y', type: 'int' }] });
      await client.assets.create({ id: c, name: 'C', type: 'table' });
      const origin = `sync:${prefix}`;
      const mapped = { source: a, target: b, columns: [{ source: 'x', target: 'y' }] };
      assert.equal((await client.lineage.bulk([mapped], { origin })).created, 1);
      await client.assets.patch(b, { description: 'fed by a' });
      const fedByA = await newestMoment(b);

      const replaced = await client.lineage.bulk([{ source: c, target: b }], { origin, replace: true });
      assert.deepEqual(replaced.retired, { edges: 1, edges_removed: 1, column_mappings: 1, column_mappings_removed: 1 });
      assert.deepEqual(ids(await client.lineage.upstream(b)), [b, c].sort());
      const then = { as_of: new Date(fedByA) };
      assert.deepEqual(ids(await client.lineage.upstream(b, then)), [a, b].sort());
      assert.deepEqual(ids(await client.lineage.downstream(a, then)), [a, b].sort());
      assert.deepEqual(ids(await client.lineage.get(a, { ...then, direction: 'both' })), [a, b].sort());
      const columns = await client.lineage.columnUpstream(b, 'y', { as_of: fedByA });
      assert.deepEqual(columns.nodes, [
        { asset: b, column: 'y', distance: 0 },
        { asset: a, column: 'x', distance: 1 },
      ]);
      assert.equal((await client.lineage.columnDownstream(a, 'x', then)).nodes.length, 2);

      const diff = await client.lineage.diff(b, { from: fedByA, direction: 'upstream' });
      assert.deepEqual(pairs(diff.removed.edges), [`${a} -> ${b}`]);
      assert.deepEqual(pairs(diff.added.edges), [`${c} -> ${b}`]);
      assert.deepEqual(ids(diff.removed), [a]);
      assert.deepEqual(ids(diff.added), [c]);
      assert.deepEqual(diff.changed.edges, []);
    });

    test('before the root existed is NotFoundError; a backward range is a ValidationError', async () => {
      const late = id('late');
      await client.assets.create({ id: late, name: 'Late', type: 'table' });
      const born = new Date(await newestMoment(late));
      await assert.rejects(
        client.lineage.upstream(late, { as_of: new Date(born.getTime() - 1000) }),
        (err) => err instanceof NotFoundError && err.code === 'asset_not_found',
      );
      assert.equal((await client.lineage.upstream(late, { as_of: born })).root, late);
      await assert.rejects(client.lineage.get(late, { as_of: 'last tuesday' }), ValidationError);
      await assert.rejects(
        client.lineage.diff(late, { from: born, to: new Date(born.getTime() - 3_600_000) }),
        ValidationError,
      );
    });

    test('history lists each change, newest first', async () => {
      const orders = id('orders');
      await client.assets.create({ id: orders, name: 'Orders', type: 'table', columns: [{ name: 'id', type: 'int' }] });
      await client.assets.patch(orders, { description: 'one row per order' });
      await client.assets.put(orders, { name: 'Orders', type: 'table', columns: [{ name: 'id', type: 'bigint' }] });
      const versions = [];
      for await (const v of client.assets.iterateHistory(orders, { limit: 1 })) versions.push(v);
      assert.deepEqual(versions.map((v) => v.version), [3, 2, 1]);
      assert.ok(
        versions[0].changes.some((ch) => ch.field === 'columns' && ch.column === 'id' && ch.change === 'retyped'),
        JSON.stringify(versions[0].changes),
      );
      assert.deepEqual(versions[1].changes, [
        { field: 'description', column: null, change: 'set', from: null, to: 'one row per order' },
      ]);
      assert.ok(versions[0].actor.startsWith('token:'));
      assert.equal(versions[0].deleted, false);
      await assert.rejects(client.assets.listHistory(id('never')), NotFoundError);
    });
  });

  describe('change impact', () => {
    test('a manifest check names what breaks and who reads it, writing nothing', async () => {
      const project = prefix;
      await client.lineage.uploadManifest(MANIFEST, { project });
      const board = id('revenue_board');
      await client.assets.create({ id: board, name: 'Revenue board', type: 'dashboard', owners: ['bi@example.com'] });
      await client.lineage.create({ source: REVENUE, target: board });

      const same = await client.lineage.checkManifest(MANIFEST, { project });
      assert.deepEqual([same.project, same.breaking, same.changes], [project, false, []]);

      const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
      for (const [key, node] of Object.entries(manifest.nodes)) {
        if (key === REVENUE || (node.depends_on?.nodes ?? []).includes(REVENUE)) delete manifest.nodes[key];
      }
      const report = await client.lineage.checkManifest(Buffer.from(JSON.stringify(manifest)), { project, depth: 3 });
      assert.equal(report.breaking, true);
      assert.equal(report.depth, 3);
      assert.ok(report.changes.some((ch) => ch.kind === 'model_removed' && ch.asset === REVENUE && ch.breaking));
      const hit = report.impacted.find((i) => i.asset === board);
      assert.deepEqual([hit.owners, hit.via, hit.distance], [['bi@example.com'], [REVENUE, board], 1]);

      await assert.rejects(
        client.lineage.checkManifest(MANIFEST, { project: `${project}-never-uploaded` }),
        (err) => err instanceof NotFoundError && err.code === 'unknown_project',
      );
    });
  });

  describe('edge sets owned by their origin', () => {
    test("an empty replacement retires the origin's edges", async () => {
      const [a, b] = [id('ea'), id('eb')];
      const origin = `sync:${prefix}-empty`; // its own: the first test's origin asserts other edges
      await client.lineage.pushBulk([{ source: a, target: b }], { origin });
      const result = await client.lineage.pushBulk([], { origin, replace: true });
      assert.equal(result.requests, 1);
      assert.deepEqual([result.retired.edges, result.retired.edges_removed], [1, 1]);
      assert.deepEqual((await client.lineage.listEdges({ source: a })).items, []);
    });
  });
}
