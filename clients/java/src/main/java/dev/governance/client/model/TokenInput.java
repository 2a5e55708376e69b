package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.List;

/** The body of {@code POST /tokens}. {@code expiresInDays} (1-3650) is optional. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TokenInput(
    String name, List<Scope> scopes, @JsonProperty("expires_in_days") Integer expiresInDays) {

  public TokenInput {
    scopes = scopes == null ? null : List.copyOf(scopes);
  }
}
