// An asset's classified columns and the column tag rules against a scripted
// fetch: the paths they go to, the body a rule is written with, the answers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { NotFoundError } from '../index.js';
import { client, json, problem, scripted } from './support.js';

const COLUMNS = {
  asset: 'mart users',
  columns: [
    {
      name: 'contact',
      type: 'text',
      tags: [],
      inherited: [
        {
          tag: 'pii',
          from: { asset: 'raw.users', column: 'email' },
          path: [
            { asset: 'raw.users', column: 'email', kind: null },
            { asset: 'mart users', column: 'contact', kind: 'identity' },
          ],
        },
      ],
    },
  ],
};
const RULE = { tag: 'a/b', stops: ['masking'], default: false, updated_at: '2026-11-27T10:00:00.000Z' };

describe('columns', () => {
  test('reads the asset’s own and inherited tags', async () => {
    const { fetch, calls } = scripted(json(200, COLUMNS));
    const { assets } = client(fetch).client;
    assert.deepEqual(await assets.columns('mart users'), COLUMNS);
    assert.equal(`${calls[0].init.method} ${calls[0].url.pathname}`, 'GET /api/v1/assets/mart%20users/columns');
    assert.throws(() => assets.columns(''), TypeError);
    assert.equal(calls.length, 1);
  });

  test('an unknown asset is NotFoundError', async () => {
    const { fetch } = scripted(problem(404, 'asset_not_found'));
    await assert.rejects(client(fetch).client.assets.columns('nothing'), NotFoundError);
  });
});

describe('column tag rules', () => {
  test('are read and put under their tag, one path segment', async () => {
    const { fetch, calls } = scripted(json(200, { ...RULE, stops: ['masking', 'aggregation', 'indirect'], default: true, updated_at: null }), json(200, RULE));
    const { assets } = client(fetch).client;
    assert.equal((await assets.getColumnTagRule('a/b')).default, true);
    assert.deepEqual(await assets.putColumnTagRule('a/b', { stops: ['masking'] }), RULE);
    assert.deepEqual(
      calls.map((c) => `${c.init.method} ${c.url.pathname}`),
      ['GET /api/v1/column-tags/a%2Fb', 'PUT /api/v1/column-tags/a%2Fb'],
    );
    assert.deepEqual(JSON.parse(calls[1].body), { stops: ['masking'] });
    assert.equal(calls[1].headers.get('if-match'), null);
  });

  test('an empty rule is sent as an empty list', async () => {
    const { fetch, calls } = scripted(json(200, { ...RULE, stops: [] }));
    await client(fetch).client.assets.putColumnTagRule('t', { stops: [] });
    assert.equal(calls[0].body, '{"stops":[]}');
  });
});
