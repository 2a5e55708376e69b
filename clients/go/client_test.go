package governance

// Unit tests of the client's HTTP behaviour against local fake servers
// (httptest): encoding, retries, errors, paging, chunking. No service needed.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// fake is a scripted server: each request is recorded and answered by handle.
type fake struct {
	mu       sync.Mutex
	requests []*http.Request
	bodies   []string
	handle   func(n int, w http.ResponseWriter, r *http.Request)
}

func (f *fake) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	f.requests = append(f.requests, r)
	f.bodies = append(f.bodies, string(body))
	n := len(f.requests)
	f.mu.Unlock()
	r.Body = io.NopCloser(bytes.NewReader(body))
	f.handle(n, w, r)
}

func (f *fake) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.requests)
}

// newFake starts a fake server and a client for it whose sleeps are recorded
// instead of waited.
func newFake(t *testing.T, handle func(n int, w http.ResponseWriter, r *http.Request), opts ...Option) (*fake, *Client, *[]time.Duration) {
	t.Helper()
	f := &fake{handle: handle}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := NewClient(append([]Option{WithBaseURL(srv.URL), WithToken("dgs_test")}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	var sleeps []time.Duration
	c.sleep = func(ctx context.Context, d time.Duration) error {
		sleeps = append(sleeps, d)
		return ctx.Err()
	}
	return f, c, &sleeps
}

// arrayLengths decodes each request body as a JSON array and tells its length.
func arrayLengths(t *testing.T, bodies []string) []int {
	t.Helper()
	var sizes []int
	for _, b := range bodies {
		var items []json.RawMessage
		if err := json.Unmarshal([]byte(b), &items); err != nil {
			t.Fatalf("body %.80s: %v", b, err)
		}
		sizes = append(sizes, len(items))
	}
	return sizes
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeProblem(w http.ResponseWriter, status int, code string, extra map[string]any) {
	body := map[string]any{
		"type": "/problems/" + code, "title": http.StatusText(status), "status": status,
		"detail": "detail of " + code, "instance": "/api/v1/x", "code": code, "request_id": "req-" + code,
	}
	for k, v := range extra {
		body[k] = v
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Request-ID", "req-"+code)
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}

var ctx = context.Background()

func TestIDsTravelAsOneEncodedSegment(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"id": "x", "name": "x", "type": "table", "version": 1})
	})
	id := "s3://lake/raw/events.parquet"
	if _, _, err := c.Assets.Get(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Lineage.Upstream(ctx, "urn:li:(a,b)$@表", &TraversalOptions{Depth: 2}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Lineage.Graph(ctx, "edges", DirectionUpstream, nil); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/api/v1/assets/s3%3A%2F%2Flake%2Fraw%2Fevents.parquet",
		"/api/v1/lineage/urn%3Ali%3A%28a%2Cb%29%24%40%E8%A1%A8/upstream?depth=2",
		"/api/v1/lineage/%65dges?direction=upstream",
	}
	for i, w := range want {
		if got := f.requests[i].RequestURI; got != w {
			t.Errorf("request %d went to %q; want %q", i, got, w)
		}
	}
}

func TestEmptyIDIsRefusedWithoutARequest(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
	if _, _, err := c.Assets.Get(ctx, ""); !errors.Is(err, errEmptyID) {
		t.Errorf("Get(\"\") = %v; want errEmptyID", err)
	}
	if _, err := c.Assets.Delete(ctx, ""); !errors.Is(err, errEmptyID) {
		t.Errorf("Delete(\"\") = %v; want errEmptyID", err)
	}
	if f.count() != 0 {
		t.Errorf("%d requests sent; want 0", f.count())
	}
}

func TestRetryHonoursRetryAfter(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n <= 2 {
			w.Header().Set("Retry-After", "3")
			writeProblem(w, 503, "neo4j_unavailable", nil)
			return
		}
		writeJSON(w, 200, map[string]any{"service": "s", "version": "1", "api_version": "v1"})
	})
	info, _, err := c.Info(ctx)
	if err != nil || info.APIVersion != "v1" {
		t.Fatalf("Info = %v, %v", info, err)
	}
	if f.count() != 3 || fmt.Sprint(*sleeps) != "[3s 3s]" {
		t.Errorf("%d requests, sleeps %v; want 3 requests, sleeps [3s 3s]", f.count(), *sleeps)
	}
}

