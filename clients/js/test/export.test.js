// Lineage export against a scripted fetch: what is asked for, and the file,
// its name and whether it was cut, read back.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { NotFoundError, ValidationError } from '../index.js';
import { attachmentName } from '../src/resources/lineage-export.js';
import { client, json, problem, scripted } from './support.js';

const DOT = 'digraph lineage {\n  // truncated at 2 assets\n}\n';

function file(body, headers) {
  return new Response(body, { status: 200, headers: { 'x-request-id': 'req-1', ...headers } });
}

describe('export', () => {
  test('asks for the format and bounds; answers the text, its name and the cut', async () => {
    const { fetch, calls } = scripted(
      file(DOT, {
        'content-type': 'text/vnd.graphviz; charset=utf-8',
        'content-disposition': `attachment; filename="lineage-s3_lake_x.dot"; filename*=UTF-8''lineage-s3%3A__lake_x.dot`,
        'lineage-truncated': 'true',
      }),
    );
    const params = { format: 'dot', direction: 'upstream', depth: 3, limit: 2, as_of: new Date('2026-11-01T12:00:00.123Z') };
    const { data, status } = await client(fetch).client.lineage.export('s3://lake/x', params).withResponse();
    assert.deepEqual(data, { text: DOT, filename: 'lineage-s3:__lake_x.dot', truncated: true });
    assert.equal(status, 200);
    const [call] = calls;
    assert.equal(call.url.pathname, '/api/v1/lineage/s3%3A%2F%2Flake%2Fx/export');
    assert.deepEqual(Object.fromEntries(call.url.searchParams), {
      format: 'dot',
      direction: 'upstream',
      depth: '3',
      limit: '2',
      as_of: '2026-11-01T12:00:00.123Z',
    });
    assert.equal(call.headers.get('accept'), 'text/vnd.graphviz, application/problem+json');
  });

  test('OpenLineage comes back as text, not parsed; no cut, no name without the headers', async () => {
    const { fetch, calls } = scripted(json(200, []));
    const exported = await client(fetch).client.lineage.export('a', { format: 'openlineage' });
    assert.deepEqual(exported, { text: '[]', filename: null, truncated: false });
    assert.equal(calls[0].url.search, '?format=openlineage');
  });

  test('a missing format is refused before sending', async () => {
    const { fetch, calls } = scripted(json(200, []));
    const { lineage } = client(fetch).client;
    assert.throws(() => lineage.export('a', {}), TypeError);
    assert.throws(() => lineage.export('a'), TypeError);
    assert.equal(calls.length, 0);
  });

  test("the service's refusals are typed errors", async () => {
    const { fetch } = scripted(problem(404, 'asset_not_found'), problem(422, 'validation_error'));
    const { lineage } = client(fetch).client;
    await assert.rejects(lineage.export('gone', { format: 'csv' }), NotFoundError);
    await assert.rejects(lineage.export('a', { format: 'svg' }), ValidationError);
  });
});

describe('attachmentName', () => {
  test('reads filename* first, else filename, as RFC 6266 says', () => {
    assert.equal(attachmentName(`attachment; filename*=UTF-8''a%20b.csv`), 'a b.csv');
    assert.equal(attachmentName('attachment; filename="x\\"y.dot"'), 'x"y.dot');
    assert.equal(attachmentName(`attachment; filename=plain.dot; filename*=UTF-8''%zz`), 'plain.dot');
    assert.equal(attachmentName('attachment'), null);
    assert.equal(attachmentName(null), null);
  });
});
