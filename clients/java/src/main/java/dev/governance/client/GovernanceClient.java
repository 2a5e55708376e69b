package dev.governance.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.governance.client.model.ServiceInfo;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * The entry point: one client per service and token, safe to share between threads.
 *
 * <pre>{@code
 * GovernanceClient client = GovernanceClient.builder()
 *     .baseUrl("https://gov.example.com")      // or GOVERNANCE_URL; /api/v1 is optional
 *     .token(System.getenv("GOVERNANCE_TOKEN")) // or GOVERNANCE_TOKEN
 *     .build();
 * Asset orders = client.assets().get("model.jaffle_shop.orders");
 * }</pre>
 */
public final class GovernanceClient {
  /** This library's version, sent in the User-Agent. */
  public static final String VERSION = "0.1.0";

  private final Requester http;
  private final AssetsService assets;
  private final LineageService lineage;
  private final TokensService tokens;
  private final EventsService events;
  private final PoliciesService policies;
  private final QualityService quality;
  private final QueryService query;

  private GovernanceClient(Requester http) {
    this.http = http;
    this.assets = new AssetsService(http);
    this.lineage = new LineageService(http);
    this.tokens = new TokensService(http);
    this.events = new EventsService(http);
    this.policies = new PoliciesService(http);
    this.quality = new QualityService(http);
    this.query = new QueryService(http);
  }

  public static Builder builder() {
    return new Builder(System::getenv);
  }

  /** A client configured only from {@code GOVERNANCE_URL} and {@code GOVERNANCE_TOKEN}. */
  public static GovernanceClient fromEnv() {
    return builder().build();
  }

  public AssetsService assets() {
    return assets;
  }

  public LineageService lineage() {
    return lineage;
  }

  /** The event log: replay events after a sequence number, filtered by type. */
  public EventsService events() {
    return events;
  }

  /** Governance policies, their violations and evaluation. */
  public PoliciesService policies() {
    return policies;
  }

  /** Data quality rules, their results and dbt run results. */
  public QualityService quality() {
    return quality;
  }

  /** The JSON query language and read-only Cypher for administrators. */
  public QueryService query() {
    return query;
  }

  /** Token management; needs a token with the {@code admin} scope. */
  public TokensService tokens() {
    return tokens;
  }

  /** {@code GET /api/v1}: the service's name and version (no token needed). */
  public ServiceInfo info() {
    return http.json(ApiCall.get(""), ServiceInfo.class);
  }

  /** {@code GET /api/v1/openapi.json}: the service's OpenAPI 3.1 document. */
  public JsonNode openApi() {
    return http.json(ApiCall.get("/openapi.json"), JsonNode.class);
  }

  /** The normalised base URL, ending in {@code /api/v1}. */
  public String baseUrl() {
    return http.baseUrl();
  }

  /**
   * Configures a client. Unset values fall back to the environment ({@code GOVERNANCE_URL},
   * {@code GOVERNANCE_TOKEN}) and then to the defaults: 2 retries, a 30 s timeout per attempt,
   * {@link JdkHttpTransport}.
   */
  public static final class Builder {
    private final Function<String, String> env;
    private String baseUrl;
    private String token;
    private int maxRetries = 2;
    private Duration timeout = Duration.ofSeconds(30);
    private Transport transport;
    private Sleeper sleeper = Sleeper.THREAD;
    private String userAgentSuffix;

    Builder(Function<String, String> env) {
      this.env = env;
    }

    /** {@code http(s)://host[:port][/prefix]}, with or without the trailing {@code /api/v1}. */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** The API token ({@code dgs_...}), sent as {@code Authorization: Bearer}. */
    public Builder token(String token) {
      this.token = token;
      return this;
    }

    /**
     * Retries after the first attempt (default 2; 0 disables). Only connection errors, 429 and
     * 5xx are retried, and a POST only with an {@code Idempotency-Key}, which the client then
     * adds by itself.
     */
    public Builder maxRetries(int maxRetries) {
      if (maxRetries < 0) {
        throw new IllegalArgumentException("maxRetries must be >= 0");
      }
      this.maxRetries = maxRetries;
      return this;
    }

    /** How long one attempt may take before {@code RequestTimeoutException} (default 30 s). */
    public Builder timeout(Duration timeout) {
      if (timeout == null || timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive");
      }
      this.timeout = timeout;
      return this;
    }

    /** Replaces the HTTP layer (default {@link JdkHttpTransport}). */
    public Builder transport(Transport transport) {
      this.transport = Objects.requireNonNull(transport, "transport");
      return this;
    }

    /** Replaces how the client waits between retries (for tests). */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    /** Appended to the User-Agent, e.g. {@code "my-sync-job/1.2"}. */
    public Builder userAgent(String suffix) {
      this.userAgentSuffix = suffix;
      return this;
    }

    /**
     * @throws IllegalStateException when no base URL is given here or in {@code GOVERNANCE_URL}
     * @throws IllegalArgumentException when the base URL is not {@code http(s)://host...}
     */
    public GovernanceClient build() {
      String url = firstNonBlank(baseUrl, env.apply("GOVERNANCE_URL"));
      if (url == null) {
        throw new IllegalStateException(
            "no base URL: call baseUrl(...) or set GOVERNANCE_URL, e.g. http://localhost:8080");
      }
      String agent =
          "governance-client-java/" + VERSION + " java/" + System.getProperty("java.version")
              + (userAgentSuffix == null ? "" : " " + userAgentSuffix);
      Requester http =
          new Requester(
              Urls.normalizeBaseUrl(url),
              firstNonBlank(token, env.apply("GOVERNANCE_TOKEN")),
              transport == null ? new JdkHttpTransport() : transport,
              new RetryPolicy(maxRetries),
              sleeper,
              timeout,
              agent);
      return new GovernanceClient(http);
    }

    private static String firstNonBlank(String a, String b) {
      if (a != null && !a.isBlank()) {
        return a.strip();
      }
      return b != null && !b.isBlank() ? b.strip() : null;
    }
  }
}
