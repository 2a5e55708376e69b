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
