package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Page;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * Every listing's one shape: a collection that pages itself. Iterating (or {@link #stream()})
 * fetches the first page, then follows {@code next_cursor} until the service has no more;
 * {@link #pages()} gives the pages themselves and {@link #firstPage()} one request's worth.
 * Nothing is fetched before that, and each iteration starts again from the beginning.
 * {@link #pageSize(int)} and {@link #fromCursor(String)} give a copy that asks for pages of
 * that size, or starts where a saved cursor points.
 *
 * <pre>{@code
 * for (Asset a : client.assets().list(filter).pageSize(200)) { ... }
 * Page<Token> first = client.tokens().list().firstPage();
 * for (Token t : client.tokens().list().fromCursor(first.nextCursor())) { ... }
 * }</pre>
 *
 * Errors surface as {@link dev.governance.client.exception.GovernanceException} from
 * {@code hasNext()}.
 */
public final class PagedIterable<T> implements Iterable<T> {
  /** Fetches one page: after {@code cursor} (null: the first), of {@code pageSize} (null: the service's). */
  @FunctionalInterface
  interface Fetcher<T> {
    Page<T> fetch(String cursor, Integer pageSize);
  }

  private final Fetcher<T> fetch;
  private final String firstCursor;
  private final Integer pageSize;

  PagedIterable(Fetcher<T> fetch) {
    this(fetch, null, null);
  }

  private PagedIterable(Fetcher<T> fetch, String firstCursor, Integer pageSize) {
    this.fetch = fetch;
    this.firstCursor = firstCursor;
    this.pageSize = pageSize;
  }

  /** A plain listing: {@code GET path?limit=&cursor=}, each page sent with {@code options}. */
  static <T> PagedIterable<T> of(
      Requester http, String path, RequestOptions options, TypeReference<Page<T>> type) {
    return new PagedIterable<>(
        (cursor, size) ->
            http.json(
                ApiCall.get(path).param("limit", size).param("cursor", cursor).options(options),
                type));
  }

  /**
   * The same listing, {@code size} items per request (the service's {@code limit}: 1-500 for
   * most listings; its default, 50, when not set).
   */
  public PagedIterable<T> pageSize(int size) {
    if (size < 1) {
      throw new IllegalArgumentException("pageSize must be >= 1, got " + size);
    }
    return new PagedIterable<>(fetch, firstCursor, size);
  }

  /** The same listing, starting from a cursor an earlier page gave ({@link Page#nextCursor()}). */
  public PagedIterable<T> fromCursor(String cursor) {
    Objects.requireNonNull(cursor, "cursor");
    return new PagedIterable<>(fetch, cursor, pageSize);
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
            Page<T> page = fetch.fetch(cursor, pageSize);
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
    return fetch.fetch(firstCursor, pageSize);
  }

  /** A sequential stream over every item, fetched lazily. */
  public Stream<T> stream() {
    return StreamSupport.stream(
        Spliterators.spliteratorUnknownSize(iterator(), Spliterator.ORDERED | Spliterator.NONNULL),
        false);
  }
}
