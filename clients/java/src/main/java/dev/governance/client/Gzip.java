package dev.governance.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.zip.GZIPOutputStream;

/** Uploads (manifests, run results) travel gzipped. */
final class Gzip {
  private Gzip() {}

  /** The bytes gzipped, or as they are when they already start with the gzip magic (1f 8b). */
  static byte[] unlessGzipped(byte[] bytes) {
    return isGzip(bytes) ? bytes : gzip(bytes);
  }

  static boolean isGzip(byte[] bytes) {
    return bytes.length >= 2 && (bytes[0] & 0xff) == 0x1f && (bytes[1] & 0xff) == 0x8b;
  }

  private static byte[] gzip(byte[] bytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, bytes.length / 4));
    try (GZIPOutputStream zip = new GZIPOutputStream(out, 64 * 1024)) {
      zip.write(bytes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
