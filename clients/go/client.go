package governance

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"time"
)

// Version is this library's version, sent in the User-Agent header.
const Version = "0.1.0"

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
	// Lineage: /lineage.
	Lineage *LineageService
	// Tokens: /tokens (admin scope).
	Tokens *TokensService
	// Events: /events, the event log.
	Events *EventsService
	// Policies: /policies, their violations and evaluation.
	Policies *PoliciesService
	// Quality: /quality, rules, results and dbt run results.
	Quality *QualityService
	// Query: /query, the JSON query language and read-only Cypher.
	Query *QueryService

	baseURL    string
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
// [DefaultMaxRetries]; 0 turns retries off).
func WithMaxRetries(n int) Option { return func(o *options) { o.maxRetries = max(n, 0) } }

// WithTimeout bounds each attempt of a request, body included (default
// [DefaultTimeout]; 0 means no bound beyond the context's).
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
	c.Events = &EventsService{c}
	c.Policies = &PoliciesService{c}
	c.Quality = &QualityService{c}
	c.Query = &QueryService{c}
	return c, nil
}

// BaseURL is the normalised API address, ending in /api/v1.
func (c *Client) BaseURL() string { return c.baseURL }

// ServiceInfo is the answer of GET /api/v1.
type ServiceInfo struct {
	Service    string `json:"service"`
	Version    string `json:"version"`
	APIVersion string `json:"api_version"`
}

// Info returns the service's name and version (needs no token).
func (c *Client) Info(ctx context.Context, opts ...RequestOption) (*ServiceInfo, error) {
	var info ServiceInfo
	if _, err := c.send(ctx, call{method: http.MethodGet, out: &info, opts: opts}); err != nil {
		return nil, err
	}
	return &info, nil
}

// OpenAPI returns the service's OpenAPI 3.1 document (needs no token).
func (c *Client) OpenAPI(ctx context.Context, opts ...RequestOption) (json.RawMessage, error) {
	var doc json.RawMessage
	if _, err := c.send(ctx, call{method: http.MethodGet, path: "/openapi.json", out: &doc, opts: opts}); err != nil {
		return nil, err
	}
	return doc, nil
}

// RequestOption adjusts one request.
type RequestOption func(*requestOptions)

type requestOptions struct {
	ifMatch        string
	idempotencyKey string
	requestID      string
	strict         bool
	project        *string
	prune          *bool
}

// IfMatch makes an update or delete of an asset, policy or quality rule
// conditional on its version (sent as If-Match: "<version>"); a mismatch
// fails with [ErrPreconditionFailed] and changes nothing.
func IfMatch(version int) RequestOption {
	return func(r *requestOptions) { r.ifMatch = `"` + strconv.Itoa(version) + `"` }
}

// IdempotencyKey sets the Idempotency-Key of a POST (the client makes one
// itself for every POST it may retry) or of a PATCH (which then gets retried).
func IdempotencyKey(key string) RequestOption {
	return func(r *requestOptions) { r.idempotencyKey = key }
}

// RequestID sets X-Request-ID, which the service echoes and logs.
func RequestID(id string) RequestOption { return func(r *requestOptions) { r.requestID = id } }

// Strict makes a lineage write fail with 422 unknown_assets, writing nothing,
// instead of creating placeholder assets for ids that do not exist.
func Strict() RequestOption { return func(r *requestOptions) { r.strict = true } }

// call is one API operation.
type call struct {
	method      string
	path        string // already escaped, relative to the base URL
	query       url.Values
	body        any // nil: no body
	contentType string
	// raw, when set, is sent as is instead of body's JSON.
	raw             []byte
	contentEncoding string
	// timeout, when set, replaces the client's per-attempt timeout (unless
	// that is 0, meaning none).
	timeout time.Duration
	out     any // where a 2xx JSON body goes; nil: ignored
	opts    []RequestOption
	// noAutoKey: this POST gets no automatic Idempotency-Key (so it is not
	// retried), because the service does not keep its answer for a repeat.
	noAutoKey bool
}

// reply is what a successful call tells besides its body.
type reply struct {
	status int
	header http.Header
}