func TestRetryGivesUpAfterMaxRetries(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 500, "internal_error", nil)
	}, WithMaxRetries(3))
	_, _, err := c.Assets.Get(ctx, "a")
	if !errors.Is(err, ErrServer) {
		t.Fatalf("err = %v; want ErrServer", err)
	}
	if f.count() != 4 || len(*sleeps) != 3 {
		t.Errorf("%d requests, %d sleeps; want 4 and 3", f.count(), len(*sleeps))
	}
	for i, d := range *sleeps {
		if hi := backoffBase << i; d < 0 || d >= hi {
			t.Errorf("sleep %d = %v; want within [0, %v)", i, d, hi)
		}
	}
}

func TestPostIsRetriedWithOneIdempotencyKey(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n <= 2 {
			w.Header().Set("Retry-After", "0")
			writeProblem(w, 503, "neo4j_unavailable", nil)
			return
		}
		writeJSON(w, 201, map[string]any{"id": "a", "name": "a", "type": "table", "version": 1})
	})
	if _, _, err := c.Assets.Create(ctx, Asset{ID: "a", Name: "a", Type: "table"}); err != nil {
		t.Fatal(err)
	}
	key := f.requests[0].Header.Get("Idempotency-Key")
	if key == "" || f.count() != 3 {
		t.Fatalf("key %q after %d requests; want a key and 3 requests", key, f.count())
	}
	for i, r := range f.requests {
		if got := r.Header.Get("Idempotency-Key"); got != key {
			t.Errorf("request %d has Idempotency-Key %q; want %q", i, got, key)
		}
		if f.bodies[i] != f.bodies[0] {
			t.Errorf("request %d body %q differs from the first %q", i, f.bodies[i], f.bodies[0])
		}
	}
}

func TestCallerIdempotencyKeyIsKept(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 201, map[string]any{"source": "a", "target": "b"})
	}, WithMaxRetries(0))
	if _, _, err := c.Lineage.Create(ctx, EdgeInput{Source: "a", Target: "b"}); err != nil {
		t.Fatal(err)
	}
	if got := f.requests[0].Header.Get("Idempotency-Key"); got != "" {
		t.Errorf("without retries a POST got Idempotency-Key %q; want none", got)
	}
	if _, _, err := c.Lineage.Create(ctx, EdgeInput{Source: "a", Target: "b"}, IdempotencyKey("k-1")); err != nil {
		t.Fatal(err)
	}
	if got := f.requests[1].Header.Get("Idempotency-Key"); got != "k-1" {
		t.Errorf("Idempotency-Key = %q; want k-1", got)
	}
}

func TestMergingWritesAreRetriedWithoutAnAutomaticKey(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n%2 == 1 {
			w.Header().Set("Retry-After", "0")
			writeProblem(w, 503, "neo4j_unavailable", nil)
			return
		}
		writeJSON(w, 200, map[string]any{"received": 1, "created": 1})
	})
	edges := []EdgeInput{{Source: "a", Target: "b"}}
	events := []RunEvent{runEvent(0, RunComplete, 1, 1)}
	if _, resp, err := c.Lineage.Bulk(ctx, edges); err != nil || resp.Attempts != 2 {
		t.Fatalf("Bulk: %v, %v; want success on the second attempt", resp, err)
	}
	if _, resp, err := c.Lineage.IngestOpenLineage(ctx, events); err != nil || resp.Attempts != 2 {
		t.Fatalf("IngestOpenLineage: %v, %v; want success on the second attempt", resp, err)
	}
	for i, r := range f.requests {
		if got := r.Header.Get("Idempotency-Key"); got != "" {
			t.Errorf("request %d (%s) carries Idempotency-Key %q; want none", i, r.URL.Path, got)
		}
	}
	// A key of the caller's is sent, on every attempt.
	if _, _, err := c.Lineage.Bulk(ctx, edges, IdempotencyKey("b-1")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Lineage.IngestOpenLineage(ctx, events, IdempotencyKey("o-1")); err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"b-1", "b-1", "o-1", "o-1"} {
		if got := f.requests[4+i].Header.Get("Idempotency-Key"); got != want {
			t.Errorf("request %d carries Idempotency-Key %q; want %q", 4+i, got, want)
		}
	}
	if f.count() != 8 {
		t.Errorf("%d requests; want 8 (each 503 retried)", f.count())
	}
}

func TestTokenCreationIsNotRetried(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 503, "neo4j_unavailable", nil)
	})
	_, _, err := c.Tokens.Create(ctx, TokenRequest{Name: "n", Scopes: []Scope{ScopeRead}})
	if !errors.Is(err, ErrUnavailable) || f.count() != 1 || f.requests[0].Header.Get("Idempotency-Key") != "" {
		t.Errorf("err %v after %d requests; want one request without a key", err, f.count())
	}
	// A key of the caller's is sent but does not make it retried: the service
	// ignores it here.
	_, _, err = c.Tokens.Create(ctx, TokenRequest{Name: "n", Scopes: []Scope{ScopeRead}}, IdempotencyKey("k"))
	if !errors.Is(err, ErrUnavailable) || f.count() != 2 || f.requests[1].Header.Get("Idempotency-Key") != "k" {
		t.Errorf("with a key: err %v after %d requests; want one more request, with the key", err, f.count())
	}
}

