package dev.governance.client;

import java.util.List;
import java.util.Map;
import java.util.Optional;

final class Headers {
  private Headers() {}

  static Optional<String> first(Map<String, List<String>> headers, String name) {
    for (Map.Entry<String, List<String>> e : headers.entrySet()) {
      if (e.getKey() != null && e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty()) {
        return Optional.ofNullable(e.getValue().get(0));
      }
    }
    return Optional.empty();
  }
}
