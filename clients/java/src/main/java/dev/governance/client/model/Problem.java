package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An RFC 9457 problem, as every error answer of the service carries it. {@code extensions}
 * holds the members beyond the standard ones, as JSON values ({@code String}, {@code Number},
 * {@code Boolean}, {@code List}, {@code Map}), e.g. {@code holder} of a {@code dataset_taken}
 * conflict.
 */
public record Problem(
    String type,
    String title,
    Integer status,
    String detail,
    String instance,
    String code,
    @JsonProperty("request_id") String requestId,
    List<FieldError> errors,
    @JsonAnySetter Map<String, Object> extensions)
    implements Serializable {

  public Problem {
    errors = errors == null ? List.of() : List.copyOf(errors);
    extensions =
        extensions == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extensions));
  }

  /** A problem without extension members. */
  public Problem(
      String type,
      String title,
      Integer status,
      String detail,
      String instance,
      String code,
      String requestId,
      List<FieldError> errors) {
    this(type, title, status, detail, instance, code, requestId, errors, null);
  }

  /** The extension member {@code name} as a string, or null when absent or not a string. */
  public String extension(String name) {
    return extensions.get(name) instanceof String text ? text : null;
  }
}
