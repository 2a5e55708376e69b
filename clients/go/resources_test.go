package governance

// Unit tests of per-request options, the raw *Response, the service's meta
// endpoints, webhooks, users, column lineage and OpenLineage ingestion,
// against local fake servers. No service needed.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestRequestOptionsApplyToOneRequest(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 503, "neo4j_unavailable", nil)
	})
	_, _, err := c.Assets.Get(ctx, "a", MaxRetries(0), Header("X-Trace", "t-1"),
		Header("Authorization", "Bearer other"), RequestID("rid-9"))
	if !errors.Is(err, ErrUnavailable) || f.count() != 1 || len(*sleeps) != 0 {
		t.Fatalf("err %v after %d requests; want one request with MaxRetries(0)", err, f.count())
	}
	h := f.requests[0].Header
	if h.Get("X-Trace") != "t-1" || h.Get("Authorization") != "Bearer other" || h.Get("X-Request-ID") != "rid-9" {
		t.Errorf("headers = %v", h)
	}
	// The next request has the client's own settings again.
	_, _, _ = c.Assets.Get(ctx, "a")
	if f.count() != 2+DefaultMaxRetries || f.requests[1].Header.Get("Authorization") != "Bearer dgs_test" {
		t.Errorf("%d requests, Authorization %q", f.count(), f.requests[1].Header.Get("Authorization"))
	}
}

func TestTimeoutOptionBoundsOneRequest(t *testing.T) {
	release := make(chan struct{})
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}, WithTimeout(time.Hour))
	defer close(release)
	_, _, err := c.Assets.Get(ctx, "slow", Timeout(20*time.Millisecond), MaxRetries(0))
	if !errors.Is(err, ErrTimeout) || f.count() != 1 {
		t.Errorf("err %v after %d requests; want a timeout after 1", err, f.count())
	}
}

func TestQueriesAreRetriedAsReadsWithoutAKey(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n%2 == 1 {
			writeProblem(w, 408, "request_timeout", nil)
			return
		}
		writeJSON(w, 200, map[string]any{"count": 3, "columns": []string{"n"}, "rows": [][]any{{1}}})
	})
	res, _, err := c.Query.Run(ctx, Query{Return: ReturnCount})
	if err != nil || res.Count != 3 {
		t.Fatalf("Run = %+v, %v", res, err)
	}
	if _, resp, err := c.Query.Cypher(ctx, "RETURN 1 AS n", nil, 0); err != nil || resp.Attempts != 2 {
		t.Fatalf("Cypher: attempts %v, %v", resp, err)
	}
	for i, r := range f.requests {
		if r.Header.Get("Idempotency-Key") != "" {
			t.Errorf("request %d (%s) carries an Idempotency-Key", i, r.URL.Path)
		}
	}
	if f.count() != 4 {
		t.Errorf("%d requests; want 4 (each 408 retried)", f.count())
	}
}

func TestResponseTellsStatusHeadersAndRate(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("ETag", `"4"`)
		h.Set("X-Request-ID", "req-1")
		h.Set("RateLimit-Limit", "100")
		h.Set("RateLimit-Remaining", "97")
		h.Set("RateLimit-Reset", "2")
		writeJSON(w, 201, map[string]any{"id": "a", "name": "a", "type": "table", "version": 4})
	})
	a, resp, err := c.Assets.Put(ctx, "a", Asset{Name: "a", Type: "table"})
	if err != nil || a.Version != 4 {
		t.Fatalf("Put = %+v, %v", a, err)
	}
	if !resp.Created() || resp.ETag() != `"4"` || resp.RequestID != "req-1" || resp.Attempts != 1 ||
		resp.Rate != (Rate{Limit: 100, Remaining: 97, Reset: 2 * time.Second}) {
		t.Errorf("response: created %v, ETag %q, request id %q, attempts %d, rate %+v",
			resp.Created(), resp.ETag(), resp.RequestID, resp.Attempts, resp.Rate)
	}
	var none *Response
	if none.Created() || none.ETag() != "" {
		t.Error("a nil *Response must read as not created, no ETag")
	}
}

