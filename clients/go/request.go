package governance

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// mergePatch is the media type of a JSON Merge Patch (RFC 7396).
const mergePatch = "application/merge-patch+json"

// RequestOption adjusts one request. Every method takes them last.
type RequestOption func(*requestOptions)

type requestOptions struct {
	ifMatch        string
	idempotencyKey string
	requestID      string
	timeout        *time.Duration
	maxRetries     *int
	header         http.Header
	strict         bool
	project        *string
	prune          *bool
	namespace      *string
	origin         *string
	replace        bool
	depth          *int
}

// IfMatch makes an update or delete of an asset, policy or quality rule
// conditional on its version (sent as If-Match: "<version>"); a mismatch
// fails with [ErrPreconditionFailed] and changes nothing.
func IfMatch(version int) RequestOption {
	return func(r *requestOptions) { r.ifMatch = `"` + strconv.Itoa(version) + `"` }
}

// IdempotencyKey sets the Idempotency-Key of a POST or of a PATCH (which
// then gets retried). The client makes one itself for every POST it may
// retry, except those a repeat cannot harm: queries,
// [LineageService.CheckManifest], [LineageService.Bulk] and
// [LineageService.IngestOpenLineage] (and their chunking helpers), which are
// retried without one; a key given here is sent with them all the same.
func IdempotencyKey(key string) RequestOption {
	return func(r *requestOptions) { r.idempotencyKey = key }
}

// RequestID sets X-Request-ID, which the service echoes and logs.
func RequestID(id string) RequestOption { return func(r *requestOptions) { r.requestID = id } }

// Timeout bounds each attempt of this request, body included, instead of the
// client's [WithTimeout] (0: only the context bounds it). For
// [EventsService.Stream] it bounds the wait for the answer's headers and for
// the next line of the stream.
func Timeout(d time.Duration) RequestOption {
	return func(r *requestOptions) { d = max(d, 0); r.timeout = &d }
}

// MaxRetries sets how many times this request may be retried, instead of
// the client's [WithMaxRetries].
func MaxRetries(n int) RequestOption {
	return func(r *requestOptions) { n = max(n, 0); r.maxRetries = &n }
}

// Header sets a header of this request, replacing any the client would send
// under that name (Authorization included, to act with another token once).
// Give it several times for several headers.
func Header(name, value string) RequestOption {
	return func(r *requestOptions) {
		if r.header == nil {
			r.header = http.Header{}
		}
		r.header.Set(name, value)
	}
}

// Strict makes a lineage write fail with 422 unknown_assets, writing nothing,
// instead of creating placeholder assets for ids that do not exist and
// datasets nobody holds.
func Strict() RequestOption { return func(r *requestOptions) { r.strict = true } }

// call is one API operation.
type call struct {
	method string
	path   string // already escaped, relative to the base URL (or the root, see root)
	// root: path is relative to the service's root, not to /api/v1.
	root        bool
	query       url.Values
	body        any // nil: no body
	contentType string
	// raw, when set, is sent as is instead of body's JSON.
	raw             []byte
	contentEncoding string
	// accept replaces the default Accept header.
	accept string
	// timeout, when set, replaces the client's per-attempt timeout (unless
	// that is 0, meaning none, or the caller gave [Timeout]).
	timeout time.Duration
	// out is where a 2xx body goes: JSON decoded into it, or the bytes
	// themselves when it is a *[]byte; nil: ignored.
	out  any
	opts []RequestOption
	// noReplay: the service keeps no answer of this POST for a repeat (it
	// holds a secret) and ignores an Idempotency-Key, so the POST gets no
	// automatic key and is never retried: a repeat would do the work twice.
	noReplay bool
	// repeatable: a repeat of this POST does no harm, as it only reads (a
	// query) or its writes merge (bulk edges, OpenLineage events), so it is
	// retried like a GET and gets no automatic Idempotency-Key, which would
	// cost the service a claim round trip for nothing. A key the caller gives
	// is sent all the same.
	repeatable bool
}

func (k call) options() requestOptions {
	var ro requestOptions
	for _, opt := range k.opts {
		opt(&ro)
	}
	return ro
}

// send runs a call with the retry policy. The *Response is that of the last
// attempt the service answered, error answers included; nil when none did.
func (c *Client) send(ctx context.Context, k call) (*Response, error) {
	ro := k.options()
	payload, err := k.encode()
	if err != nil {
		return nil, err
	}
	retries := c.maxRetries
	if ro.maxRetries != nil {
		retries = *ro.maxRetries
	}
	if k.method == http.MethodPost && ro.idempotencyKey == "" && retries > 0 && !k.noReplay && !k.repeatable {
		ro.idempotencyKey = crand.Text()
	}
	target := c.target(k, ro)
	repeatable := ro.idempotencyKey != "" && !k.noReplay || k.repeatable
	for attempt := 0; ; attempt++ {
		resp, body, err := c.attempt(ctx, k, ro, target, payload)
		if resp != nil {
			resp.Attempts = attempt + 1
		}
		if err == nil {
			return resp, decodeBody(k, target, body)
		}
		wait, again := c.retryDelay(ctx, k.method, repeatable, err, attempt, retries)
		if !again || c.sleep(ctx, wait) != nil {
			return resp, err
		}
	}
}

