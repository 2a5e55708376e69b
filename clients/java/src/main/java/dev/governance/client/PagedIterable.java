package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Page;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A collection that pages itself: iterating fetches the first page, then follows
 * {@code next_cursor} until the service has no more. Nothing is fetched before iteration, and
 * each {@link #iterator()} starts again from the beginning. Errors surface as
 * {@link dev.governance.client.exception.GovernanceException} from {@code hasNext()}.
 */
public final class PagedIterable<T> implements Iterable<T> {
  private final String firstCursor;
  private final Function<String, Page<T>> fetch;

  PagedIterable(String firstCursor, Function<String, Page<T>> fetch) {
    this.firstCursor = firstCursor;
    this.fetch = fetch;
  }

  /** A plain listing: {@code GET path?limit=&cursor=}, each page sent with {@code options}. */
  static <T> PagedIterable<T> of(
      Requester http, String path, Integer pageSize, RequestOptions options, TypeReference<Page<T>> type) {
    return new PagedIterable<>(
        null,
        cursor ->
            http.json(
                ApiCall.get(path).param("limit", pageSize).param("cursor", cursor).options(options),
                type));
  }

  @Override
  public Iterator<T> iterator() {
    Iterator<Page<T>> pages = pages().iterator();
    return new Iterator<>() {
      private Iterator<T> current = Collections.emptyIterator();

      @Override
      public boolean hasNext() {
        while (!current.hasNext() && pages.hasNext()) {
          current = pages.next().items().iterator();
        }
        return current.hasNext();
      }

      @Override
      public T next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }
    };
  }

  /** The pages themselves, for callers that want the cursors or page-at-a-time work. */
  public Iterable<Page<T>> pages() {
    return () ->
        new Iterator<>() {
          private String cursor = firstCursor;
          private boolean more = true;

          @Override
          public boolean hasNext() {
            return more;
          }

          @Override
          public Page<T> next() {
            if (!more) {
              throw new NoSuchElementException();
            }
            Page<T> page = fetch.apply(cursor);
            if (page.nextCursor() != null && Objects.equals(page.nextCursor(), cursor)) {
              throw new IllegalStateException("the service answered the same cursor again: " + cursor);
            }
            cursor = page.nextCursor();
            more = cursor != null;
            return page;
          }
        };
  }

  /** Only the first page (one request). */
  public Page<T> firstPage() {
    return fetch.apply(firstCursor);
  }

  /** A sequential stream over every item, fetched lazily. */
  public Stream<T> stream() {
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }
}
