/**
 * GovernanceClient: configuration, the request loop (timeouts, retries,
 * idempotency keys, error mapping) and the resources as properties.
 */

import { randomUUID } from 'node:crypto';

import { APIPromise } from './api-promise.js';
import {
  ConnectionError,
  GovernanceError,
  TimeoutError,
  makeAPIError,
} from './errors.js';
import { Assets } from './resources/assets.js';
import { Events } from './resources/events.js';
import { Lineage } from './resources/lineage.js';
import { Policies } from './resources/policies.js';
import { Quality } from './resources/quality.js';
import { Query } from './resources/query.js';
import { Tokens } from './resources/tokens.js';
import { parseRetryAfter, retryDelayMs, shouldRetry } from './retry.js';
import { buildQuery, normalizeBaseURL } from './url.js';

export const VERSION = '0.1.0';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RETRIES = 3;

export class GovernanceClient {
  /**
   * @param {import('../index.js').ClientOptions} [options]
   */
  constructor(options = {}) {
    const env = globalThis.process?.env ?? {};
    const baseURL = options.baseURL ?? env.GOVERNANCE_URL;
    if (!baseURL) {
      throw new GovernanceError(
        'No service address: pass baseURL to new GovernanceClient() or set GOVERNANCE_URL',
      );
    }
    /** The API root, always ending in `/api/v1`. */
    this.baseURL = normalizeBaseURL(baseURL);
    /** @private */
    this._token = options.token !== undefined ? options.token : (env.GOVERNANCE_TOKEN ?? null);
    this.timeoutMs = positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 1);
    this.maxRetries = positiveInteger('maxRetries', options.maxRetries ?? DEFAULT_MAX_RETRIES, 0);
    /** @private */
    this._fetch = options.fetch ?? globalThis.fetch;
    if (typeof this._fetch !== 'function') {
      throw new GovernanceError('No fetch implementation: use Node 20+ or pass options.fetch');
    }
    /** @private */
    this._sleep = options.sleep ?? sleep;
    /** @private */
    this._defaultHeaders = { ...(options.defaultHeaders ?? {}) };

