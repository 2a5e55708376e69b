// The shared contract vectors (clients/contract/vectors.json): pure, no network.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import {
  MAX_BULK_EDGES,
  chunks,
  encodeSegment,
  errorKind,
  normalizeBaseURL,
  parseRetryAfter,
  shouldRetry,
  verifyWebhook,
  WebhookVerificationError,
  GovernanceError,
} from '../index.js';

const vectors = JSON.parse(
  readFileSync(new URL('../../contract/vectors.json', import.meta.url), 'utf8'),
);

describe('base URL normalisation', () => {
  for (const v of vectors.base_url) {
    test(`${v.input} -> ${v.expected}`, () => {
      assert.equal(normalizeBaseURL(v.input), v.expected);
    });
  }
});

describe('id as one path segment', () => {
  for (const v of vectors.path_segment) {
    test(`${v.id} -> ${v.encoded}`, () => {
      assert.equal(encodeSegment(v.id), v.encoded);
      assert.equal(decodeURIComponent(v.encoded), v.id);
    });
  }
});

describe('error status and code -> kind', () => {
  for (const v of vectors.errors) {
    test(`${v.status} ${v.code} -> ${v.kind}`, () => {
      assert.equal(errorKind(v.status, v.code), v.kind);
    });
  }
});

describe('retry decisions', () => {
  for (const v of vectors.retry) {
    const key = v.idempotency_key ? 'with' : 'without';
    test(`${v.method} ${v.status} ${key} Idempotency-Key -> ${v.retry}`, () => {
      assert.equal(
        shouldRetry({ method: v.method, status: v.status, idempotencyKey: v.idempotency_key }),
        v.retry,
      );
    });
  }
});

describe('Retry-After parsing', () => {
  for (const v of vectors.retry_after) {
    test(`${JSON.stringify(v.header)} -> ${v.seconds}`, () => {
      assert.equal(parseRetryAfter(v.header), v.seconds);
    });
  }
});

describe('bulk chunking', () => {
  test('the default chunk size is the server limit', () => {
    assert.equal(MAX_BULK_EDGES, 10_000);
  });
  for (const v of vectors.bulk_chunks) {
    test(`${v.items} items, at most ${v.max} -> [${v.chunks}]`, () => {
      const items = Array.from({ length: v.items }, (_, i) => i);
      const got = [...chunks(items, v.max)];
      assert.deepEqual(got.map((c) => c.length), v.chunks);
      assert.deepEqual(got.flat(), items);
    });
  }
});

describe('webhook signatures', () => {
  vectors.webhook_signatures.forEach((v, i) => {
    test(`#${i} ${v.id} ${v.signature.split(' ').length} signature(s) -> ${v.valid}`, () => {
      const headers = {
        'webhook-id': v.id,
        'webhook-timestamp': String(v.timestamp),
        'webhook-signature': v.signature,
      };
      const check = (h, body) => verifyWebhook(v.secret, h, body, { now: v.timestamp });
      if (v.valid) {
        assert.deepEqual(check(headers, v.body), JSON.parse(v.body));
        assert.deepEqual(check(new Headers(headers), Buffer.from(v.body)), JSON.parse(v.body));
        const upper = Object.fromEntries(Object.entries(headers).map(([k, x]) => [k.toUpperCase(), x]));
        assert.deepEqual(check(upper, new TextEncoder().encode(v.body)), JSON.parse(v.body));
      } else {
        assert.throws(() => check(headers, v.body), WebhookVerificationError);
        assert.throws(() => check(new Headers(headers), Buffer.from(v.body)), GovernanceError);
      }
    });
  });

  test('a timestamp beyond the tolerance is refused, within it accepted', () => {
    const v = vectors.webhook_signatures.find((x) => x.valid);
    const headers = {
      'webhook-id': v.id,
      'webhook-timestamp': String(v.timestamp),
      'webhook-signature': v.signature,
    };
    assert.throws(() => verifyWebhook(v.secret, headers, v.body, { now: v.timestamp + 301 }), WebhookVerificationError);
    assert.throws(() => verifyWebhook(v.secret, headers, v.body, { now: v.timestamp - 301 }), WebhookVerificationError);
    assert.ok(verifyWebhook(v.secret, headers, v.body, { now: v.timestamp + 300 }));
    assert.ok(verifyWebhook(v.secret, headers, v.body, { now: v.timestamp + 1000, toleranceSeconds: 1000 }));
    // now defaults to the clock: the vector's timestamp is long past or far ahead
    if (Math.abs(Date.now() / 1000 - v.timestamp) > 300) {
      assert.throws(() => verifyWebhook(v.secret, headers, v.body), WebhookVerificationError);
    }
  });

  test('missing headers and a wrong secret are refused', () => {
    const v = vectors.webhook_signatures.find((x) => x.valid);
    const opts = { now: v.timestamp };
    assert.throws(() => verifyWebhook(v.secret, { 'webhook-id': v.id }, v.body, opts), WebhookVerificationError);
    const headers = {
      'webhook-id': v.id,
      'webhook-timestamp': String(v.timestamp),
      'webhook-signature': v.signature,
    };
    const other = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    assert.throws(() => verifyWebhook(other, headers, v.body, opts), WebhookVerificationError);
  });
});