func TestConflictIsNeverRetried(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "1")
		writeProblem(w, 409, "already_exists", nil)
	})
	_, _, err := c.Assets.Create(ctx, Asset{ID: "a", Name: "a", Type: "table"})
	var apiErr *Error
	if !errors.Is(err, ErrConflict) || !errors.As(err, &apiErr) {
		t.Fatalf("err = %v; want a conflict *Error", err)
	}
	if apiErr.Code != "already_exists" || apiErr.RequestID != "req-already_exists" || apiErr.Status != 409 {
		t.Errorf("error = %+v", apiErr)
	}
	if f.count() != 1 {
		t.Errorf("%d requests; want 1", f.count())
	}
}

func TestPatchIsRetriedOnlyWithAKey(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 503, "neo4j_unavailable", nil)
	})
	_, _, err := c.Assets.Patch(ctx, "a", map[string]any{"name": "b"})
	if !errors.Is(err, ErrUnavailable) || f.count() != 1 {
		t.Errorf("err %v after %d requests; want ErrUnavailable after 1", err, f.count())
	}
	_, _, _ = c.Assets.Patch(ctx, "a", map[string]any{"name": "b"}, IdempotencyKey("p-1"))
	if f.count() != 1+1+DefaultMaxRetries {
		t.Errorf("%d requests; want %d", f.count(), 2+DefaultMaxRetries)
	}
}

func TestLongRetryAfterIsCappedAtAMinute(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "120")
		writeProblem(w, 429, "rate_limited", nil)
	})
	_, resp, err := c.Assets.List(ctx, nil)
	var apiErr *Error
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrRateLimited) {
		t.Fatalf("err = %v; want ErrRateLimited", err)
	}
	if !apiErr.HasRetryAfter || apiErr.RetryAfter != 120*time.Second || f.count() != 3 ||
		fmt.Sprint(*sleeps) != "[1m0s 1m0s]" {
		t.Errorf("RetryAfter %v (%v), %d requests, sleeps %v; want 2m, 3 requests, sleeps [1m 1m]",
			apiErr.RetryAfter, apiErr.HasRetryAfter, f.count(), *sleeps)
	}
	if resp == nil || resp.StatusCode != 429 || resp.Attempts != 3 {
		t.Errorf("response of the failed call = %+v; want the last 429 after 3 attempts", resp)
	}
}

func TestConnectionErrorIsRetriedAndWrapsTheNetError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	c, err := NewClient(WithBaseURL("http://"+addr), WithMaxRetries(2))
	if err != nil {
		t.Fatal(err)
	}
	var sleeps int
	c.sleep = func(context.Context, time.Duration) error { sleeps++; return nil }
	_, _, err = c.Assets.Get(ctx, "a")
	var connErr *ConnectionError
	var opErr *net.OpError
	if !errors.Is(err, ErrConnection) || !errors.As(err, &connErr) || !errors.As(err, &opErr) {
		t.Fatalf("err = %#v; want a *ConnectionError wrapping a *net.OpError", err)
	}
	if errors.Is(err, ErrTimeout) || sleeps != 2 {
		t.Errorf("timeout=%v sleeps=%d; want false and 2", errors.Is(err, ErrTimeout), sleeps)
	}
	// A POST without a key (retries off) is not retried.
	c.maxRetries = 0
	sleeps = 0
	if _, _, err := c.Assets.Create(ctx, Asset{ID: "a", Name: "a", Type: "t"}); !errors.Is(err, ErrConnection) || sleeps != 0 {
		t.Errorf("err %v, sleeps %d; want ErrConnection and no retry", err, sleeps)
	}
}

func TestAttemptTimeoutIsATimeoutError(t *testing.T) {
	release := make(chan struct{})
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}, WithTimeout(50*time.Millisecond), WithMaxRetries(1))
	defer close(release)
	_, _, err := c.Assets.Get(ctx, "slow")
	if !errors.Is(err, ErrTimeout) || !errors.Is(err, ErrConnection) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v; want a timeout", err)
	}
	if f.count() != 2 || len(*sleeps) != 1 {
		t.Errorf("%d requests, %d sleeps; want 2 and 1", f.count(), len(*sleeps))
	}
}

