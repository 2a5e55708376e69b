/**
 * Verifying webhook deliveries (Standard Webhooks): tested against the
 * `webhook_signatures` group of clients/contract/vectors.json.
 *
 *     const event = verifyWebhook(process.env.WEBHOOK_SECRET, req.headers, rawBody);
 */

import { createHmac, timingSafeEqual } from 'node:crypto';

import { WebhookVerificationError } from './errors.js';

export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Checks a delivery's signature and timestamp and returns its parsed JSON
 * envelope; throws WebhookVerificationError otherwise.
 * @param {string} secret `whsec_<base64>` (the prefix is optional)
 * @param {Headers | Record<string, string | string[] | undefined>} headers
 * @param {string | Uint8Array} body the raw body, exactly as received
 * @param {{toleranceSeconds?: number, now?: number | Date}} [options] `now` in seconds (or a Date)
 */
export function verifyWebhook(secret, headers, body, options = {}) {
  const { toleranceSeconds = DEFAULT_WEBHOOK_TOLERANCE_SECONDS } = options;
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('the webhook secret must be a non-empty string');
  }
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  if (key.length === 0) throw new TypeError('the webhook secret holds no key');

  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) {
    throw new WebhookVerificationError(
      'missing webhook-id, webhook-timestamp or webhook-signature header',
    );
  }
  if (!/^\d+$/.test(timestamp.trim())) {
    throw new WebhookVerificationError(`invalid webhook-timestamp ${JSON.stringify(timestamp)}`);
  }
  const sent = Number(timestamp.trim());
  const now = nowSeconds(options.now);
  if (Math.abs(now - sent) > toleranceSeconds) {
    throw new WebhookVerificationError(
      `webhook-timestamp ${sent} is more than ${toleranceSeconds} s from now (${Math.floor(now)})`,
    );
  }

  const raw = toBuffer(body);
  const expected = createHmac('sha256', key)
    .update(`${id}.${timestamp.trim()}.`)
    .update(raw)
    .digest();
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  if (!matched) throw new WebhookVerificationError('no webhook signature matched');

  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new WebhookVerificationError('the webhook body is not JSON', { cause: error });
  }
}

function header(headers, name) {
  if (!headers) return null;
  if (typeof headers.get === 'function' && typeof headers.has === 'function') {
    return headers.get(name);
  }
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue;
    if (Array.isArray(value)) return value.join(' ');
    return value === undefined || value === null ? null : String(value);
  }
  return null;
}

function toBuffer(body) {
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  throw new TypeError('the webhook body must be the raw string, Buffer or Uint8Array as received');
}

function nowSeconds(now) {
  if (now === undefined || now === null) return Date.now() / 1000;
  if (now instanceof Date) return now.getTime() / 1000;
  if (typeof now === 'number' && Number.isFinite(now)) return now;
  throw new TypeError('now must be seconds since the epoch or a Date');
}
