// Traversals page by page and filtered, against a scripted fetch: what goes on
// the wire, what comes back, and when the pages stop.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ValidationError } from '../index.js';
import { client, json, problem, scripted } from './support.js';

const node = (id, type, distance, direction) => ({
  id,
  name: id,
  type,
  platform: null,
  tags: [],
  placeholder: false,
  distance,
  direction,
});

const page = (next, nodes, extra = {}) => ({
  root: 'root',
  direction: 'downstream',
  depth: 3,
  nodes,
  edges: [],
  truncated: next !== null,
  next_cursor: next,
  remaining: { downstream: 0 },
  hidden: { downstream: 1 },
  capped: [],
  ...extra,
});

const PAGES = {
  '': page('p2', [node('root', 'table', 0, 'root'), node('b', 'dashboard', 2, 'downstream')], {
    edges: [{ source: 'root', target: 'b', transformation: null }],
    remaining: { downstream: 3 },
    capped: [{ id: 'root', direction: 'downstream', shown: 2, total: 7 }],
  }),
  p2: page('p3', [node('c', 'dashboard', 2, 'downstream'), node('d', 'report', 3, 'downstream')], {
    remaining: { downstream: 1 },
  }),
  p3: page(null, [node('e', 'report', 3, 'downstream')]),
};

/** Answers each request with the page its cursor asks for. */
const byCursor = (url) => {
  const answer = PAGES[new URL(url).searchParams.get('cursor') ?? ''];
  return answer ? json(200, answer) : problem(400, 'invalid_cursor');
};

const FILTERS = {
  direction: 'downstream',
  depth: 3,
  limit: 2,
  as_of: undefined,
  type: ['dashboard', 'report'],
  platform: 'looker',
  tag: ['gold', 'pii'],
  owner: ['bi@example.com'],
  fanout: 2,
};

describe('lineagePages', () => {
  test('follows next_cursor with the same other params until it is null', async () => {
    const { fetch, calls } = scripted(byCursor);
    const { lineage } = client(fetch).client;
    const ids = [];
    const cursors = [];
    for await (const graph of lineage.lineagePages('root', FILTERS)) {
      ids.push(...graph.nodes.map((n) => n.id));
      cursors.push(graph.next_cursor);
    }
    assert.deepEqual(ids, ['root', 'b', 'c', 'd', 'e']);
    assert.deepEqual(cursors, ['p2', 'p3', null]);
    assert.equal(calls.length, 3);
    const settings =
      'direction=downstream&depth=3&limit=2&type=dashboard&type=report&platform=looker' +
      '&tag=gold&tag=pii&owner=bi%40example.com&fanout=2';
    assert.deepEqual(
      calls.map((c) => c.url.search),
      [`?${settings}`, `?${settings}&cursor=p2`, `?${settings}&cursor=p3`],
    );
    assert.ok(calls.every((c) => c.url.pathname === '/api/v1/lineage/root'));
  });

  test('sends nothing before iteration, starts at the given cursor, stops with the loop', async () => {
    const { fetch, calls } = scripted(byCursor);
    const pages = client(fetch).client.lineage.lineagePages('root', { cursor: 'p2', limit: 2 });
    assert.equal(calls.length, 0);
    for await (const graph of pages) {
      assert.deepEqual(graph.nodes.map((n) => n.id), ['c', 'd']);
      break;
    }
    assert.equal(calls.length, 1);
    assert.equal(calls[0].url.searchParams.get('cursor'), 'p2');
  });

  test('an error ends the pages after those already yielded', async () => {
    const { fetch } = scripted(json(200, PAGES['']), problem(422, 'unsupported_combination'));
    const seen = [];
    await assert.rejects(async () => {
      for await (const graph of client(fetch, { maxRetries: 0 }).client.lineage.lineagePages('root')) {
        seen.push(graph.nodes.length);
      }
    }, ValidationError);
    assert.deepEqual(seen, [2]);
  });

  test('a cursor that does not move ends the pages', async () => {
    const { fetch, calls } = scripted(json(200, page('same', [])));
    let pages = 0;
    for await (const graph of client(fetch).client.lineage.lineagePages('root')) {
      assert.equal(graph.next_cursor, 'same');
      pages += 1;
    }
    assert.equal(pages, 2);
    assert.equal(calls.length, 2);
  });
});

describe('a traversal page', () => {
  test('says what it left out', async () => {
    const { fetch } = scripted(byCursor);
    const graph = await client(fetch).client.lineage.downstream('root', { limit: 2 });
    assert.equal(graph.truncated, true);
    assert.equal(graph.next_cursor, 'p2');
    assert.deepEqual(graph.remaining, { downstream: 3 });
    assert.deepEqual(graph.hidden, { downstream: 1 });
    assert.deepEqual(graph.capped, [{ id: 'root', direction: 'downstream', shown: 2, total: 7 }]);
    assert.deepEqual(graph.edges, [{ source: 'root', target: 'b', transformation: null }]);
  });

  test('upstream and downstream take the cursor and the filters too', async () => {
    const { fetch, calls } = scripted(json(200, PAGES.p3));
    const { lineage } = client(fetch).client;
    await lineage.upstream('a', { cursor: 'p3', owner: 'x@example.com' });
    await lineage.downstream('a', { platform: ['dbt', 'looker'], fanout: 5 });
    assert.deepEqual(
      calls.map((c) => c.url.pathname + c.url.search),
      ['/api/v1/lineage/a/upstream?cursor=p3&owner=x%40example.com', '/api/v1/lineage/a/downstream?platform=dbt&platform=looker&fanout=5'],
    );
  });

  test('column traversals refuse a cursor, filters and fanout before sending', () => {
    const { fetch, calls } = scripted(json(200, PAGES.p3));
    const { lineage } = client(fetch).client;
    for (const params of [{ cursor: 'p2' }, { type: 'table' }, { platform: 'dbt' }, { tag: ['pii'] }, { owner: 'o' }, { fanout: 3 }]) {
      assert.throws(() => lineage.columnUpstream('a', 'x', params), TypeError);
      assert.throws(() => lineage.columnDownstream('a', 'x', { depth: 2, ...params }), TypeError);
    }
    assert.equal(calls.length, 0);
  });
});