func TestMetaEndpointsLiveAtTheServiceRoot(t *testing.T) {
	f := &fake{handle: func(n int, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/gov/metrics":
			w.Header().Set("Content-Type", "text/plain; version=0.0.4")
			_, _ = w.Write([]byte("# HELP x\nx 1\n"))
		case "/gov/readyz":
			w.Header().Set("Retry-After", "2")
			writeProblem(w, 503, "schema_not_applied", nil)
		default:
			writeJSON(w, 200, map[string]string{"status": "ok"})
		}
	}}
	srv := httptest.NewServer(f)
	t.Cleanup(srv.Close)
	c, err := NewClient(WithBaseURL(srv.URL+"/gov/api/v1"), WithToken("t"))
	if err != nil {
		t.Fatal(err)
	}
	if h, _, err := c.Health(ctx); err != nil || h.Status != "ok" {
		t.Errorf("Health = %+v, %v", h, err)
	}
	if _, resp, err := c.Ready(ctx, MaxRetries(0)); !errors.Is(err, ErrUnavailable) || resp.StatusCode != 503 {
		t.Errorf("Ready = %v, %v; want ErrUnavailable with the 503 response", resp, err)
	}
	text, _, err := c.Metrics(ctx)
	if err != nil || string(text) != "# HELP x\nx 1\n" {
		t.Errorf("Metrics = %q, %v", text, err)
	}
	if _, _, err := c.Me(ctx); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range f.requests {
		paths = append(paths, r.URL.Path)
	}
	if fmt.Sprint(paths) != "[/gov/healthz /gov/readyz /gov/metrics /gov/api/v1/me]" {
		t.Errorf("paths %v", paths)
	}
	if f.requests[2].Header.Get("Accept") != "text/plain" {
		t.Errorf("metrics Accept = %q", f.requests[2].Header.Get("Accept"))
	}
}

func TestWebhooksCreateOnceAndPageDeliveries(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/api/v1/webhooks":
			writeProblem(w, 503, "neo4j_unavailable", nil)
		case strings.HasSuffix(r.URL.Path, "/test"):
			writeJSON(w, 200, map[string]any{"delivered": true, "status": 204, "duration_ms": 3.5})
		case r.URL.Query().Get("cursor") == "":
			writeJSON(w, 200, map[string]any{"items": []any{map[string]any{"id": "d1", "state": "delivered"}}, "next_cursor": "c1"})
		default:
			writeJSON(w, 200, map[string]any{"items": []any{map[string]any{"id": "d2", "state": "failed", "last_status": 500}}})
		}
	})
	_, _, err := c.Webhooks.Create(ctx, WebhookRequest{URL: "https://example.com/hook"})
	if !errors.Is(err, ErrUnavailable) || f.count() != 1 || f.requests[0].Header.Get("Idempotency-Key") != "" {
		t.Fatalf("Create: %v after %d requests; want one request without a key", err, f.count())
	}
	if f.bodies[0] != `{"url":"https://example.com/hook"}` {
		t.Errorf("Create body = %s", f.bodies[0])
	}
	res, _, err := c.Webhooks.Test(ctx, "wh/1")
	if err != nil || !res.Delivered || res.Status != 204 || res.DurationMS != 3.5 {
		t.Fatalf("Test = %+v, %v", res, err)
	}
	var got []string
	for d, err := range c.Webhooks.AllDeliveries(ctx, "wh/1", &ListOptions{Limit: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprint(d.ID, ":", d.State, ":", d.LastStatus))
	}
	if fmt.Sprint(got) != "[d1:delivered:0 d2:failed:500]" {
		t.Errorf("deliveries %v", got)
	}
	if p := f.requests[1].URL.RawPath; p != "/api/v1/webhooks/wh%2F1/test" {
		t.Errorf("test path = %q", p)
	}
	if q := f.requests[3].URL.RawQuery; q != "cursor=c1&limit=1" {
		t.Errorf("second deliveries page query = %q", q)
	}
	if _, _, err := c.Webhooks.Patch(ctx, "", nil); !errors.Is(err, errEmptyID) {
		t.Errorf("Patch(\"\") = %v; want errEmptyID", err)
	}
}

func TestUsersAreMergePatched(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"id": "usr_1", "username": "ada", "role": "viewer",
			"created_at": "2026-01-02T03:04:05Z", "updated_at": "2026-01-02T03:04:05Z", "last_sign_in_at": nil})
	})
	u, _, err := c.Users.Patch(ctx, "usr_1", map[string]any{"role": RoleViewer, "display_name": nil})
	if err != nil || u.Role != RoleViewer || u.LastSignInAt != nil || u.CreatedAt.IsZero() {
		t.Fatalf("Patch = %+v, %v", u, err)
	}
	r := f.requests[0]
	if r.Method != http.MethodPatch || r.URL.Path != "/api/v1/users/usr_1" ||
		r.Header.Get("Content-Type") != "application/merge-patch+json" || f.bodies[0] != `{"display_name":null,"role":"viewer"}` {
		t.Errorf("%s %s %s %s", r.Method, r.URL.Path, r.Header.Get("Content-Type"), f.bodies[0])
	}
}

