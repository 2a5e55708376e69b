package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Event;
import dev.governance.client.model.Page;
import java.util.Collection;

/**
 * {@code /events}: the event log, oldest first. Obtain it with {@link GovernanceClient#events()}.
 * Order by {@link Event#seq()}, drop duplicates by {@link Event#id()}.
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
    return http.json(
        ApiCall.get("/events")
            .param("after", cursor == null ? after : null)
            .param("types", joined(types))
            .param("limit", limit)
            .param("cursor", cursor),
        PAGE);
  }

  /** Every event after {@code after} (null: from the start), paged automatically. */
  public PagedIterable<Event> iterate(Long after, Collection<String> types) {
    return iterate(after, types, null);
  }

  /** As {@link #iterate(Long, Collection)}, {@code pageSize} (1-500) events per request. */
  public PagedIterable<Event> iterate(Long after, Collection<String> types, Integer pageSize) {
    return new PagedIterable<>(null, cursor -> list(after, types, pageSize, cursor));
  }

  private static String joined(Collection<String> types) {
    if (types == null || types.isEmpty()) {
      return null;
    }
    return String.join(",", types);
  }
}