// send runs a call with the retry policy.
func (c *Client) send(ctx context.Context, k call) (*reply, error) {
	var ro requestOptions
	for _, opt := range k.opts {
		opt(&ro)
	}
	payload := k.raw
	if payload != nil {
		if k.contentType == "" {
			k.contentType = "application/json"
		}
	} else if k.body != nil {
		var err error
		if payload, err = json.Marshal(k.body); err != nil {
			return nil, fmt.Errorf("governance: encoding request body: %w", err)
		}
		if k.contentType == "" {
			k.contentType = "application/json"
		}
	}
	if k.method == http.MethodPost && ro.idempotencyKey == "" && c.maxRetries > 0 && !k.noAutoKey {
		ro.idempotencyKey = crand.Text()
	}
	query := k.query
	if ro.strict {
		query = cloneValues(query)
		query.Set("strict", "true")
	}
	if ro.project != nil || ro.prune != nil {
		query = cloneValues(query)
		if ro.project != nil {
			query.Set("project", *ro.project)
		}
		if ro.prune != nil {
			query.Set("prune", strconv.FormatBool(*ro.prune))
		}
	}
	target := c.baseURL + k.path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	for attempt := 0; ; attempt++ {
		rep, body, err := c.attempt(ctx, k, ro, target, payload)
		if err == nil {
			return rep, decodeBody(k, target, body)
		}
		status, wait, hasWait := 0, time.Duration(0), false
		var apiErr *Error
		if errors.As(err, &apiErr) {
			status, wait, hasWait = apiErr.Status, apiErr.RetryAfter, apiErr.HasRetryAfter
		} else if ctx.Err() != nil {
			return nil, err // the caller gave up; not the service's fault
		}
		if attempt >= c.maxRetries || !shouldRetry(k.method, status, ro.idempotencyKey != "") {
			return nil, err
		}
		if !hasWait {
			wait = backoff(attempt, c.random())
		} else if wait > maxRetryAfter {
			return nil, err
		}
		if c.sleep(ctx, wait) != nil {
			return nil, err
		}
	}
}

// sendFor runs a call whose 2xx answer is one JSON value of type T.
func sendFor[T any](ctx context.Context, c *Client, k call) (*T, error) {
	var out T
	k.out = &out
	if _, err := c.send(ctx, k); err != nil {
		return nil, err
	}
	return &out, nil
}

// attempt sends the request once. It answers a *ConnectionError when nothing
// came back, an *Error for a status of 400 or more.
func (c *Client) attempt(ctx context.Context, k call, ro requestOptions, target string,
	payload []byte) (*reply, []byte, error) {
	if timeout := c.timeout; timeout > 0 {
		if k.timeout > 0 {
			timeout = k.timeout
		}
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, k.method, target, body)
	if err != nil {
		return nil, nil, fmt.Errorf("governance: building request: %w", err)
	}
	c.setHeaders(req, k, ro)
	resp, err := c.httpClient.Do(req)
	if err != nil {
		return nil, nil, &ConnectionError{Method: k.method, URL: target, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, nil, &ConnectionError{Method: k.method, URL: target, Err: err}
	}
	if resp.StatusCode >= 400 {
		return nil, nil, c.newError(k.method, target, resp, data)
	}
	return &reply{status: resp.StatusCode, header: resp.Header}, data, nil
}

func (c *Client) setHeaders(req *http.Request, k call, ro requestOptions) {
	h := req.Header
	h.Set("Accept", "application/json, application/problem+json")
	h.Set("User-Agent", c.userAgent)
	if c.token != "" {
		h.Set("Authorization", "Bearer "+c.token)
	}
	if k.contentType != "" {
		h.Set("Content-Type", k.contentType)
	}
	if k.contentEncoding != "" {
		h.Set("Content-Encoding", k.contentEncoding)
	}
	if ro.ifMatch != "" {
		h.Set("If-Match", ro.ifMatch)
	}
	if ro.idempotencyKey != "" {
		h.Set("Idempotency-Key", ro.idempotencyKey)
	}
	if ro.requestID != "" {
		h.Set("X-Request-ID", ro.requestID)
	}
}

// newError builds the *Error for an error answer.
func (c *Client) newError(method, target string, resp *http.Response, data []byte) *Error {
	e := &Error{Method: method, URL: target, Body: data}
	if isJSON(resp.Header.Get("Content-Type")) {
		_ = json.Unmarshal(data, &e.Problem) // a body that is not a problem leaves it empty
	}
	e.Status = resp.StatusCode
	if e.RequestID == "" {
		e.RequestID = resp.Header.Get("X-Request-ID")
	}
	if e.Detail == "" && e.Title == "" {
		e.Title = http.StatusText(resp.StatusCode)
	}
	e.RetryAfter, e.HasRetryAfter = parseRetryAfter(resp.Header.Get("Retry-After"), c.now())
	return e
}

func decodeBody(k call, target string, body []byte) error {
	if k.out == nil || len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	if err := json.Unmarshal(body, k.out); err != nil {
		return fmt.Errorf("governance: %s %s: decoding response: %w", k.method, target, err)
	}
	return nil
}

func isJSON(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "application/json" || mt == "application/problem+json")
}

func cloneValues(v url.Values) url.Values {
	out := url.Values{}
	for key, vals := range v {
		out[key] = append([]string(nil), vals...)
	}
	return out
}

// Ptr returns a pointer to v, for optional filter fields such as
// AssetListOptions.Placeholder.
func Ptr[T any](v T) *T { return &v }
