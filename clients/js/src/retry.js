/**
 * The retry policy, as pure functions (tested against clients/contract/vectors.json).
 *
 * A request is retried only when repeating it is safe and the failure may pass:
 * - the failure is a connection error or timeout (no status), a 408, a 429 or a
 *   5xx; a 409 is a real conflict and never retried;
 * - the method is idempotent (GET, HEAD, OPTIONS, PUT, DELETE), or it is a POST
 *   or PATCH that carries an Idempotency-Key.
 * Waits grow exponentially with full jitter, or follow the server's Retry-After
 * (never longer than a minute).
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export const INITIAL_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/** The longest wait a Retry-After can ask for; a longer one is cut to this. */
export const MAX_RETRY_AFTER_S = 60;

/**
 * @param {{method: string, status?: number | null, idempotencyKey?: boolean}} attempt
 *   `status` is null or absent for a connection error or a timeout.
 * @returns {boolean}
 */
export function shouldRetry({ method, status = null, idempotencyKey = false }) {
  const verb = method.toUpperCase();
  if (!SAFE_METHODS.has(verb) && !idempotencyKey) return false;
  if (status === null || status === undefined) return true;
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

const HTTP_DATE = /^[A-Za-z]{3}, \d{2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

/**
 * Seconds to wait from a Retry-After header: delay-seconds, or an HTTP-date
 * (counted from `now`, never negative). Anything else is null.
 * @param {string | null | undefined} header
 * @param {number} [now] milliseconds since the epoch
 * @returns {number | null}
 */
export function parseRetryAfter(header, now = Date.now()) {
  if (typeof header !== 'string') return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number.parseInt(value, 10);
  if (HTTP_DATE.test(value)) {
    const at = Date.parse(value);
    if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000));
  }
  return null;
}

/**
 * Milliseconds to wait before retry number `attempt + 1` (attempt counts from 0):
 * the server's Retry-After (at most 60 s), else anything between 0 and
 * 0.5 s x 2^attempt, capped at 8 s ("full jitter", so that clients that failed
 * together do not come back together).
 * @param {{attempt: number, retryAfter?: number | null, random?: () => number}} input
 * @returns {number}
 */
export function retryDelayMs({ attempt, retryAfter = null, random = Math.random }) {
  if (retryAfter !== null && retryAfter !== undefined) {
    return Math.min(retryAfter, MAX_RETRY_AFTER_S) * 1000;
  }
  const ceiling = Math.min(INITIAL_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
  return Math.round(ceiling * random());
}