func TestCancelledContextIsNotRetried(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	_, _, err := c.Assets.Get(cctx, "a")
	if !errors.Is(err, context.DeadlineExceeded) || f.count() != 1 || len(*sleeps) != 0 {
		t.Errorf("err %v, %d requests, sleeps %v; want the deadline, 1 request, none", err, f.count(), *sleeps)
	}
}

func TestProblemBodyIsDecoded(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 422, "unknown_assets", map[string]any{
			"errors":         []any{map[string]any{"loc": []any{"body", 3, "target"}, "msg": "unknown", "type": "unknown_asset"}},
			"unknown_assets": []string{"x"},
		})
	})
	_, _, err := c.Lineage.Create(ctx, EdgeInput{Source: "a", Target: "x"}, Strict())
	var apiErr *Error
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrValidation) {
		t.Fatalf("err = %v; want a validation *Error", err)
	}
	if apiErr.Kind() != KindValidation || apiErr.Code != "unknown_assets" || apiErr.Detail == "" ||
		apiErr.Instance == "" || apiErr.Type == "" || apiErr.Title == "" {
		t.Errorf("problem = %+v", apiErr.Problem)
	}
	if len(apiErr.FieldErrors) != 1 || apiErr.FieldErrors[0].Field() != "body.3.target" {
		t.Errorf("field errors = %+v", apiErr.FieldErrors)
	}
	if string(apiErr.Extensions["unknown_assets"]) != `["x"]` {
		t.Errorf("extensions = %v", apiErr.Extensions)
	}
	if !strings.Contains(err.Error(), "unknown_assets") || !strings.Contains(err.Error(), "req-unknown_assets") {
		t.Errorf("message %q lacks the code or request id", err.Error())
	}
	if !strings.Contains(apiErr.URL, "strict=true") {
		t.Errorf("URL %q lacks strict=true", apiErr.URL)
	}
}

func TestNonProblemErrorKeepsStatusAndRequestID(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("X-Request-ID", "from-header")
		w.WriteHeader(502)
		_, _ = io.WriteString(w, "<html>bad gateway</html>")
	}, WithMaxRetries(0))
	_, _, err := c.Tokens.Get(ctx, "tok_1")
	var apiErr *Error
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrUnavailable) {
		t.Fatalf("err = %v; want ErrUnavailable", err)
	}
	if apiErr.Status != 502 || apiErr.RequestID != "from-header" || string(apiErr.Body) != "<html>bad gateway</html>" {
		t.Errorf("error = %+v", apiErr)
	}
}

func TestHeadersAndConditionalRequests(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			w.WriteHeader(204)
			return
		}
		writeJSON(w, 200, map[string]any{"id": "a", "name": "b", "type": "table", "version": 3})
	})
	if _, _, err := c.Assets.Patch(ctx, "a", map[string]any{"description": nil}, IfMatch(2), RequestID("rid-1")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Assets.Delete(ctx, "a", IfMatch(3)); err != nil {
		t.Fatal(err)
	}
	patch := f.requests[0]
	checks := map[string][2]string{
		"patch content type": {patch.Header.Get("Content-Type"), "application/merge-patch+json"},
		"patch If-Match":     {patch.Header.Get("If-Match"), `"2"`},
		"patch request id":   {patch.Header.Get("X-Request-ID"), "rid-1"},
		"patch token":        {patch.Header.Get("Authorization"), "Bearer dgs_test"},
		"patch body":         {f.bodies[0], `{"description":null}`},
		"delete If-Match":    {f.requests[1].Header.Get("If-Match"), `"3"`},
	}
	for name, c := range checks {
		if c[0] != c[1] {
			t.Errorf("%s = %q; want %q", name, c[0], c[1])
		}
	}
	if !strings.HasPrefix(patch.Header.Get("User-Agent"), "governance-go/") {
		t.Errorf("User-Agent = %q", patch.Header.Get("User-Agent"))
	}
}

