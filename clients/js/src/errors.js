/**
 * Every error this library raises.
 *
 *     GovernanceError                      anything from this library
 *     ├── APIError                         the service answered with an error status
 *     │   ├── BadRequestError          400, 405, 413, 415, other 4xx   kind bad_request
 *     │   ├── AuthenticationError      401                             kind authentication
 *     │   ├── PermissionError          403                             kind permission
 *     │   │   └── DomainForbiddenError 403 domain_forbidden            kind permission
 *     │   ├── NotFoundError            404                             kind not_found
 *     │   ├── ConflictError            409                             kind conflict
 *     │   ├── PreconditionFailedError  412                             kind precondition_failed
 *     │   ├── ValidationError          422                             kind validation
 *     │   ├── RateLimitedError         429                             kind rate_limited
 *     │   └── ServerError              5xx                             kind server
 *     │       └── UnavailableError     503                             kind unavailable
 *     ├── ConnectionError                  no answer: refused, reset, DNS, TLS
 *     │   └── TimeoutError                 no answer within timeoutMs
 *     └── WebhookVerificationError         verifyWebhook refused a delivery
 *
 * An APIError carries the status, the problem `code`, the `requestId` and the
 * whole RFC 9457 problem body; ValidationError adds the field `errors`.
 */

import { parseRetryAfter } from './retry.js';

export class GovernanceError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class APIError extends GovernanceError {
  /** @type {string} */
  static kind = 'api';

  /**
   * @param {number} status
   * @param {Record<string, any> | null} problem the parsed problem+json body, if any
   * @param {Headers} headers
   * @param {string} [bodyText] the raw body when it was not a JSON object
   */
  constructor(status, problem, headers, bodyText) {
    const code = stringOr(problem?.code, null);
    const requestId = stringOr(problem?.request_id, null) ?? headers?.get('x-request-id') ?? null;
    const detail = stringOr(problem?.detail, null) ?? stringOr(problem?.title, null) ?? bodyText?.slice(0, 200) ?? '';
    super(
      `${status}${code ? ` ${code}` : ''}${detail ? `: ${detail}` : ''}` +
        (requestId ? ` (request id ${requestId})` : ''),
    );
    /** The HTTP status. */
    this.status = status;
    /** The problem's stable snake_case code, e.g. `asset_not_found`. */
    this.code = code;
    /** The request id (problem body or X-Request-ID header), for the server's logs. */
    this.requestId = requestId;
    /** The whole problem body, or null when the answer held none. */
    this.problem = problem ?? null;
    /** The human-readable explanation. */
    this.detail = detail || null;
    /** Field problems, `[{loc, msg, type}]` (422 mostly), or an empty array. */
    this.errors = Array.isArray(problem?.errors) ? problem.errors : [];
    /** The answer's headers. */
    this.headers = headers ?? new Headers();
  }

  /** One of the kinds in the shared test vectors: `not_found`, `conflict`, ... */
  get kind() {
    return /** @type {typeof APIError} */ (this.constructor).kind;
  }
}

export class BadRequestError extends APIError {
  static kind = 'bad_request';
}
export class AuthenticationError extends APIError {
  static kind = 'authentication';
}
export class PermissionError extends APIError {
  static kind = 'permission';
}
/**
 * 403 `domain_forbidden`: a write touched assets where the caller may not
 * write; nothing was written. `assets` lists them (the first 100) with their
 * domains (null: outside every domain, where the global role decides);
 * `assetsCount` counts them all.
 */
export class DomainForbiddenError extends PermissionError {
  /** @returns {{id: string, domain: string | null}[]} */
  get assets() {
    const listed = this.problem?.assets;
    if (!Array.isArray(listed)) return [];
    return listed
      .filter((a) => a && typeof a === 'object' && typeof a.id === 'string')
      .map((a) => ({ id: a.id, domain: typeof a.domain === 'string' ? a.domain : null }));
  }

  /** @returns {number} */
  get assetsCount() {
    const count = this.problem?.assets_count;
    return Number.isInteger(count) ? count : this.assets.length;
  }
}
export class NotFoundError extends APIError {
  static kind = 'not_found';
}
export class ConflictError extends APIError {
  static kind = 'conflict';
}
export class PreconditionFailedError extends APIError {
  static kind = 'precondition_failed';
}
export class ValidationError extends APIError {
  static kind = 'validation';
}
export class RateLimitedError extends APIError {
  static kind = 'rate_limited';

  /** Seconds the server asked to wait (Retry-After), or null. */
  get retryAfter() {
    return retryAfterOf(this.headers);
  }
}
export class ServerError extends APIError {
  static kind = 'server';
}
export class UnavailableError extends ServerError {
  static kind = 'unavailable';

  /** Seconds the server asked to wait (Retry-After), or null. */
  get retryAfter() {
    return retryAfterOf(this.headers);
  }
}

/** The request got no answer: connection refused or reset, DNS or TLS failure. */
export class ConnectionError extends GovernanceError {
  constructor(message = 'Connection error', options) {
    super(message, options);
  }
}

/** No complete answer within the timeout. */
export class TimeoutError extends ConnectionError {
  constructor(message = 'Request timed out', options) {
    super(message, options);
  }
}

/** A webhook delivery failed verification: missing headers, stale timestamp, no matching signature, bad JSON. */
export class WebhookVerificationError extends GovernanceError {
  constructor(message = 'Webhook verification failed', options) {
    super(message, options);
  }
}

const BY_STATUS = new Map([
  [401, AuthenticationError],
  [403, PermissionError],
  [404, NotFoundError],
  [409, ConflictError],
  [412, PreconditionFailedError],
  [422, ValidationError],
  [429, RateLimitedError],
  [503, UnavailableError],
]);

/** Subclasses a problem `code` picks within its status's class. */
const BY_CODE = new Map([['403 domain_forbidden', DomainForbiddenError]]);

/**
 * The error class for an error status. The status decides; `code` picks a
 * subclass of that status's class where one says more (`domain_forbidden`).
 * @param {number} status
 * @param {string | null} [code]
 * @returns {typeof APIError}
 */
export function errorClassFor(status, code = null) {
  const refined = code === null ? undefined : BY_CODE.get(`${status} ${code}`);
  if (refined) return refined;
  const known = BY_STATUS.get(status);
  if (known) return known;
  if (status >= 500) return ServerError;
  if (status >= 400) return BadRequestError;
  return APIError;
}

/**
 * @param {number} status
 * @param {string | null} [code]
 * @returns {string} the kind, as the shared vectors name it
 */
export function errorKind(status, code = null) {
  return errorClassFor(status, code).kind;
}

/**
 * The error for an answer with an error status.
 * @param {number} status
 * @param {Headers} headers
 * @param {string} bodyText
 * @returns {APIError}
 */
export function makeAPIError(status, headers, bodyText) {
  let problem = null;
  try {
    const parsed = JSON.parse(bodyText);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) problem = parsed;
  } catch {
    // not JSON: keep the text for the message
  }
  const Class = errorClassFor(status, problem?.code ?? null);
  return new Class(status, problem, headers, problem ? undefined : bodyText);
}

function stringOr(value, fallback) {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

function retryAfterOf(headers) {
  return parseRetryAfter(headers.get('retry-after'));
}
