package dev.governance.client;

final class Ids {
  private Ids() {}

  /** The id as one encoded path segment; refuses null and empty ids before any request. */
  static String segment(String what, String id) {
    if (id == null || id.isEmpty()) {
      throw new IllegalArgumentException(what + " must not be null or empty");
    }
    return Urls.encodeSegment(id);
  }
}