    this.assets = new Assets(this);
    this.lineage = new Lineage(this);
    this.tokens = new Tokens(this);
    this.events = new Events(this);
    this.policies = new Policies(this);
    this.quality = new Quality(this);
    this.query = new Query(this);
  }

  /** `GET /api/v1`: the service's name and version (needs no token). */
  info(options) {
    return this.request({ ...options, method: 'GET', path: '' });
  }

  /** `GET /api/v1/openapi.json`: the service's OpenAPI 3.1 document (needs no token). */
  openapi(options) {
    return this.request({ ...options, method: 'GET', path: '/openapi.json' });
  }

  /**
   * The one way every call reaches the service. `path` is relative to the API root.
   * @param {import('../index.js').RequestSpec} spec
   * @returns {APIPromise<any>}
   */
  request(spec) {
    return new APIPromise(this._send(spec));
  }

  /**
   * Follows `next_cursor` from page to page, yielding each item.
   * @param {(cursor: string | undefined) => PromiseLike<{items: any[], next_cursor: string | null}>} fetchPage
   * @param {string} [cursor] where to start
   */
  async *paginate(fetchPage, cursor) {
    let next = cursor ?? undefined;
    do {
      const page = await fetchPage(next);
      yield* page.items;
      next = page.next_cursor ?? undefined;
    } while (next);
  }

  /** @private */
  async _send(spec) {
    const method = spec.method.toUpperCase();
    const query = buildQuery(spec.query);
    const url = this.baseURL + spec.path + (query ? `?${query}` : '');
    const maxRetries = spec.maxRetries ?? this.maxRetries;
    const timeoutMs = spec.timeoutMs ?? this.timeoutMs;
    const headers = this._headers(spec, method, maxRetries);
    // A POST that only reads (a query) is as safe to repeat as a GET.
    const repeatable = headers.has('idempotency-key') || spec.readOnly === true;
    const body =
      spec.body === undefined
        ? undefined
        : spec.body instanceof Uint8Array
          ? spec.body
          : JSON.stringify(spec.body);

    for (let attempt = 0; ; attempt++) {
      let answer;
      let failure;
      try {
        answer = await this._attempt(url, { method, headers, body }, timeoutMs, spec.signal);
      } catch (error) {
        if (spec.signal?.aborted) throw spec.signal.reason;
        failure = error;
      }
      if (answer && answer.status < 400) return decode(answer);
      failure ??= makeAPIError(answer.status, answer.headers, answer.text);
      const status = answer?.status ?? null;
      if (attempt >= maxRetries || !shouldRetry({ method, status, idempotencyKey: repeatable })) {
        throw failure;
      }
      const retryAfter = parseRetryAfter(answer?.headers.get('retry-after'));
      const delay = retryDelayMs({ attempt, retryAfter });
      if (delay === null) throw failure;
      await this._sleep(delay, spec.signal);
    }
  }

  /** @private */
  _headers(spec, method, maxRetries) {
    const headers = new Headers({
      accept: 'application/json',
      'user-agent': `governance-client-js/${VERSION} node/${globalThis.process?.version ?? '?'}`,
    });
    if (this._token) headers.set('authorization', `Bearer ${this._token}`);
    for (const [name, value] of Object.entries(this._defaultHeaders)) headers.set(name, value);
    if (spec.body !== undefined) headers.set('content-type', spec.contentType ?? 'application/json');
    if (spec.ifMatch !== undefined && spec.ifMatch !== null) {
      headers.set('if-match', formatIfMatch(spec.ifMatch));
    }
    if (spec.idempotencyKey) {
      headers.set('idempotency-key', spec.idempotencyKey);
    } else if (method === 'POST' && spec.autoIdempotencyKey !== false && !spec.readOnly) {
      if (maxRetries > 0) headers.set('idempotency-key', randomUUID());
    }
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      if (value === null || value === undefined) headers.delete(name);
      else headers.set(name, value);
    }
    return headers;
  }

  /**
   * One request and its whole body, within the timeout.
   * @private
   */
  async _attempt(url, init, timeoutMs, signal) {
    if (signal?.aborted) throw signal.reason;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const forward = () => controller.abort(signal.reason);
    signal?.addEventListener('abort', forward, { once: true });
    try {
      const response = await this._fetch(url, { ...init, signal: controller.signal });
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) {
        throw new TimeoutError(`${init.method} ${url} got no answer within ${timeoutMs} ms`, {
          cause: error,
        });
      }
      throw new ConnectionError(`${init.method} ${url} failed: ${describe(error)}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', forward);
    }
  }
}

function decode(answer) {
  let data;
  if (answer.text !== '') {
    try {
      data = JSON.parse(answer.text);
    } catch (error) {
      throw new GovernanceError(`The service answered ${answer.status} with a body that is not JSON`, {
        cause: error,
      });
    }
  }
  return {
    data,
    status: answer.status,
    headers: answer.headers,
    requestId: answer.headers.get('x-request-id'),
  };
}

/** `3` -> `"3"`; a quoted tag, a weak tag or `*` goes as it is. */
export function formatIfMatch(value) {
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 1) throw new RangeError(`ifMatch version ${value}`);
    return `"${value}"`;
  }
  const text = String(value).trim();
  if (text === '*' || text.startsWith('"') || text.startsWith('W/')) return text;
  return `"${text}"`;
}

function positiveInteger(name, value, min) {
  if (!Number.isInteger(value) || value < min) {
    throw new RangeError(`${name} must be an integer >= ${min}, got ${value}`);
  }
  return value;
}

function describe(error) {
  const cause = error?.cause;
  const code = cause?.code ?? error?.code;
  const message = cause?.message ?? error?.message ?? String(error);
  return code && !message.includes(code) ? `${code} ${message}` : message;
}

/** Waits `ms`, or stops early with the signal's reason. */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
