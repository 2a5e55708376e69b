// Lineage export against a running service (GOVERNANCE_URL, admin
// GOVERNANCE_TOKEN): every format names the assets, the OpenLineage file goes
// back in as the same edge, and a neighbourhood cut at `limit` says so.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';

import { GovernanceClient, NotFoundError, ValidationError } from '../index.js';
import { liveSuite } from './live-support.js';

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const prefix = `js-export-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const id = (name) => `${prefix}.${name}`;
  const client = new GovernanceClient({ baseURL, token });

  after(async () => {
    const mine = [];
    for await (const asset of client.assets.iterate({ q: prefix, limit: 500 })) mine.push(asset.id);
    await Promise.all(mine.map((asset) => client.assets.delete(asset).catch(() => undefined)));
  });

  describe('lineage export', () => {
    test('every format writes the neighbourhood; OpenLineage goes back in', async () => {
      const [a, b] = [id('a'), id('b')];
      await client.assets.create({ id: a, name: 'A', type: 'table' });
      await client.assets.create({ id: b, name: 'B', type: 'table' });
      await client.lineage.create({ source: a, target: b, transformation: 'select * from a' });
      for (const format of ['dot', 'mermaid', 'csv']) {
        const file = await client.lineage.export(a, { format, direction: 'downstream' });
        assert.equal(file.truncated, false, format);
        assert.ok(file.text.includes(a) && file.text.includes(b), file.text);
        assert.match(file.filename, /^lineage-/);
      }

      const events = await client.lineage.export(b, { format: 'openlineage', direction: 'upstream' });
      assert.match(events.filename, /\.json$/);
      const runs = JSON.parse(events.text);
      assert.ok(runs.some((run) => run.job.name === b && run.eventType === 'COMPLETE'), events.text);
      await client.lineage.deleteEdge(a, b);
      await client.lineage.openLineage(runs);
      const upstream = await client.lineage.upstream(b);
      assert.ok(upstream.nodes.some((n) => n.id === a), JSON.stringify(upstream.nodes));

      const cut = await client.lineage.export(a, { format: 'csv', direction: 'downstream', limit: 1 });
      assert.equal(cut.truncated, true);
      assert.ok(!cut.text.includes(b), cut.text);
    });

    test('an unknown asset is NotFoundError; an unknown format a ValidationError naming it', async () => {
      await assert.rejects(client.lineage.export(id('missing'), { format: 'dot' }), NotFoundError);
      const a = id('refused');
      await client.assets.create({ id: a, name: 'A', type: 'table' });
      await assert.rejects(client.lineage.export(a, { format: 'svg' }), (error) => {
        assert.ok(error instanceof ValidationError);
        assert.deepEqual(error.errors.map((e) => e.loc.join('.')), ['query.format']);
        return true;
      });
    });
  });
}
