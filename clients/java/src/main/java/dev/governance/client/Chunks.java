package dev.governance.client;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/** Splits items into consecutive chunks of at most {@code size}, lazily. */
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
}
