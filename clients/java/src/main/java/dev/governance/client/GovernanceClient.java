package dev.governance.client;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.governance.client.model.Health;
import dev.governance.client.model.Me;
import dev.governance.client.model.ServiceInfo;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.function.DoubleSupplier;
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
 *
 * Each operation also has a {@code ...WithResponse(..., RequestOptions)} form: per-call
 * options (timeout, retries, idempotency key, request id, headers) and the answer's status and
 * headers in a {@link Response}.
 */
public final class GovernanceClient {
  /** This library's version, sent in the User-Agent. */
  public static final String VERSION = "0.4.0";

  /** The per-attempt timeout unless the builder sets another: 60 s. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

  /** The retries after a failed attempt unless the builder sets another: 2. */
  public static final int DEFAULT_MAX_RETRIES = 2;

  private static final TypeReference<Map<String, Object>> JSON_OBJECT = new TypeReference<>() {};

  private final Requester http;
  private final AssetsService assets;
  private final LineageService lineage;
  private final TokensService tokens;
  private final EventsService events;
  private final PoliciesService policies;
  private final QualityService quality;
  private final QueryService query;
  private final WebhooksService webhooks;
  private final UsersService users;
  private final TeamsService teams;
  private final DomainsService domains;

  private GovernanceClient(Requester http) {
    this.http = http;
    this.assets = new AssetsService(http);
    this.lineage = new LineageService(http);
    this.tokens = new TokensService(http);
    this.events = new EventsService(http);
    this.policies = new PoliciesService(http);
    this.quality = new QualityService(http);
    this.query = new QueryService(http);
    this.webhooks = new WebhooksService(http);
    this.users = new UsersService(http);
    this.teams = new TeamsService(http);
    this.domains = new DomainsService(http);
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

  /** Webhook endpoints and their deliveries; needs the {@code admin} scope. */
  public WebhooksService webhooks() {
    return webhooks;
  }

  /** Dashboard users; needs the {@code admin} scope. */
  public UsersService users() {
    return users;
  }

  /** Teams of users, given roles in domains; writing needs the {@code admin} scope. */
  public TeamsService teams() {
    return teams;
  }

  /** Domains: sets of assets owned by a team, with roles for teams inside them. */
  public DomainsService domains() {
    return domains;
  }

  /**
   * {@code GET /me}: the calling token and its user, with the user's teams and domain roles
   * (any valid token).
   */
  public Me me() {
    return meWithResponse(RequestOptions.DEFAULTS).value();
  }

  public Response<Me> meWithResponse(RequestOptions options) {
    return http.call(ApiCall.get("/me").options(options), Me.class);
  }

  /** {@code GET /api/v1}: the service's name and version (no token needed). */
  public ServiceInfo info() {
    return infoWithResponse(RequestOptions.DEFAULTS).value();
  }

  public Response<ServiceInfo> infoWithResponse(RequestOptions options) {
    return http.call(ApiCall.get("").options(options), ServiceInfo.class);
  }

  /**
   * {@code GET /api/v1/openapi.json}: the service's OpenAPI 3.1 document, as JSON read into
   * maps, lists, strings, numbers, booleans and nulls.
   */
  public Map<String, Object> openApi() {
    return openApiWithResponse(RequestOptions.DEFAULTS).value();
  }

  public Response<Map<String, Object>> openApiWithResponse(RequestOptions options) {
    return http.call(ApiCall.get("/openapi.json").options(options), JSON_OBJECT);
  }

  /** {@code GET /healthz}: the process is up ({@code status} {@code ok}); no token needed. */
  public Health health() {
    return healthWithResponse(RequestOptions.DEFAULTS).value();
  }

  public Response<Health> healthWithResponse(RequestOptions options) {
    return http.call(ApiCall.get("/healthz").fromRoot().options(options), Health.class);
  }

  /**
   * {@code GET /readyz}: Neo4j is reachable and the schema applied ({@code status}
   * {@code ready}); no token needed.
   *
   * @throws dev.governance.client.exception.UnavailableException (503) when not ready, after
   *     the client's retries; pass {@code RequestOptions.builder().maxRetries(0)} to probe once
   */
  public Health ready() {
    return readyWithResponse(RequestOptions.DEFAULTS).value();
  }

  public Response<Health> readyWithResponse(RequestOptions options) {
    return http.call(ApiCall.get("/readyz").fromRoot().options(options), Health.class);
  }

  /** {@code GET /metrics}: the service's Prometheus metrics, as text; no token needed. */
  public String metrics() {
    return metricsWithResponse(RequestOptions.DEFAULTS).value();
  }

  public Response<String> metricsWithResponse(RequestOptions options) {
    return http.callForText(
        ApiCall.get("/metrics").fromRoot().accept("text/plain, */*").options(options));
  }

  /** The normalised base URL, ending in {@code /api/v1}. */
  public String baseUrl() {
    return http.baseUrl();
  }

  /**
   * Configures a client. Unset values fall back to the environment ({@code GOVERNANCE_URL},
   * {@code GOVERNANCE_TOKEN}) and then to the defaults: 2 retries, a 60 s timeout per attempt,
   * {@link JdkHttpTransport}.
   */
  public static final class Builder {
    private final Function<String, String> env;
    private String baseUrl;
    private String token;
    private int maxRetries = DEFAULT_MAX_RETRIES;
    private Duration timeout = DEFAULT_TIMEOUT;
    private Transport transport;
    private Sleeper sleeper = Sleeper.THREAD;
    private DoubleSupplier random;
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
     * Retries after the first attempt (default 2; 0 disables). Only connection errors,
     * timeouts, 408, 429 and 5xx are retried, and a POST only with an {@code Idempotency-Key},
     * which the client then adds by itself (or when it only reads: the query facility).
     */
    public Builder maxRetries(int maxRetries) {
      if (maxRetries < 0) {
        throw new IllegalArgumentException("maxRetries must be >= 0");
      }
      this.maxRetries = maxRetries;
      return this;
    }

    /**
     * How long one attempt may take before {@code RequestTimeoutException} (default 60 s;
     * uploads get at least {@link LineageService#MANIFEST_TIMEOUT}).
     */
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

    /** Replaces the source of backoff jitter, numbers in [0, 1) (for tests). */
    Builder jitter(DoubleSupplier random) {
      this.random = random;
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
              random == null ? new RetryPolicy() : new RetryPolicy(random),
              maxRetries,
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
