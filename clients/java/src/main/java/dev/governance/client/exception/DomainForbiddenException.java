package dev.governance.client.exception;

import dev.governance.client.model.Problem;
import java.util.List;
import java.util.Map;

/**
 * A write touched assets where the caller may not write (403 {@code domain_forbidden}); nothing
 * was written. {@link #assets()} lists them (the first 100) with their domains, null for an
 * asset outside every domain (where the global role decides); {@link #assetsCount()} counts them
 * all.
 */
public class DomainForbiddenException extends PermissionException {
  private static final long serialVersionUID = 1L;

  /** An asset the write was refused on, and the domain it is in (null: none). */
  public record RefusedAsset(String id, String domain) {}

  public DomainForbiddenException(ErrorDetails details) {
    super(details);
  }

  /** The refused assets the answer lists (at most 100). */
  public List<RefusedAsset> assets() {
    Problem problem = problem();
    if (problem == null || !(problem.extensions().get("assets") instanceof List<?> listed)) {
      return List.of();
    }
    return listed.stream()
        .filter(a -> a instanceof Map<?, ?> m && m.get("id") instanceof String)
        .map(a -> (Map<?, ?>) a)
        .map(m -> new RefusedAsset((String) m.get("id"), m.get("domain") instanceof String d ? d : null))
        .toList();
  }

  /** How many assets were refused in all. */
  public long assetsCount() {
    Problem problem = problem();
    Object count = problem == null ? null : problem.extensions().get("assets_count");
    return count instanceof Number n ? n.longValue() : assets().size();
  }
}
