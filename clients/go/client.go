package governance

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"
)

// Version is this library's version, sent in the User-Agent header.
const Version = "0.4.0"

// Defaults.
const (
	DefaultBaseURL    = "http://localhost:8080"
	DefaultMaxRetries = 2
	DefaultTimeout    = 60 * time.Second
)

// Client talks to one Data Governance Service. Make it with [NewClient]; it
// is safe for concurrent use.
type Client struct {
	// Assets: /assets.
	Assets *AssetsService
	// Lineage: /lineage, column lineage, dbt manifests and OpenLineage events.
	Lineage *LineageService
	// Tokens: /tokens (admin scope).
	Tokens *TokensService
	// Users: /users (admin scope).
	Users *UsersService
	// Teams: /teams, groups of users given roles in domains.
	Teams *TeamsService
	// Domains: /domains, sets of assets owned by a team.
	Domains *DomainsService
	// Events: /events, the event log and its live stream.
	Events *EventsService
	// Webhooks: /webhooks, endpoints that receive events (admin scope).
	Webhooks *WebhooksService
	// Policies: /policies, their violations and evaluation.
	Policies *PoliciesService
	// Quality: /quality, rules, results and dbt run results.
	Quality *QualityService
	// Query: /query, the JSON query language and read-only Cypher.
	Query *QueryService

	baseURL    string // ends in /api/v1
	rootURL    string // baseURL without /api/v1, where /healthz, /readyz and /metrics are
	token      string
	userAgent  string
	httpClient *http.Client
	maxRetries int
	timeout    time.Duration

	// Seams for tests: how to wait, draw jitter and tell the time.
	sleep  func(ctx context.Context, d time.Duration) error
	random func() float64
	now    func() time.Time
}

// Option configures a [Client].
type Option func(*options)

type options struct {
	baseURL    *string
	token      *string
	httpClient *http.Client
	maxRetries int
	timeout    time.Duration
	userAgent  string
}

// WithBaseURL sets the service address, with or without the trailing /api/v1
// ("http://localhost:8080" and "http://localhost:8080/api/v1" are the same).
// Without it the client reads GOVERNANCE_URL, then uses [DefaultBaseURL].
func WithBaseURL(baseURL string) Option { return func(o *options) { o.baseURL = &baseURL } }

// WithToken sets the API token sent as "Authorization: Bearer <token>".
// Without it the client reads GOVERNANCE_TOKEN. An empty token sends none.
func WithToken(token string) Option { return func(o *options) { o.token = &token } }

// WithHTTPClient sets the HTTP client (for proxies, TLS settings, tracing
// transports). The default is a new http.Client with no overall timeout;
// per-attempt timeouts come from [WithTimeout].
func WithHTTPClient(hc *http.Client) Option { return func(o *options) { o.httpClient = hc } }

// WithMaxRetries sets how many times a failed request is retried (default
// [DefaultMaxRetries]; 0 turns retries off). [MaxRetries] changes it for one
// request.
func WithMaxRetries(n int) Option { return func(o *options) { o.maxRetries = max(n, 0) } }

// WithTimeout bounds each attempt of a request, body included (default
// [DefaultTimeout]; 0 means no bound beyond the context's). [Timeout]
// changes it for one request.
func WithTimeout(d time.Duration) Option { return func(o *options) { o.timeout = max(d, 0) } }

// WithUserAgent puts an application name in front of the library's User-Agent.
func WithUserAgent(ua string) Option { return func(o *options) { o.userAgent = ua } }

// NewClient makes a client. Options override the GOVERNANCE_URL and
// GOVERNANCE_TOKEN environment variables.
func NewClient(opts ...Option) (*Client, error) {
	o := options{maxRetries: DefaultMaxRetries, timeout: DefaultTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	raw := DefaultBaseURL
	if o.baseURL != nil {
		raw = *o.baseURL
	} else if env := os.Getenv("GOVERNANCE_URL"); env != "" {
		raw = env
	}
	base, err := normalizeBaseURL(raw)
	if err != nil {
		return nil, err
	}
	token := os.Getenv("GOVERNANCE_TOKEN")
	if o.token != nil {
		token = *o.token
	}
	ua := fmt.Sprintf("governance-go/%s (%s)", Version, runtime.Version())
	if o.userAgent != "" {
		ua = o.userAgent + " " + ua
	}
	c := &Client{
		baseURL:    base,
		rootURL:    strings.TrimSuffix(base, apiPrefix),
		token:      token,
		userAgent:  ua,
		httpClient: o.httpClient,
		maxRetries: o.maxRetries,
		timeout:    o.timeout,
		sleep:      sleepContext,
		random:     rand.Float64,
		now:        time.Now,
	}
	if c.httpClient == nil {
		c.httpClient = &http.Client{}
	}
	c.Assets = &AssetsService{c}
	c.Lineage = &LineageService{c}
	c.Tokens = &TokensService{c}
	c.Users = &UsersService{c}
	c.Teams = &TeamsService{c}
	c.Domains = &DomainsService{c}
	c.Events = &EventsService{c}
	c.Webhooks = &WebhooksService{c}
	c.Policies = &PoliciesService{c}
	c.Quality = &QualityService{c}
	c.Query = &QueryService{c}
	return c, nil
}

// BaseURL is the normalised API address, ending in /api/v1.
func (c *Client) BaseURL() string { return c.baseURL }

// Ptr returns a pointer to v, for optional fields such as
// AssetListOptions.Placeholder or StreamOptions.After.
func Ptr[T any](v T) *T { return &v }
