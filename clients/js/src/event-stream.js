/**
 * The live event stream (`GET /api/v1/events/stream`) as an async iterator that
 * survives dropped connections.
 *
 * Each message's `id:` is the event's sequence number. After a drop the stream
 * waits the delay the server asked for with `retry:` (2 s unless told), connects
 * again with `Last-Event-ID` set to the last id it received, and the service
 * replays what was missed, so nothing is lost and nothing comes twice (an event
 * at or below the last sequence number seen is dropped, should it come again).
 */

import { APIError, ConnectionError, GovernanceError } from './errors.js';
import { parseRetryAfter, retryDelayMs, shouldRetry } from './retry.js';
import { SSEParser, readText } from './sse.js';

/** The wait before reconnecting until the server says otherwise (`retry:`). */
export const DEFAULT_RECONNECT_MS = 2_000;

/**
 * @param {import('./client.js').GovernanceClient} client
 * @param {{after?: number | null, types?: string | readonly string[], onConnect?: Function}} params
 * @param {import('../index.js').RequestOptions} options
 * @returns {AsyncGenerator<import('../index.js').GovernanceEvent, void, undefined>}
 */
export async function* eventStream(client, params, options) {
  const { after = null, types, onConnect } = params;
  const { signal, maxRetries = client.maxRetries, timeoutMs = client.timeoutMs, ...rest } = options;
  const state = {
    lastId: after === null ? null : String(after),
    lastSeq: after === null ? -1 : after,
    retryMs: DEFAULT_RECONNECT_MS,
  };
  let failures = 0;
  let connections = 0;
  for (;;) {
    let opened;
    try {
      opened = await open(client, { ...rest, signal, timeoutMs, types, lastId: state.lastId });
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (failures >= maxRetries || !reconnectable(error)) throw error;
      await client._sleep(Math.max(state.retryMs, waitAfter(error, failures)), signal);
      failures += 1;
      continue;
    }
    failures = 0;
    try {
      if (onConnect) await onConnect({ reconnect: connections > 0, lastEventId: state.lastId });
      connections += 1;
      yield* events(opened, timeoutMs, state);
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (!(error instanceof ConnectionError)) throw error;
      // dropped: connect again below
    } finally {
      opened.close();
    }
    await client._sleep(state.retryMs, signal);
  }
}

/** One connection: resolves once a 2xx event-stream answer has its headers. */
async function open(client, { types, lastId, headers, ...options }) {
  const opened = await client._openStream({
    ...options,
    method: 'GET',
    path: '/events/stream',
    query: { types: joinTypes(types) },
    headers: {
      ...headers,
      accept: 'text/event-stream',
      'cache-control': 'no-cache',
      'last-event-id': lastId ?? undefined,
    },
  });
  const type = opened.response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/event-stream') || !opened.response.body) {
    opened.close();
    throw new GovernanceError(`the event stream answered ${type || 'no content type'}, not text/event-stream`);
  }
  return opened;
}

/** The events of one connection, until it ends or breaks. */
async function* events(opened, idleMs, state) {
  const parser = new SSEParser();
  for await (const text of readText(opened.response.body, idleMs, opened.close)) {
    for (const message of parser.push(text)) {
      if (message.id !== '') state.lastId = message.id;
      const event = parseEnvelope(message);
      if (typeof event.seq === 'number') {
        if (event.seq <= state.lastSeq) continue;
        state.lastSeq = event.seq;
      }
      yield event;
    }
    if (parser.retry !== null) state.retryMs = parser.retry;
  }
}

function parseEnvelope(message) {
  try {
    return JSON.parse(message.data);
  } catch (error) {
    throw new GovernanceError(`event ${message.id || '?'} (${message.event}) is not JSON`, { cause: error });
  }
}

/** A failed connection worth trying again: no answer, or 408, 429, 5xx. */
function reconnectable(error) {
  if (error instanceof ConnectionError) return true;
  return error instanceof APIError && shouldRetry({ method: 'GET', status: error.status });
}

function waitAfter(error, failures) {
  const retryAfter = error instanceof APIError ? parseRetryAfter(error.headers.get('retry-after')) : null;
  return retryDelayMs({ attempt: failures, retryAfter });
}

/** `['asset.*', 'quality.*']` -> `asset.*,quality.*`, as the service reads `types`. */
export function joinTypes(types) {
  if (types === undefined || types === null) return undefined;
  const list = typeof types === 'string' ? [types] : [...types];
  return list.length ? list.join(',') : undefined;
}
