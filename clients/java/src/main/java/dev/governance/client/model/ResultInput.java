package dev.governance.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * One run of a quality rule to record: {@code status} {@code pass}, {@code fail} or
 * {@code error}; an optional {@code observedValue} (any JSON value, e.g. a failing-row count)
 * and {@code message}; {@code runAt} when the check ran (null: now, by the service's clock;
 * kept to the millisecond).
 *
 * <pre>{@code
 * client.quality().recordResult(ruleId, ResultInput.fail(3, "3 null rows").at(finishedAt));
 * }</pre>
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ResultInput(
    String status,
    @JsonProperty("observed_value") Object observedValue,
    String message,
    @JsonProperty("run_at") Instant runAt) {

  public ResultInput {
    runAt = runAt == null ? null : runAt.truncatedTo(ChronoUnit.MILLIS);
  }

  public static ResultInput pass() {
    return new ResultInput("pass", null, null, null);
  }

  public static ResultInput fail(Object observedValue, String message) {
    return new ResultInput("fail", observedValue, message, null);
  }

  /** The check could not run; a failure is neither announced nor forgotten. */
  public static ResultInput error(String message) {
    return new ResultInput("error", null, message, null);
  }

  /** The same result, run at {@code time}. */
  public ResultInput at(Instant time) {
    return new ResultInput(status, observedValue, message, time);
  }

  public ResultInput withObservedValue(Object value) {
    return new ResultInput(status, value, message, runAt);
  }

  public ResultInput withMessage(String value) {
    return new ResultInput(status, observedValue, value, runAt);
  }
}
