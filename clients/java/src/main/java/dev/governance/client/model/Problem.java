package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.io.Serializable;
import java.util.List;

/** An RFC 9457 problem, as every error answer of the service carries it. */
public record Problem(
    String type,
    String title,
    Integer status,
    String detail,
    String instance,
    String code,
    @JsonProperty("request_id") String requestId,
    List<FieldError> errors)
    implements Serializable {

  public Problem {
    errors = errors == null ? List.of() : List.copyOf(errors);
  }
}
