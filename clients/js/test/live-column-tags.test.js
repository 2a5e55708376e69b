// Column classification against a running service (GOVERNANCE_URL, admin
// GOVERNANCE_TOKEN): a tag set on a column is inherited downstream, with the
// path it came by, until the tag's rule stops it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';

import { GovernanceClient, NotFoundError } from '../index.js';
import { liveSuite } from './live-support.js';

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const prefix = `js-tags-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const id = (name) => `${prefix}.${name}`;
  const client = new GovernanceClient({ baseURL, token });
  const inherited = async (asset) =>
    Object.fromEntries((await client.assets.columns(asset)).columns.map((c) => [c.name, c.inherited.map((t) => t.tag)]));

  after(async () => {
    const mine = [];
    for await (const asset of client.assets.iterate({ q: prefix, limit: 500 })) mine.push(asset.id);
    await Promise.all(mine.map((asset) => client.assets.delete(asset).catch(() => undefined)));
  });

  describe('column classification', () => {
    test('a tag is inherited with its path until its rule stops it', async () => {
      const tag = `${prefix}-pii`; // one tag per run: a tag's rule holds everywhere
      const [raw, mart] = [id('raw'), id('mart')];
      await client.assets.create({ id: raw, name: 'raw', type: 'table', columns: [{ name: 'email', type: 'text', tags: [tag] }] });
      await client.assets.create({ id: mart, name: 'mart', type: 'table', columns: [{ name: 'contact', type: 'text' }] });
      await client.lineage.create({ source: raw, target: mart, columns: [{ source: 'email', target: 'contact' }] });

      const listing = await client.assets.columns(mart);
      assert.equal(listing.asset, mart);
      // A mapping written without a transformation is of kind unknown, which carries a tag.
      const why = {
        tag,
        from: { asset: raw, column: 'email' },
        path: [
          { asset: raw, column: 'email', kind: null },
          { asset: mart, column: 'contact', kind: 'unknown' },
        ],
      };
      assert.deepEqual(listing.columns, [{ name: 'contact', type: 'text', tags: [], inherited: [why] }]);

      const rule = await client.assets.getColumnTagRule(tag);
      assert.equal(rule.default, true);
      assert.ok(rule.stops.includes('masking'));
      const written = await client.assets.putColumnTagRule(tag, { stops: ['unknown'] });
      assert.deepEqual([written.default, written.stops], [false, ['unknown']]);
      assert.deepEqual(await inherited(mart), { contact: [] });
      await client.assets.putColumnTagRule(tag, { stops: [] });
      assert.deepEqual(await inherited(mart), { contact: [tag] });
    });

    test('the columns of an unknown asset are NotFoundError', async () => {
      await assert.rejects(client.assets.columns(id('never')), NotFoundError);
    });
  });
}
