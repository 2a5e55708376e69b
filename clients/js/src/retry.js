/**
 * The retry policy, as pure functions (tested against clients/contract/vectors.json).
 *
 * A request is retried only when repeating it is safe and the failure may pass:
 * - the failure is a connection error or timeout (no status), a 429 or a 5xx;
 *   a 409 is a real conflict and never retried;
 * - the method is idempotent (GET, HEAD, OPTIONS, PUT, DELETE), or it is a POST
 *   or PATCH that carries an Idempotency-Key.
 * Waits grow exponentially with jitter, or follow the server's Retry-After.
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export const INITIAL_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/** A Retry-After longer than this is not waited for: the error is raised instead. */
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
  return status === 429 || (status >= 500 && status <= 599);
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
 * Milliseconds to wait before retry number `attempt + 1` (attempt counts from 0),
 * or null when the wait asked for is too long to be worth it.
 * @param {{attempt: number, retryAfter?: number | null, random?: () => number}} input
 * @returns {number | null}
 */
export function retryDelayMs({ attempt, retryAfter = null, random = Math.random }) {
  if (retryAfter !== null && retryAfter !== undefined) {
    return retryAfter > MAX_RETRY_AFTER_S ? null : retryAfter * 1000;
  }
  const ceiling = Math.min(INITIAL_DELAY_MS * 2 ** attempt, MAX_DELAY_MS);
  return Math.round(ceiling * (1 - 0.25 * random()));
}
