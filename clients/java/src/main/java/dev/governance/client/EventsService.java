package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Event;
import dev.governance.client.model.EventFilter;
import dev.governance.client.model.Page;
import java.util.OptionalLong;

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

  /** The whole event log, oldest first, paged automatically. */
  public PagedIterable<Event> list() {
    return list(EventFilter.all());
  }

  /**
   * The events the filter keeps ({@code GET /events}), oldest first, paged automatically:
   * those after its sequence number, of its types or patterns (sent comma-separated).
   */
  public PagedIterable<Event> list(EventFilter filter) {
    return list(filter, RequestOptions.DEFAULTS);
  }

  /** As {@link #list(EventFilter)}, each page sent with {@code options}. */
  public PagedIterable<Event> list(EventFilter filter, RequestOptions options) {
    return new PagedIterable<>(
        (cursor, size) -> {
          // A cursor already says where the page starts.
          Long after = cursor == null ? boxed(filter.after()) : null;
          return http.json(
              ApiCall.get("/events")
                  .param("after", after)
                  .param("types", joined(filter))
                  .param("limit", size)
                  .param("cursor", cursor)
                  .options(options),
              PAGE);
        });
  }

  /** Every new event of every type, live, from now on. See {@link EventStream}. */
  public EventStream stream() {
    return stream(EventFilter.all());
  }

  /**
   * Live events ({@code GET /events/stream}, Server-Sent Events). Nothing is sent before
   * {@link EventStream#connect()} or the first {@link EventStream#hasNext()}.
   *
   * @param filter with {@link EventFilter#after(long)}, the service first replays the log from
   *     there, then goes live, without a gap or a duplicate; without it, live events from the
   *     connection on (then a connection lost before the first event resumes from the
   *     reconnection, not from the start). Its types or patterns ({@code asset.*}) keep
   *     events of those types.
   */
  public EventStream stream(EventFilter filter) {
    return stream(filter, RequestOptions.DEFAULTS);
  }

  /**
   * As {@link #stream(EventFilter)}. {@code options} apply to every connection; their
   * timeout bounds opening one and the silence after which it is replaced.
   */
  public EventStream stream(EventFilter filter, RequestOptions options) {
    return new EventStream(http, boxed(filter.after()), joined(filter), options, http.timeout(options));
  }

  private static Long boxed(OptionalLong value) {
    return value.isPresent() ? value.getAsLong() : null;
  }

  private static String joined(EventFilter filter) {
    return filter.types().isEmpty() ? null : String.join(",", filter.types());
  }
}
