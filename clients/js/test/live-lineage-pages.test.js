// Traversal pages, filters and fanout against a running service (GOVERNANCE_URL,
// admin GOVERNANCE_TOKEN), on root -> t1 -> d1, root -> d2, root -> t2 -> r1
// (d* dashboards, r1 a report, t* tables).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';

import { GovernanceClient, ValidationError } from '../index.js';
import { liveSuite } from './live-support.js';

const TYPES = { root: 'table', t1: 'table', t2: 'table', d1: 'dashboard', d2: 'dashboard', r1: 'report' };
const EDGES = [['root', 't1'], ['t1', 'd1'], ['root', 'd2'], ['root', 't2'], ['t2', 'r1']];

liveSuite(liveTests);

function liveTests({ baseURL, token }) {
  const prefix = `js-pages-${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const id = (name) => `${prefix}.${name}`;
  const client = new GovernanceClient({ baseURL, token });
  const ids = (graph) => graph.nodes.map((n) => n.id).sort();

  before(async () => {
    for (const [name, type] of Object.entries(TYPES)) {
      await client.assets.create({ id: id(name), name, type });
    }
    await client.lineage.bulk(EDGES.map(([s, t]) => ({ source: id(s), target: id(t) })), { strict: true });
  });

  after(async () => {
    await Promise.all(Object.keys(TYPES).map((name) => client.assets.delete(id(name)).catch(() => undefined)));
  });

  describe('traversal pages', () => {
    test('every node comes once across pages, the root in the first', async () => {
      const whole = await client.lineage.downstream(id('root'));
      assert.equal(whole.truncated, false);
      const seen = [];
      let pages = 0;
      for await (const page of client.lineage.lineagePages(id('root'), { direction: 'downstream', limit: 2 })) {
        pages += 1;
        assert.equal(page.truncated, page.next_cursor !== null);
        assert.ok(page.nodes.length <= 2, 'a page holds at most the limit');
        assert.equal(page.nodes.some((n) => n.id === id('root')), pages === 1, 'the root, on the first page only');
        if (page.next_cursor === null) assert.equal(page.remaining.downstream, 0);
        seen.push(...page.nodes.map((n) => n.id));
      }
      assert.equal(pages, 3);
      assert.deepEqual(seen.sort(), ids(whole));
    });

    test('filters show the matching assets, at their true distance, and count the hidden', async () => {
      const shown = await client.lineage.downstream(id('root'), { type: ['dashboard', 'report'] });
      assert.deepEqual(ids(shown), [id('root'), id('d1'), id('d2'), id('r1')].sort());
      assert.equal(shown.hidden.downstream, 2);
      assert.equal(shown.nodes.find((n) => n.id === id('d1')).distance, 2);
      const now = (await client.assets.listHistory(id('root'), { limit: 1 })).items[0].at;
      await assert.rejects(
        client.lineage.downstream(id('root'), { type: 'dashboard', as_of: now }),
        (err) =>
          err instanceof ValidationError &&
          err.code === 'validation_error' &&
          err.errors.length === 1 &&
          err.errors[0].loc.join('.') === 'query.type' &&
          err.errors[0].type === 'unsupported_combination',
      );
    });

    test('fanout lists the nodes it cut', async () => {
      const cut = await client.lineage.downstream(id('root'), { depth: 1, fanout: 1 });
      assert.equal(cut.nodes.length, 2);
      assert.deepEqual(
        cut.capped.find((c) => c.id === id('root')),
        { id: id('root'), direction: 'downstream', shown: 1, total: 3 },
      );
    });
  });
}
