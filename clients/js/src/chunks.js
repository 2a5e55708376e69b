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

/**
 * Adds one chunk's answer into a running total: numbers add up, lists join,
 * objects add up field by field (so `{edges: {created: 1}}` sums too).
 * @param {Record<string, any>} total changed in place
 * @param {Record<string, any>} answer
 * @returns {Record<string, any>} total
 */
export function addAnswer(total, answer) {
  for (const [key, value] of Object.entries(answer ?? {})) {
    if (typeof value === 'number') total[key] = (total[key] ?? 0) + value;
    else if (Array.isArray(value)) total[key] = [...(total[key] ?? []), ...value];
    else if (value && typeof value === 'object') total[key] = addAnswer(total[key] ?? {}, value);
  }
  return total;
}
