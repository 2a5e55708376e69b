// A scripted fetch and a client on it, for the unit tests: no network.
import { GovernanceClient } from '../index.js';

export const BASE = 'http://gov.test:8080';

/** A fetch that answers from a script and records every request. */
export function scripted(...answers) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url: new URL(url), init, headers: new Headers(init.headers), body: init.body });
    const next = answers.length > 1 ? answers.shift() : answers[0];
    return typeof next === 'function' ? next(url, init) : next.clone();
  };
  return { fetch, calls };
}

export function json(status, body, headers = {}) {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': 'req-1', ...headers },
  });
}

export function problem(status, code, extra = {}, headers = {}) {
  return new Response(
    JSON.stringify({
      type: `/problems/${code}`,
      title: 'T',
      status,
      detail: `detail of ${code}`,
      instance: '/api/v1/x',
      code,
      request_id: 'req-42',
      ...extra,
    }),
    { status, headers: { 'content-type': 'application/problem+json', ...headers } },
  );
}

export function client(fetch, options = {}) {
  const sleeps = [];
  const c = new GovernanceClient({
    baseURL: BASE,
    token: 'dgs_test',
    fetch,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...options,
  });
  return { client: c, sleeps };
}

/**
 * An answer of Server-Sent Events: the chunks, then the end (`end: 'close'`),
 * a broken connection (`'error'`) or silence until the request is aborted
 * (`'hang'`). Aborting the request breaks the body, as a real fetch does.
 */
export function sse(chunks, { end = 'close', status = 200 } = {}) {
  return (_url, init) => {
    const encoder = new TextEncoder();
    const queue = chunks.map((chunk) => encoder.encode(chunk));
    const body = new ReadableStream({
      start(controller) {
        init.signal?.addEventListener('abort', () => {
          try {
            controller.error(init.signal.reason ?? new Error('aborted'));
          } catch {
            // already closed
          }
        });
      },
      pull(controller) {
        if (queue.length > 0) controller.enqueue(queue.shift());
        else if (end === 'close') controller.close();
        else if (end === 'error') controller.error(new TypeError('terminated'));
        else return new Promise(() => {}); // hang: nothing more, ever
      },
    });
    return new Response(body, { status, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
  };
}

/** The frame the service sends for one event. */
export function frame(seq, type = 'asset.created', data = { id: `a${seq}` }) {
  const envelope = { id: `evt_${seq}`, seq, type, occurred_at: '2025-01-01T00:00:00.000Z', actor: 'tok_1', data };
  return `id: ${seq}\nevent: ${type}\ndata: ${JSON.stringify(envelope)}\n\n`;
}