func TestColumnLineageEncodesBothSegments(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"root": map[string]string{"asset": "s3://b/o", "column": "a/b"},
			"direction": "upstream", "depth": 2, "truncated": false,
			"nodes": []any{map[string]any{"asset": "s3://b/o", "column": "a/b", "distance": 0}},
			"edges": []any{map[string]any{"source": map[string]string{"asset": "x", "column": "y"},
				"target": map[string]string{"asset": "s3://b/o", "column": "a/b"}, "transformation": "upper"}}})
	})
	g, _, err := c.Lineage.ColumnUpstream(ctx, "s3://b/o", "a/b", &TraversalOptions{Depth: 2})
	if err != nil || g.Root.Column != "a/b" || len(g.Edges) != 1 || g.Edges[0].Source.Column != "y" {
		t.Fatalf("ColumnUpstream = %+v, %v", g, err)
	}
	if _, _, err := c.Lineage.ColumnDownstream(ctx, "t", "c d", nil); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/api/v1/lineage/s3%3A%2F%2Fb%2Fo/columns/a%2Fb/upstream?depth=2",
		"/api/v1/lineage/t/columns/c%20d/downstream",
	}
	for i, w := range want {
		if got := f.requests[i].RequestURI; got != w {
			t.Errorf("request %d went to %q; want %q", i, got, w)
		}
	}
	if _, _, err := c.Lineage.ColumnUpstream(ctx, "t", "", nil); !errors.Is(err, errEmptyID) || f.count() != 2 {
		t.Errorf("an empty column = %v; want errEmptyID and no request", err)
	}
}

func runEvent(i int, typ string, inputs, outputs int) RunEvent {
	ev := RunEvent{
		EventType: typ, EventTime: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Producer: "https://example.com/p", SchemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
		Run: OpenLineageRun{RunID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i)},
		Job: OpenLineageJob{Namespace: "ns", Name: "job"},
	}
	for j := range inputs {
		ev.Inputs = append(ev.Inputs, OpenLineageDataset{Namespace: "db", Name: fmt.Sprint("in", j)})
	}
	for j := range outputs {
		ev.Outputs = append(ev.Outputs, OpenLineageDataset{Namespace: "db", Name: fmt.Sprint("out", j)})
	}
	return ev
}

func TestPackKeepsEveryLimit(t *testing.T) {
	items := []json.RawMessage{[]byte("aaaa"), []byte("bb"), []byte("c"), []byte("dddddd"), []byte("e")}
	cases := []struct {
		weights                  []int
		maxItems, maxW, maxBytes int
		want                     string
	}{
		{[]int{0, 0, 0, 0, 0}, 2, 100, 100, "[[0 2] [2 4] [4 5]]"},
		{[]int{3, 3, 3, 0, 9}, 10, 6, 100, "[[0 2] [2 4] [4 5]]"},
		{[]int{0, 0, 0, 0, 0}, 10, 100, 9, "[[0 2] [2 3] [3 4] [4 5]]"}, // "[aaaa,bb]" is 9 bytes, "[c,dddddd]" 10
		{[]int{0, 0, 0, 0, 0}, 10, 100, 3, "[[0 1] [1 2] [2 3] [3 4] [4 5]]"},
	}
	for _, tc := range cases {
		if got := fmt.Sprint(pack(items, tc.weights, tc.maxItems, tc.maxW, tc.maxBytes)); got != tc.want {
			t.Errorf("pack(%v, %d, %d, %d) = %s; want %s", tc.weights, tc.maxItems, tc.maxW, tc.maxBytes, got, tc.want)
		}
	}
	if got := pack(nil, nil, 1, 1, 1); len(got) != 0 {
		t.Errorf("pack(nothing) = %v", got)
	}
}

