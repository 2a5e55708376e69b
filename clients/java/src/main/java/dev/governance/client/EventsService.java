package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Event;
import dev.governance.client.model.Page;
import java.util.Collection;

/**
 * {@code /events}: the event log, oldest first, and the live stream. Obtain it with
 * {@link GovernanceClient#events()}. Order by {@link Event#seq()}, drop duplicates by
 * {@link Event#id()}.
 */
public final class EventsService {
  private static final TypeReference<Page<Event>> PAGE = new TypeReference<>() {};
  private final Requester http;

  EventsService(Requester http) {
    this.http = http;
  }

  /**
   * One page of events.
   *
   * @param after only events with a larger {@code seq}; null for the start of the log
   * @param types types or patterns such as {@code asset.*}, sent comma-separated; null or empty
   *     for every type
   * @param limit events per page (1-500), null for the service default (50)
   * @param cursor a page's {@code nextCursor}, to continue; null for the first page
   */
  public Page<Event> list(Long after, Collection<String> types, Integer limit, String cursor) {
    return listWithResponse(after, types, limit, cursor, null).value();
  }

  /** {@link #list} with per-request options, and the answer's status and headers. */
  public Response<Page<Event>> listWithResponse(
      Long after, Collection<String> types, Integer limit, String cursor, RequestOptions options) {
    return http.call(
        ApiCall.get("/events")
            .param("after", cursor == null ? after : null)
            .param("types", joined(types))
            .param("limit", limit)
            .param("cursor", cursor)
            .options(options),
        PAGE);
  }

  /** Every event after {@code after} (null: from the start), paged automatically. */
  public PagedIterable<Event> iterate(Long after, Collection<String> types) {
    return iterate(after, types, null, null);
  }

  /** As {@link #iterate(Long, Collection)}, {@code pageSize} (1-500) events per request. */
  public PagedIterable<Event> iterate(Long after, Collection<String> types, Integer pageSize) {
    return iterate(after, types, pageSize, null);
  }

  /** As {@link #iterate(Long, Collection, Integer)}, each page sent with {@code options}. */
  public PagedIterable<Event> iterate(
      Long after, Collection<String> types, Integer pageSize, RequestOptions options) {
    return new PagedIterable<>(
        null, cursor -> listWithResponse(after, types, pageSize, cursor, options).value());
  }

  /** Every new event of every type, live, from now on. See {@link EventStream}. */
  public EventStream stream() {
    return stream(null, null, null);
  }

  /**
   * Live events ({@code GET /events/stream}, Server-Sent Events). Nothing is sent before the
   * first {@link EventStream#hasNext()}.
   *
   * @param after start after this sequence number: the service first replays the log from
   *     there, then goes live, without a gap or a duplicate. Null for live events from now on
   *     (then a connection lost before the first event resumes from the reconnection, not
   *     from the start).
   * @param types types or patterns such as {@code asset.*}; null or empty for every type
   */
  public EventStream stream(Long after, Collection<String> types) {
    return stream(after, types, null);
  }

  /**
   * As {@link #stream(Long, Collection)}. {@code options} apply to every connection; their
   * timeout bounds opening one and the silence after which it is replaced.
   */
  public EventStream stream(Long after, Collection<String> types, RequestOptions options) {
    if (after != null && after < 0) {
      throw new IllegalArgumentException("after must be >= 0, got " + after);
    }
    return new EventStream(http, after, joined(types), options, http.timeout(options));
  }

  private static String joined(Collection<String> types) {
    if (types == null || types.isEmpty()) {
      return null;
    }
    return String.join(",", types);
  }
}
