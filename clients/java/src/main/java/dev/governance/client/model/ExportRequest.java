package dev.governance.client.model;

import java.time.Instant;
import java.util.Objects;

/**
 * What {@code lineage().export(...)} writes: the neighbourhood of an asset in a {@code format}, in
 * a {@code direction} (null: both) to a {@code depth} (null: the service's default, 5), at most
 * {@code limit} assets, the root included (null: the service's export maximum, which is also the
 * most it takes), as it stood at {@code asOf} (null: now). Immutable.
 *
 * <pre>{@code
 * client.lineage().export(id, ExportRequest.of(ExportFormat.DOT));
 * client.lineage().export(id, ExportRequest.of(ExportFormat.CSV).withDirection(Direction.UPSTREAM).withDepth(3));
 * }</pre>
 */
public record ExportRequest(
    ExportFormat format, Direction direction, Integer depth, Integer limit, Instant asOf) {

  public ExportRequest {
    Objects.requireNonNull(format, "format: the file format of the export");
    positive("depth", depth);
    positive("limit", limit);
  }

  /** The whole neighbourhood (both directions, the default depth and limit) now, in format. */
  public static ExportRequest of(ExportFormat format) {
    return new ExportRequest(format, null, null, null, null);
  }

  public ExportRequest withDirection(Direction value) {
    return new ExportRequest(format, value, depth, limit, asOf);
  }

  public ExportRequest withDepth(int value) {
    return new ExportRequest(format, direction, value, limit, asOf);
  }

  public ExportRequest withLimit(int value) {
    return new ExportRequest(format, direction, depth, value, asOf);
  }

  public ExportRequest withAsOf(Instant value) {
    return new ExportRequest(format, direction, depth, limit, value);
  }

  private static void positive(String what, Integer value) {
    if (value != null && value < 1) {
      throw new IllegalArgumentException(what + " must be >= 1, got " + value);
    }
  }
}
