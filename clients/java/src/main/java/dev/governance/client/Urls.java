package dev.governance.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Base URL normalisation and percent-encoding (RFC 3986), checked by the shared vectors. */
final class Urls {
  static final String API_PREFIX = "/api/v1";
  private static final char[] HEX = "0123456789ABCDEF".toCharArray();

  private Urls() {}

  /**
   * {@code http://host:8080}, {@code http://host:8080/}, {@code http://host:8080/api/v1/} all
   * become {@code http://host:8080/api/v1}; a path prefix before {@code /api/v1} is kept.
   */
  static String normalizeBaseUrl(String raw) {
    if (raw == null || raw.isBlank()) {
      throw new IllegalArgumentException("base URL is empty");
    }
    String url = raw.strip();
    while (url.endsWith("/")) {
      url = url.substring(0, url.length() - 1);
    }
    URI uri;
    try {
      uri = URI.create(url);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("base URL is not a valid URI: " + raw, e);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
      throw new IllegalArgumentException("base URL must be http(s)://host[:port][/prefix]: " + raw);
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException("base URL must not have a query or fragment: " + raw);
    }
    return url.endsWith(API_PREFIX) ? url : url + API_PREFIX;
  }

  /**
   * Encodes a value as ONE path segment: every byte of its UTF-8 form except the unreserved
   * {@code A-Z a-z 0-9 - . _ ~} becomes {@code %XX}, so {@code /}, {@code ?}, {@code #},
   * {@code %} and spaces cannot change the path. (Not {@code URLEncoder}: that is form
   * encoding and turns spaces into {@code +}.)
   */
  static String encodeSegment(String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    StringBuilder out = new StringBuilder(bytes.length * 3);
    for (byte b : bytes) {
      int c = b & 0xFF;
      if (isUnreserved(c)) {
        out.append((char) c);
      } else {
        out.append('%').append(HEX[c >> 4]).append(HEX[c & 0xF]);
      }
    }
    return out.toString();
  }

  /** {@code a=1&b=x%20y}, each name and value encoded like a segment; null values skipped. */
  static String encodeQuery(List<Map.Entry<String, String>> params) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, String> p : params) {
      if (p.getValue() == null) {
        continue;
      }
      if (out.length() > 0) {
        out.append('&');
      }
      out.append(encodeSegment(p.getKey())).append('=').append(encodeSegment(p.getValue()));
    }
    return out.toString();
  }

  private static boolean isUnreserved(int c) {
    return (c >= 'A' && c <= 'Z')
        || (c >= 'a' && c <= 'z')
        || (c >= '0' && c <= '9')
        || c == '-'
        || c == '.'
        || c == '_'
        || c == '~';
  }
}
