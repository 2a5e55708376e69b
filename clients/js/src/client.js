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
import { Domains } from './resources/domains.js';
import { Events } from './resources/events.js';
import { Lineage } from './resources/lineage.js';
import { Policies } from './resources/policies.js';
import { Quality } from './resources/quality.js';
import { Query } from './resources/query.js';
import { Teams } from './resources/teams.js';
import { Tokens } from './resources/tokens.js';
import { Users } from './resources/users.js';
import { Webhooks } from './resources/webhooks.js';
import { parseRetryAfter, retryDelayMs, shouldRetry } from './retry.js';
import { buildQuery, normalizeBaseURL } from './url.js';

export const VERSION = '0.4.0';
export const DEFAULT_TIMEOUT_MS = 60_000;
export const DEFAULT_MAX_RETRIES = 2;
/** Where a service started with `make run` listens. */
export const DEFAULT_BASE_URL = 'http://localhost:8080';

const API_PREFIX = '/api/v1';

export class GovernanceClient {
  /**
   * @param {import('../index.js').ClientOptions} [options]
   */
  constructor(options = {}) {
    const env = globalThis.process?.env ?? {};
    const baseURL = options.baseURL ?? (env.GOVERNANCE_URL || DEFAULT_BASE_URL);
    /** The API root, always ending in `/api/v1`. */
    this.baseURL = normalizeBaseURL(baseURL);
    /** @private The service root, where /healthz, /readyz and /metrics live. */
    this._rootURL = this.baseURL.slice(0, -API_PREFIX.length);
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
    this.users = new Users(this);
    this.events = new Events(this);
    this.webhooks = new Webhooks(this);
    this.policies = new Policies(this);
    this.quality = new Quality(this);
    this.query = new Query(this);
    this.teams = new Teams(this);
    this.domains = new Domains(this);
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
   * `GET /api/v1/me`: the calling token and its user (null for a token made on
   * the command line), with the user's `teams` and `domain_roles`.
   */
  me(options) {
    return this.request({ ...options, method: 'GET', path: '/me' });
  }

  /** `GET /healthz`: `{status: 'ok'}` while the process is up (needs no token). */
  healthz(options) {
    return this.request({ ...options, method: 'GET', path: '/healthz', root: true });
  }

  /**
   * `GET /readyz`: `{status: 'ready'}` when the database is reachable and its
   * schema applied; otherwise an UnavailableError (503), after the usual retries.
   */
  readyz(options) {
    return this.request({ ...options, method: 'GET', path: '/readyz', root: true });
  }

  /** `GET /metrics`: the Prometheus text exposition, as a string (needs no token). */
  metrics(options) {
    return this.request({
      ...options,
      method: 'GET',
      path: '/metrics',
      root: true,
      responseType: 'text',
      headers: { accept: 'text/plain', ...(options?.headers ?? {}) },
    });
  }

  /**
   * The one way every call reaches the service. `path` is relative to the API
   * root (or to the service root with `root: true`).
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
    const call = this._prepare(spec);
    for (let attempt = 0; ; attempt++) {
      let answer;
      let failure;
      try {
        answer = await this._attempt(call, spec.signal);
      } catch (error) {
        if (spec.signal?.aborted) throw spec.signal.reason;
        failure = error;
      }
      if (answer && answer.status < 400) return decode(answer, spec.responseType);
      failure ??= makeAPIError(answer.status, answer.headers, answer.text);
      if (!this._retryable(call, answer, attempt)) throw failure;
      const retryAfter = parseRetryAfter(answer?.headers.get('retry-after'));
      await this._sleep(retryDelayMs({ attempt, retryAfter }), spec.signal);
    }
  }

  /**
   * Opens a streaming answer (Server-Sent Events): resolves once the headers of
   * a 2xx answer are in, within the timeout; an error status is thrown as an
   * APIError. One attempt: the caller decides about reconnecting.
   * @private
   * @returns {Promise<{response: Response, close: () => void}>}
   */
  async _openStream(spec) {
    const call = this._prepare({ ...spec, maxRetries: 0 });
    const answer = await this._attempt(call, spec.signal, { keepBody: true });
    if (answer.status >= 400) throw makeAPIError(answer.status, answer.headers, answer.text);
    return { response: answer.response, close: answer.close };
  }

  /** @private Whether a failed attempt may be repeated. */
  _retryable(call, answer, attempt) {
    if (attempt >= call.maxRetries) return false;
    return shouldRetry({ method: call.method, status: answer?.status ?? null, idempotencyKey: call.repeatable });
  }

  /** @private Everything an attempt needs, the same on every attempt. */
  _prepare(spec) {
    const method = spec.method.toUpperCase();
    const query = buildQuery(spec.query);
    const url = (spec.root ? this._rootURL : this.baseURL) + spec.path + (query ? `?${query}` : '');
    const maxRetries = spec.maxRetries ?? this.maxRetries;
    const headers = this._headers(spec, method, maxRetries);
    // A POST whose answer the service never keeps for replay (it holds a secret)
    // is not safe to repeat even with a key; one idempotent by nature always is.
    const repeatable =
      idempotentPost(spec) || (spec.replayable !== false && headers.has('idempotency-key'));
    const body =
      spec.body === undefined
        ? undefined
        : spec.body instanceof Uint8Array
          ? spec.body
          : JSON.stringify(spec.body);
    return { method, url, headers, body, maxRetries, repeatable, timeoutMs: spec.timeoutMs ?? this.timeoutMs };
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
    if (spec.requestId) headers.set('x-request-id', spec.requestId);
    if (spec.idempotencyKey) {
      headers.set('idempotency-key', spec.idempotencyKey);
    } else if (method === 'POST' && autoKey(spec) && maxRetries > 0) {
      headers.set('idempotency-key', randomUUID());
    }
    for (const [name, value] of Object.entries(spec.headers ?? {})) {
      if (value === null || value === undefined) headers.delete(name);
      else headers.set(name, value);
    }
    return headers;
  }

  /**
   * One request within the timeout: the whole body as text, or with `keepBody`
   * the open Response of a 2xx answer (the timeout then covers the headers only,
   * and `close()` ends it).
   * @private
   */
  async _attempt(call, signal, { keepBody = false } = {}) {
    if (signal?.aborted) throw signal.reason;
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, call.timeoutMs);
    const forward = () => controller.abort(signal.reason);
    signal?.addEventListener('abort', forward, { once: true });
    const close = () => {
      signal?.removeEventListener('abort', forward);
      controller.abort();
    };
    const { method, url, headers, body } = call;
    let kept = false;
    try {
      const response = await this._fetch(url, { method, headers, body, signal: controller.signal });
      if (keepBody && response.status < 400) {
        kept = true;
        return { status: response.status, headers: response.headers, response, close };
      }
      const text = await response.text();
      return { status: response.status, headers: response.headers, text };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (timedOut) {
        throw new TimeoutError(`${method} ${url} got no answer within ${call.timeoutMs} ms`, {
          cause: error,
        });
      }
      throw new ConnectionError(`${method} ${url} failed: ${describe(error)}`, { cause: error });
    } finally {
      clearTimeout(timer);
      if (!kept) signal?.removeEventListener('abort', forward);
    }
  }
}

/**
 * A POST that may be repeated as it is: it only reads (a query), or what it
 * writes is merged (bulk edges, OpenLineage events), so a second one changes nothing.
 */
function idempotentPost(spec) {
  return spec.readOnly === true || spec.idempotent === true;
}

/**
 * Whether a POST gets a random Idempotency-Key of the client's own: not one
 * idempotent by nature (the service would store its answer for replay, an extra
 * round trip to its database), nor one that is never replayed.
 */
function autoKey(spec) {
  return spec.replayable !== false && !idempotentPost(spec);
}

function decode(answer, responseType = 'json') {
  let data;
  if (responseType === 'text') {
    data = answer.text;
  } else if (answer.text !== '') {
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
