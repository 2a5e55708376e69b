package dev.governance.client;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** How the client sends a moment: RFC 3339 in UTC to the millisecond, as the service writes. */
final class Instants {
  private static final DateTimeFormatter WIRE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Instants() {}

  /** The moment as a query parameter's value; null stays null (the parameter is left out). */
  static String wire(Instant moment) {
    return moment == null ? null : WIRE.format(moment);
  }
}
