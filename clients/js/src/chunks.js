/** Splitting edges into requests the server accepts (at most 10,000 each). */

export const MAX_BULK_EDGES = 10_000;

/**
 * Consecutive slices of at most `size` items; none for an empty array.
 * @template T
 * @param {readonly T[]} items
 * @param {number} size
 * @returns {Generator<T[]>}
 */
export function* chunks(items, size) {
  checkChunkSize(size);
  for (let start = 0; start < items.length; start += size) {
    yield items.slice(start, start + size);
  }
}

/**
 * The same over any iterable or async iterable, read lazily.
 * @template T
 * @param {Iterable<T> | AsyncIterable<T>} items
 * @param {number} size
 * @returns {AsyncGenerator<T[]>}
 */
export async function* chunksOf(items, size) {
  checkChunkSize(size);
  if (Array.isArray(items)) {
    yield* chunks(items, size);
    return;
  }
  let batch = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length === size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length > 0) yield batch;
}

function checkChunkSize(size) {
  if (!Number.isInteger(size) || size < 1) {
    throw new RangeError(`chunkSize must be a positive integer, got ${size}`);
  }
}