func TestEnvironmentFallbacks(t *testing.T) {
	f := &fake{handle: func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"items": []any{}, "next_cursor": nil})
	}}
	srv := httptest.NewServer(f)
	defer srv.Close()
	t.Setenv("GOVERNANCE_URL", srv.URL+"/api/v1/")
	t.Setenv("GOVERNANCE_TOKEN", "dgs_env")
	c, err := NewClient()
	if err != nil || c.BaseURL() != srv.URL+"/api/v1" {
		t.Fatalf("NewClient() = %v, %v", c, err)
	}
	if _, _, err := c.Tokens.List(ctx, nil); err != nil {
		t.Fatal(err)
	}
	c2, _ := NewClient(WithToken("dgs_opt"))
	if _, _, err := c2.Tokens.List(ctx, &ListOptions{Limit: 5}); err != nil {
		t.Fatal(err)
	}
	if got := f.requests[0].Header.Get("Authorization"); got != "Bearer dgs_env" {
		t.Errorf("env token sent as %q", got)
	}
	if got := f.requests[1].Header.Get("Authorization"); got != "Bearer dgs_opt" {
		t.Errorf("option token sent as %q", got)
	}
	if got := f.requests[1].URL.RawQuery; got != "limit=5" {
		t.Errorf("query = %q", got)
	}
	for _, bad := range []string{"localhost:8080", "ftp://x", "http://", "http://u:p@h", "http://h/?q=1"} {
		if _, err := NewClient(WithBaseURL(bad)); err == nil {
			t.Errorf("NewClient(WithBaseURL(%q)) accepted it", bad)
		}
	}
}

func TestIteratorFollowsCursorsAndStopsWhenTold(t *testing.T) {
	pages := map[string]map[string]any{
		"":   {"items": []any{map[string]any{"id": "a"}, map[string]any{"id": "b"}}, "next_cursor": "c1"},
		"c1": {"items": []any{map[string]any{"id": "c"}, map[string]any{"id": "d"}}, "next_cursor": "c2"},
		"c2": {"items": []any{map[string]any{"id": "e"}}, "next_cursor": nil},
	}
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, pages[r.URL.Query().Get("cursor")])
	})
	var ids []string
	for a, err := range c.Assets.All(ctx, &AssetListOptions{Tags: []string{"x", "y"}, Placeholder: Ptr(false), ListOptions: ListOptions{Limit: 2}}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, a.ID)
	}
	if fmt.Sprint(ids) != "[a b c d e]" || f.count() != 3 {
		t.Errorf("ids %v after %d requests", ids, f.count())
	}
	if q := f.requests[1].URL.Query(); fmt.Sprint(q["tag"]) != "[x y]" || q.Get("limit") != "2" || q.Get("placeholder") != "false" {
		t.Errorf("second page query = %v", q)
	}
	for range c.Assets.All(ctx, nil) {
		break
	}
	if f.count() != 4 {
		t.Errorf("breaking after the first item made %d requests in all; want 4", f.count())
	}
}

func TestIteratorYieldsTheErrorLast(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			writeJSON(w, 200, map[string]any{"items": []any{map[string]any{"source": "a", "target": "b"}}, "next_cursor": "x"})
			return
		}
		writeProblem(w, 400, "invalid_cursor", nil)
	})
	var got []string
	for e, err := range c.Lineage.AllEdges(ctx, nil) {
		if err != nil {
			got = append(got, "error:"+err.(*Error).Code)
			continue
		}
		got = append(got, e.Source+">"+e.Target)
	}
	if fmt.Sprint(got) != "[a>b error:invalid_cursor]" {
		t.Errorf("yielded %v", got)
	}
}

func TestPushBulkChunksAndSums(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		var edges []EdgeInput
		_ = json.NewDecoder(r.Body).Decode(&edges)
		if n == 4 {
			writeProblem(w, 422, "validation_error", nil)
			return
		}
		writeJSON(w, 200, map[string]int{"received": len(edges), "created": len(edges) - 1, "existing": 1, "assets_created": 2})
	})
	edges := make([]EdgeInput, 25)
	for i := range edges {
		edges[i] = EdgeInput{Source: "s", Target: fmt.Sprint("t", i)}
	}
	r, err := c.Lineage.PushBulk(ctx, edges[:20], 10)
	if err != nil {
		t.Fatal(err)
	}
	sizes := arrayLengths(t, f.bodies)
	want := BulkResult{Received: 20, Created: 18, Existing: 2, AssetsCreated: 4}
	if fmt.Sprint(sizes) != "[10 10]" || *r != want {
		t.Errorf("chunks %v, result %+v", sizes, r)
	}
	r, err = c.Lineage.PushBulk(ctx, edges, 10)
	var bulkErr *BulkError
	if !errors.As(err, &bulkErr) || !errors.Is(err, ErrValidation) || bulkErr.Chunk != 1 || bulkErr.Offset != 10 {
		t.Fatalf("err = %v; want a BulkError of chunk 1 wrapping a validation error", err)
	}
	if r == nil || r.Received != 10 {
		t.Errorf("partial result = %+v", r)
	}
	before := f.count()
	if r, err := c.Lineage.PushBulk(ctx, nil, 0); err != nil || *r != (BulkResult{}) || f.count() != before {
		t.Errorf("PushBulk(nil) = %+v, %v with %d requests", r, err, f.count()-before)
	}
}
