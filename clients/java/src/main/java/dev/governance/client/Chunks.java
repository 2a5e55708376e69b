package dev.governance.client;

import dev.governance.client.exception.BadRequestException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/** Splits items into consecutive chunks of at most {@code size}, lazily, and pushes them. */
final class Chunks {
  private Chunks() {}

  static <T> Iterable<List<T>> of(Iterable<T> items, int size) {
    if (size < 1) {
      throw new IllegalArgumentException("chunk size must be >= 1, got " + size);
    }
    return () ->
        new Iterator<>() {
          private final Iterator<T> source = items.iterator();

          @Override
          public boolean hasNext() {
            return source.hasNext();
          }

          @Override
          public List<T> next() {
            if (!source.hasNext()) {
              throw new NoSuchElementException();
            }
            List<T> chunk = new ArrayList<>(Math.min(size, 1024));
            while (chunk.size() < size && source.hasNext()) {
              chunk.add(source.next());
            }
            return chunk;
          }
        };
  }

  /**
   * Sends the items as consecutive requests of at most {@code size} (1 to {@code max}) and
   * sums the answers, starting from {@code zero}. A chunk the service refuses as too large
   * (413) is sent again as two halves, until a single item is refused.
   */
  static <T, R> R push(
      Iterable<T> items, int size, int max, R zero, Function<List<T>, R> send, BinaryOperator<R> plus) {
    if (size < 1 || size > max) {
      throw new IllegalArgumentException("chunkSize must be between 1 and " + max + ", got " + size);
    }
    R total = zero;
    for (List<T> chunk : of(items, size)) {
      total = plus.apply(total, pushChunk(chunk, send, plus));
    }
    return total;
  }

  private static <T, R> R pushChunk(List<T> chunk, Function<List<T>, R> send, BinaryOperator<R> plus) {
    try {
      return send.apply(chunk);
    } catch (BadRequestException e) {
      if (e.status() != 413 || chunk.size() < 2) {
        throw e;
      }
      int half = chunk.size() / 2;
      return plus.apply(
          pushChunk(chunk.subList(0, half), send, plus),
          pushChunk(chunk.subList(half, chunk.size()), send, plus));
    }
  }
}
