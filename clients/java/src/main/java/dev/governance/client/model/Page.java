package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** One page of a collection; {@code nextCursor} is null on the last page. */
public record Page<T>(List<T> items, @JsonProperty("next_cursor") String nextCursor) {

  public Page {
    items = items == null ? List.of() : List.copyOf(items);
  }

  public boolean hasNext() {
    return nextCursor != null;
  }
}
