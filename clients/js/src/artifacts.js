/**
 * dbt artifacts on their way up (`manifest.json`, `run_results.json`): read from a
 * path or taken as bytes (or, where allowed, as the parsed document), then gzipped
 * unless they already are.
 */

import { readFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';

/**
 * @param {string | Uint8Array | ArrayBuffer | object} source
 * @param {string} method the method's name, for the error message
 * @param {{document?: boolean}} [accepts] `document: true` also takes a plain object
 * @returns {Promise<Uint8Array>}
 */
export async function artifactBytes(source, method, { document = false } = {}) {
  if (typeof source === 'string') return readFile(source);
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (document && isPlainObject(source)) return Buffer.from(JSON.stringify(source), 'utf8');
  throw new TypeError(
    `${method} takes a file path, a Buffer or a Uint8Array${document ? ' or the parsed JSON object' : ''}`,
  );
}

/** The bytes gzipped, or as they are if they already start with the gzip magic 0x1f 0x8b. */
export function gzipOnce(bytes) {
  const gzipped = bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  return gzipped ? bytes : gzipSync(bytes);
}

function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
