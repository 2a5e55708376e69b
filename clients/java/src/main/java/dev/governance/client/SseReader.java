package dev.governance.client;

import dev.governance.client.exception.GovernanceException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads Server-Sent Events frames (the WHATWG "event stream" format) from a byte stream:
 * lines end in LF, CRLF or CR; {@code :} starts a comment; {@code data} lines join with LF; a
 * blank line dispatches; {@code id} persists across frames; {@code retry} sets the reconnection
 * delay. A frame cut short by the end of the stream is dropped, as the format says.
 */
final class SseReader {
  /** One dispatched frame: the last id seen, the event name (or null) and the data. */
  record Frame(String id, String event, String data) {}

  /** A line longer than this is not an event of this service; refuse rather than fill memory. */
  static final int MAX_LINE = 32 * 1024 * 1024;

  private final InputStream in;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream(256);
  private boolean afterCr;
  private boolean firstLine = true;
  private StringBuilder data;
  private String event;
  private String lastId;
  private Long retryMillis;

  SseReader(InputStream in) {
    this.in = in;
  }

  /** The next frame with data, or null at the end of the stream. */
  Frame next() throws IOException {
    for (String text = readLine(); text != null; text = readLine()) {
      if (text.isEmpty()) {
        Frame frame = data == null ? null : new Frame(lastId, event, withoutLastNewline(data));
        data = null;
        event = null;
        if (frame != null) {
          return frame;
        }
      } else if (text.charAt(0) != ':') {
        field(text);
      }
    }
    return null;
  }

  /** The delay the last {@code retry:} field asked for, or null when none came. */
  Long retryMillis() {
    return retryMillis;
  }

  private void field(String text) {
    int colon = text.indexOf(':');
    String name = colon < 0 ? text : text.substring(0, colon);
    String value = colon < 0 ? "" : text.substring(colon + 1);
    if (value.startsWith(" ")) {
      value = value.substring(1);
    }
    switch (name) {
      case "data" -> (data == null ? data = new StringBuilder() : data).append(value).append('\n');
      case "event" -> event = value;
      case "id" -> {
        if (value.indexOf('\0') < 0) {
          lastId = value;
        }
      }
      case "retry" -> {
        if (!value.isEmpty() && value.length() < 10 && value.chars().allMatch(Character::isDigit)) {
          retryMillis = Long.parseLong(value);
        }
      }
      default -> {
        // Unknown fields are ignored.
      }
    }
  }

  private String readLine() throws IOException {
    line.reset();
    for (int b = in.read(); b != -1; b = in.read()) {
      boolean lfOfCrLf = afterCr && b == '\n';
      afterCr = b == '\r';
      if (lfOfCrLf) {
        continue;
      }
      if (b == '\n' || b == '\r') {
        return decode();
      }
      if (line.size() >= MAX_LINE) {
        throw new GovernanceException(
            "an event stream line is longer than " + MAX_LINE + " bytes", 200, "invalid_response", null, null);
      }
      line.write(b);
    }
    return null;
  }

  private String decode() {
    String text = line.toString(StandardCharsets.UTF_8);
    if (firstLine && text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    firstLine = false;
    return text;
  }

  private static String withoutLastNewline(StringBuilder data) {
    return data.substring(0, data.length() - 1);
  }
}
