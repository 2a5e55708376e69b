/**
 * Addresses: the base URL, one path segment, a query string.
 * Pure functions; tested against clients/contract/vectors.json.
 */

const API_PREFIX = '/api/v1';

/**
 * The API root for a service address given with or without `/api/v1`:
 * `http://host:8080/` and `http://host:8080/api/v1/` both give `http://host:8080/api/v1`.
 * @param {string} input
 * @returns {string}
 */
export function normalizeBaseURL(input) {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new TypeError('baseURL must be a non-empty string such as "http://localhost:8080"');
  }
  let url;
  try {
    url = new URL(input.trim());
  } catch {
    throw new TypeError(`baseURL is not an absolute URL: ${JSON.stringify(input)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`baseURL must use http or https, not ${url.protocol}`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new TypeError('baseURL must not carry a query, a fragment or credentials');
  }
  let path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith(API_PREFIX)) path += API_PREFIX;
  return url.origin + path;
}

/**
 * Percent-encodes an id as ONE path segment: everything but the unreserved
 * characters `A-Z a-z 0-9 - . _ ~` is encoded (so `/` becomes `%2F`, `(` `%28`).
 * @param {string} id
 * @returns {string}
 */
export function encodeSegment(id) {
  if (typeof id !== 'string' || id === '') {
    throw new TypeError(`an id must be a non-empty string, got ${JSON.stringify(id)}`);
  }
  return encodeURIComponent(id).replace(
    /[!'()*]/g,
    (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase(),
  );
}

/**
 * A query string from an object: `undefined` and `null` are left out, an array
 * repeats its key (`tag=a&tag=b`), booleans become `true`/`false`, a `Date`
 * its RFC 3339 instant in UTC to the millisecond (`as_of`, `from`, `to`).
 * @param {Record<string, unknown> | undefined} params
 * @returns {string} without the leading `?`, or '' when empty
 */
export function buildQuery(params) {
  if (!params) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      search.append(key, item instanceof Date ? instant(key, item) : String(item));
    }
  }
  return search.toString();
}

/** A `Date` as the service reads an instant; an invalid one is refused before sending. */
function instant(key, date) {
  if (Number.isNaN(date.getTime())) throw new RangeError(`${key} is an invalid Date`);
  return date.toISOString();
}