// retryDelay decides whether a failed attempt is tried again, and after how
// long: the Retry-After the service gave (at most maxRetryAfter), else a
// jittered exponential backoff.
func (c *Client) retryDelay(ctx context.Context, method string, repeatable bool, err error,
	attempt, retries int) (time.Duration, bool) {
	status := 0
	var apiErr *Error
	var connErr *ConnectionError
	switch {
	case errors.As(err, &apiErr):
		status = apiErr.Status
	case !errors.As(err, &connErr) || ctx.Err() != nil:
		return 0, false // not a failure of the service, or the caller gave up
	}
	if attempt >= retries || !shouldRetry(method, status, repeatable) {
		return 0, false
	}
	if apiErr != nil && apiErr.HasRetryAfter {
		return min(apiErr.RetryAfter, maxRetryAfter), true
	}
	return backoff(attempt, c.random()), true
}

// sendFor runs a call whose 2xx answer is one JSON value of type T.
func sendFor[T any](ctx context.Context, c *Client, k call) (*T, *Response, error) {
	var out T
	k.out = &out
	resp, err := c.send(ctx, k)
	if err != nil {
		return nil, resp, err
	}
	return &out, resp, nil
}

// sendAt runs a call on one resource, refusing an empty id.
func sendAt[T any](ctx context.Context, c *Client, k call, collection, id string, rest ...string) (*T, *Response, error) {
	path, err := idPath(collection, id, rest...)
	if err != nil {
		return nil, nil, err
	}
	k.path = path
	return sendFor[T](ctx, c, k)
}

// deleteAt deletes one resource, refusing an empty id.
func deleteAt(ctx context.Context, c *Client, collection, id string, ro []RequestOption) (*Response, error) {
	path, err := idPath(collection, id)
	if err != nil {
		return nil, err
	}
	return c.send(ctx, call{method: http.MethodDelete, path: path, opts: ro})
}

func (k *call) encode() ([]byte, error) {
	if k.raw != nil || k.body == nil {
		if k.raw != nil && k.contentType == "" {
			k.contentType = "application/json"
		}
		return k.raw, nil
	}
	payload, err := json.Marshal(k.body)
	if err != nil {
		return nil, fmt.Errorf("governance: encoding request body: %w", err)
	}
	if k.contentType == "" {
		k.contentType = "application/json"
	}
	return payload, nil
}

func (c *Client) target(k call, ro requestOptions) string {
	query := k.query
	if ro.strict || ro.project != nil || ro.prune != nil || ro.namespace != nil || ro.origin != nil || ro.replace || ro.depth != nil {
		query = cloneValues(query)
	}
	if ro.strict {
		query.Set("strict", "true")
	}
	if ro.project != nil {
		query.Set("project", *ro.project)
	}
	if ro.prune != nil {
		query.Set("prune", strconv.FormatBool(*ro.prune))
	}
	if ro.namespace != nil {
		query.Set("namespace", *ro.namespace)
	}
	if ro.origin != nil {
		query.Set("origin", *ro.origin)
	}
	if ro.replace {
		query.Set("replace", "true")
	}
	if ro.depth != nil {
		query.Set("depth", strconv.Itoa(*ro.depth))
	}
	target := c.baseURL + k.path
	if k.root {
		target = c.rootURL + k.path
	}
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	return target
}

// attemptTimeout is the bound of one attempt: the caller's [Timeout], else
// the call's own (when the client has one at all), else the client's.
func (c *Client) attemptTimeout(k call, ro requestOptions) time.Duration {
	switch {
	case ro.timeout != nil:
		return *ro.timeout
	case c.timeout > 0 && k.timeout > 0:
		return k.timeout
	default:
		return c.timeout
	}
}

// attempt sends the request once. It answers a *ConnectionError when nothing
// came back, an *Error (with the *Response) for a status of 400 or more.
func (c *Client) attempt(ctx context.Context, k call, ro requestOptions, target string,
	payload []byte) (*Response, []byte, error) {
	if timeout := c.attemptTimeout(k, ro); timeout > 0 {
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
	hr, err := c.httpClient.Do(req)
	if err != nil {
		return nil, nil, &ConnectionError{Method: k.method, URL: target, Err: err}
	}
	defer hr.Body.Close()
	data, err := io.ReadAll(hr.Body)
	if err != nil {
		return nil, nil, &ConnectionError{Method: k.method, URL: target, Err: err}
	}
	resp := newResponse(hr)
	if hr.StatusCode >= 400 {
		return resp, nil, c.newError(k.method, target, hr, data)
	}
	return resp, data, nil
}

func (c *Client) setHeaders(req *http.Request, k call, ro requestOptions) {
	h := req.Header
	h.Set("Accept", "application/json, application/problem+json")
	if k.accept != "" {
		h.Set("Accept", k.accept)
	}
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
	for name, values := range ro.header {
		h[name] = values
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
	if raw, ok := k.out.(*[]byte); ok {
		*raw = body
		return nil
	}
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
