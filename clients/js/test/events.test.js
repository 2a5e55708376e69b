// The live event stream against a scripted fetch: parsing Server-Sent Events,
// resuming after a drop with Last-Event-ID, honouring retry:, giving up. No network.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { AuthenticationError, GovernanceError, UnavailableError } from '../index.js';
import { SSEParser } from '../src/sse.js';
import { client, frame, problem, scripted, sse } from './support.js';

async function take(iterable, n) {
  const items = [];
  if (n === 0) return items;
  for await (const item of iterable) {
    items.push(item);
    if (items.length === n) break;
  }
  return items;
}

describe('SSE parsing', () => {
  test('fields, multi-line data, comments and the retry field', () => {
    const parser = new SSEParser();
    const got = parser.push('retry: 1500\n: connected\n\nid: 7\nevent: asset.created\ndata: {"a":\ndata: 1}\n\n');
    assert.deepEqual(got, [{ id: '7', event: 'asset.created', data: '{"a":\n1}' }]);
    assert.equal(parser.retry, 1500);
    assert.deepEqual(parser.push(': keepalive\n\n'), []);
  });

  test('a message split anywhere, CRLF and lone CR line ends, a leading BOM', () => {
    const parser = new SSEParser();
    const text = '\ufeffid: 1\r\ndata: x\r\rid: 2\rdata:y\n\n';
    const messages = [];
    for (const c of text) messages.push(...parser.push(c));
    assert.deepEqual(messages, [
      { id: '1', event: 'message', data: 'x' },
      { id: '2', event: 'message', data: 'y' },
    ]);
  });

  test('the id carries over; a message without data is none; a bad retry is ignored', () => {
    const parser = new SSEParser();
    assert.deepEqual(parser.push('id: 9\n\nretry: soon\ndata: z\n\n'), [{ id: '9', event: 'message', data: 'z' }]);
    assert.equal(parser.retry, null);
    assert.equal(parser.lastEventId, '9');
  });
});

describe('events.stream', () => {
  test('yields the envelopes, skipping heartbeats; asks for event-stream with types', async () => {
    const { fetch, calls } = scripted(
      sse(['retry: 2000\n: connected\n\n', frame(1), ': keepalive\n\n', frame(2, 'quality.rule.failed')], { end: 'hang' }),
    );
    const { client: c } = client(fetch);
    const events = await take(c.events.stream({ types: ['asset.*', 'quality.*'] }), 2);
    assert.deepEqual(events.map((e) => [e.seq, e.type]), [[1, 'asset.created'], [2, 'quality.rule.failed']]);
    assert.equal(events[0].data.id, 'a1');
    const [call] = calls;
    assert.equal(call.url.pathname, '/api/v1/events/stream');
    assert.equal(call.url.searchParams.get('types'), 'asset.*,quality.*');
    assert.equal(call.headers.get('accept'), 'text/event-stream');
    assert.equal(call.headers.get('last-event-id'), null);
    assert.equal(call.headers.get('authorization'), 'Bearer dgs_test');
    assert.ok(call.init.signal.aborted, 'leaving the loop closes the connection');
  });

  test('after starts from a sequence number, sent as Last-Event-ID', async () => {
    const { fetch, calls } = scripted(sse([frame(42)], { end: 'hang' }));
    const [event] = await take(client(fetch).client.events.stream({ after: 41 }), 1);
    assert.equal(event.seq, 42);
    assert.equal(calls[0].headers.get('last-event-id'), '41');
  });

  test('a dropped connection resumes after the last id, waiting what retry: said', async () => {
    const { fetch, calls } = scripted(
      sse(['retry: 1234\n\n', frame(5), frame(6)], { end: 'close' }),
      sse([frame(7)], { end: 'error' }),
      sse([frame(7), frame(8)], { end: 'hang' }),
    );
    const { client: c, sleeps } = client(fetch);
    const connects = [];
    const events = await take(c.events.stream({ onConnect: (info) => connects.push(info) }), 4);
    assert.deepEqual(events.map((e) => e.seq), [5, 6, 7, 8], 'no gap, and 7 only once');
    assert.deepEqual(calls.map((x) => x.headers.get('last-event-id')), [null, '6', '7']);
    assert.deepEqual(sleeps, [1234, 1234]);
    assert.deepEqual(connects, [
      { reconnect: false, lastEventId: null },
      { reconnect: true, lastEventId: '6' },
      { reconnect: true, lastEventId: '7' },
    ]);
  });

  test('failed reconnections back off, then give up after maxRetries with the error', async () => {
    const { fetch, calls } = scripted(
      sse([frame(1)], { end: 'close' }),
      problem(503, 'neo4j_unavailable', {}, { 'retry-after': '3' }),
      problem(503, 'neo4j_unavailable'),
    );
    const { client: c, sleeps } = client(fetch, { maxRetries: 2 });
    const seen = [];
    const err = await (async () => {
      for await (const e of c.events.stream()) seen.push(e.seq);
    })().catch((e) => e);
    assert.ok(err instanceof UnavailableError, String(err));
    assert.deepEqual(seen, [1]);
    assert.equal(calls.length, 4, 'the first connection, then three tries');
    assert.equal(sleeps[0], 2000, 'the default reconnection delay');
    assert.equal(sleeps[1], 3000, 'Retry-After when longer');
    assert.equal(sleeps[2], 2000, 'never less than the reconnection delay');
  });

  test('a refused token ends the stream at once', async () => {
    const { fetch, calls } = scripted(sse([frame(1)], { end: 'close' }), problem(401, 'invalid_token'));
    const { client: c } = client(fetch);
    const seen = [];
    const err = await (async () => {
      for await (const e of c.events.stream({ after: 0 })) seen.push(e.seq);
    })().catch((e) => e);
    assert.ok(err instanceof AuthenticationError, String(err));
    assert.deepEqual(seen, [1]);
    assert.equal(calls.length, 2);
    assert.equal(calls[1].headers.get('last-event-id'), '1');
  });

  test('a silent connection counts as dropped after timeoutMs', async () => {
    const { fetch, calls } = scripted(sse([': connected\n\n'], { end: 'hang' }), sse([frame(3)], { end: 'hang' }));
    const [event] = await take(client(fetch).client.events.stream({}, { timeoutMs: 30 }), 1);
    assert.equal(event.seq, 3);
    assert.equal(calls.length, 2);
  });

  test('the signal stops it with its reason', async () => {
    const { fetch } = scripted(sse([frame(1)], { end: 'hang' }));
    const controller = new AbortController();
    const seen = [];
    const err = await (async () => {
      for await (const e of client(fetch).client.events.stream({}, { signal: controller.signal })) {
        seen.push(e.seq);
        controller.abort(new Error('enough'));
      }
    })().catch((e) => e);
    assert.equal(err.message, 'enough');
    assert.deepEqual(seen, [1]);
  });

  test('an answer that is not an event stream is an error, not a loop', async () => {
    const { fetch, calls } = scripted(() => new Response('{}', { headers: { 'content-type': 'application/json' } }));
    const err = await take(client(fetch).client.events.stream(), 1).catch((e) => e);
    assert.ok(err instanceof GovernanceError, String(err));
    assert.match(err.message, /not text\/event-stream/);
    assert.equal(calls.length, 1);
  });

  test('after must be a sequence number', () => {
    const { fetch } = scripted(sse([]));
    assert.throws(() => client(fetch).client.events.stream({ after: -1 }), RangeError);
    assert.throws(() => client(fetch).client.events.stream({ after: 1.5 }), RangeError);
  });
});
