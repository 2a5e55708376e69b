package dev.governance.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.governance.client.exception.WebhookVerificationException;
import dev.governance.client.model.Event;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies webhook deliveries (Standard Webhooks): the {@code webhook-signature} header holds
 * one or more space-separated {@code v1,<base64 HMAC-SHA256>} signatures of
 * {@code <webhook-id>.<webhook-timestamp>.<body>}, keyed with the base64-decoded secret
 * (without its {@code whsec_} prefix).
 *
 * <pre>{@code
 * Event event = Webhooks.verify(secret, headers, rawBody);   // throws when not genuine
 * }</pre>
 *
 * Pass the body exactly as received (bytes, before any JSON parsing).
 */
public final class Webhooks {
  /** How far the {@code webhook-timestamp} may be from now by default: 5 minutes. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  private static final String PREFIX = "whsec_";

  private Webhooks() {}

  /** {@link #verify(String, Map, byte[], Duration, Instant)} with 5 minutes' tolerance, now. */
  public static Event verify(String secret, Map<String, String> headers, byte[] body) {
    return verify(secret, headers, body, DEFAULT_TOLERANCE, Instant.now());
  }

  /**
   * Checks the signature and the timestamp and returns the event the body holds.
   *
   * @param secret the endpoint's secret, {@code whsec_<base64>} (the prefix is optional)
   * @param headers the request headers; names are matched case-insensitively
   * @param body the raw request body
   * @param tolerance how far the timestamp may be from {@code now}, either way
   * @param now the current time (for tests)
   * @throws WebhookVerificationException when the delivery is not genuine or not an event
   */
  public static Event verify(
      String secret, Map<String, String> headers, byte[] body, Duration tolerance, Instant now) {
    Objects.requireNonNull(secret, "secret");
    Objects.requireNonNull(headers, "headers");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(tolerance, "tolerance");
    Objects.requireNonNull(now, "now");
    String id = header(headers, "webhook-id");
    String timestamp = header(headers, "webhook-timestamp");
    String signatures = header(headers, "webhook-signature");

    long seconds;
    try {
      seconds = Long.parseLong(timestamp.strip());
    } catch (NumberFormatException e) {
      throw new WebhookVerificationException("webhook-timestamp is not a number of seconds", e);
    }
    long skew = Math.abs(now.getEpochSecond() - seconds);
    if (skew > tolerance.toSeconds()) {
      throw new WebhookVerificationException(
          "webhook-timestamp is " + skew + " s away from now (tolerance " + tolerance.toSeconds() + " s)");
    }

    byte[] expected = sign(key(secret), id, timestamp.strip(), body);
    boolean matched = false;
    for (String entry : signatures.strip().split("\\s+")) {
      int comma = entry.indexOf(',');
      if (comma < 0 || !entry.substring(0, comma).equals("v1")) {
        continue;
      }
      byte[] given;
      try {
        given = Base64.getDecoder().decode(entry.substring(comma + 1));
      } catch (IllegalArgumentException notBase64) {
        continue;
      }
      // No early exit: every entry is compared, each in constant time.
      matched |= MessageDigest.isEqual(expected, given);
    }
    if (!matched) {
      throw new WebhookVerificationException("no webhook-signature matches the body");
    }

    try {
      JsonNode tree = Json.MAPPER.readTree(body);
      if (tree == null || !tree.isObject()) {
        throw new WebhookVerificationException("the body is not an event envelope");
      }
      return Json.MAPPER.treeToValue(tree, Event.class);
    } catch (IOException e) {
      throw new WebhookVerificationException("the body is not an event envelope: " + e.getMessage(), e);
    }
  }

  private static String header(Map<String, String> headers, String name) {
    for (Map.Entry<String, String> e : headers.entrySet()) {
      if (e.getKey() != null && e.getKey().equalsIgnoreCase(name) && e.getValue() != null
          && !e.getValue().isBlank()) {
        return e.getValue();
      }
    }
    throw new WebhookVerificationException("missing header " + name);
  }

  private static byte[] key(String secret) {
    String encoded = secret.strip();
    if (encoded.startsWith(PREFIX)) {
      encoded = encoded.substring(PREFIX.length());
    }
    try {
      byte[] key = Base64.getDecoder().decode(encoded);
      if (key.length == 0) {
        throw new IllegalArgumentException("the webhook secret is empty");
      }
      return key;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the webhook secret is not whsec_<base64>", e);
    }
  }

  private static byte[] sign(byte[] key, String id, String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is not available", e);
    }
  }
}
