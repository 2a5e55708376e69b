package dev.governance.client;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The file name of a {@code Content-Disposition} answer, read as RFC 6266 says. */
final class ContentDisposition {
  private static final Pattern EXTENDED =
      Pattern.compile("(?i)(?:^|;)\\s*filename\\*\\s*=\\s*UTF-8'[^']*'([^;\\s]+)");
  private static final Pattern QUOTED =
      Pattern.compile("(?i)(?:^|;)\\s*filename\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([^;\\s]+))");

  private ContentDisposition() {}

  /** {@code filename*} (UTF-8, percent-encoded) where given, else {@code filename}; else null. */
  static String filename(String header) {
    if (header == null) {
      return null;
    }
    Matcher extended = EXTENDED.matcher(header);
    if (extended.find()) {
      try {
        return URLDecoder.decode(extended.group(1).replace("+", "%2B"), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException malformed) {
        // a broken percent-encoding: the plain filename, if any, still names the file
      }
    }
    Matcher plain = QUOTED.matcher(header);
    if (!plain.find()) {
      return null;
    }
    return plain.group(1) != null ? plain.group(1).replaceAll("\\\\(.)", "$1") : plain.group(2);
  }
}
