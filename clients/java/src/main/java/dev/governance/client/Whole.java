package dev.governance.client;

import java.util.List;

/** An answer holding a whole collection, with no cursor: {@code {"items": [...]}}. */
record Whole<T>(List<T> items) {

  Whole {
    items = items == null ? List.of() : List.copyOf(items);
  }

  /** The items of an answer, with its status and headers. */
  static <T> Response<List<T>> items(Response<Whole<T>> answer) {
    return new Response<>(answer.status(), answer.headers(), answer.value().items());
  }
}