func TestPushOpenLineageChunksByEventsAndEdges(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		var events []map[string]any
		if err := json.NewDecoder(r.Body).Decode(&events); err != nil {
			writeProblem(w, 422, "validation_error", nil)
			return
		}
		writeJSON(w, 200, map[string]any{"received": len(events), "complete": 1, "runs": len(events),
			"edges": map[string]int{"created": 2, "existing": 1}, "column_mappings": map[string]int{"created": 1, "existing": 0},
			"assets": map[string]int{"created": 1, "updated": 0}, "warnings": []string{fmt.Sprint("w", n)}})
	})
	events := []RunEvent{runEvent(0, RunStart, 9, 9), runEvent(1, RunComplete, 100, 60), runEvent(2, RunComplete, 100, 50),
		runEvent(3, RunComplete, 1, 1), runEvent(4, "", 0, 0)}
	total, err := c.Lineage.PushOpenLineage(ctx, events, 3)
	if err != nil {
		t.Fatal(err)
	}
	// 6,000 + 5,000 edges exceed 10,000: the second COMPLETE starts a request.
	if sizes := arrayLengths(t, f.bodies); fmt.Sprint(sizes) != "[2 3]" {
		t.Errorf("requests of %v events; want [2 3]", sizes)
	}
	if total.Received != 5 || total.Edges != (Counts{Created: 4, Existing: 2}) || total.ColumnMappings.Created != 2 ||
		total.Assets.Created != 2 || fmt.Sprint(total.Warnings) != "[w1 w2]" {
		t.Errorf("total = %+v", total)
	}
	if !strings.Contains(f.bodies[0], `"eventType":"START","eventTime":"2026-01-02T03:04:05Z"`) ||
		!strings.Contains(f.bodies[1], `"runId":"00000000-0000-4000-8000-000000000004"},"job"`) {
		t.Errorf("bodies do not carry the events as OpenLineage spells them: %.300s", f.bodies[0])
	}
	if f.requests[0].URL.Path != "/api/v1/lineage/openlineage" || f.requests[0].Header.Get("Idempotency-Key") != "" {
		t.Errorf("request %s, key %q; want no automatic key (events merge)", f.requests[0].URL.Path, f.requests[0].Header.Get("Idempotency-Key"))
	}
	if _, err := c.Lineage.PushOpenLineage(ctx, nil, 0); err != nil || f.count() != 2 {
		t.Errorf("no events: %v after %d requests; want no request", err, f.count())
	}
}

func TestPushOpenLineageSaysWhichRequestFailed(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 2 {
			writeProblem(w, 422, "validation_error", nil)
			return
		}
		writeJSON(w, 200, map[string]any{"received": 2})
	})
	events := []RunEvent{runEvent(0, RunComplete, 1, 1), runEvent(1, RunComplete, 1, 1), runEvent(2, RunComplete, 1, 1)}
	total, err := c.Lineage.PushOpenLineage(ctx, events, 2)
	var bulk *BulkError
	if !errors.As(err, &bulk) || bulk.Chunk != 1 || bulk.Offset != 2 || !errors.Is(err, ErrValidation) || total.Received != 2 {
		t.Errorf("PushOpenLineage = %+v, %v; want chunk 1 from offset 2 failing, 2 received", total, err)
	}
}

func TestSignWebhookMatchesVerifyWebhook(t *testing.T) {
	body := []byte(`{"id":"evt_1","seq":1,"type":"asset.created","occurred_at":"2026-01-02T03:04:05Z","actor":"a","data":{}}`)
	at := time.Unix(1767323045, 0)
	sig, err := SignWebhook(testSecret, "evt_1", at, body)
	if err != nil {
		t.Fatal(err)
	}
	if want := signedHeader("evt_1", at.Unix(), string(body)).Get("webhook-signature"); sig != want {
		t.Errorf("SignWebhook = %q; want %q", sig, want)
	}
	h := http.Header{"Webhook-Id": {"evt_1"}, "Webhook-Timestamp": {fmt.Sprint(at.Unix())}, "Webhook-Signature": {"v1,bm9wZQ== " + sig}}
	if ev, err := VerifyWebhook(testSecret, h, body, WithNow(at)); err != nil || ev.Seq != 1 {
		t.Errorf("VerifyWebhook = %+v, %v", ev, err)
	}
	if _, err := SignWebhook("whsec_!!", "x", at, body); !errors.Is(err, ErrWebhookVerification) {
		t.Errorf("a bad secret = %v; want ErrWebhookVerification", err)
	}
}
