package governance

// Unit tests of policies, quality rules and the query facility against local
// fake servers: paths, bodies, headers and paging. No service needed.

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func decodeJSON(t *testing.T, body string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(body), &m); err != nil {
		t.Fatalf("body %q is not a JSON object: %v", body, err)
	}
	return m
}

const policyJSON = `{"id": "pol_1", "name": "owners", "kind": "require_owner", "enabled": true,
	"severity": "high", "selector": {"type": "table", "platform": ["snowflake", "bigquery"], "id_prefix": "wh."},
	"params": {}, "version": 3, "created_at": "2025-01-02T03:04:05.678Z",
	"updated_at": "2025-01-02T03:04:05.678Z", "evaluated_at": null}`

func TestPolicyCRUDSendsWritableFieldsAndConditions(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodDelete:
			w.WriteHeader(204)
		case http.MethodPost:
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(201)
			_, _ = io.WriteString(w, policyJSON)
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, policyJSON)
		}
	})
	read, _, err := c.Policies.Get(ctx, "pol_1")
	if err != nil {
		t.Fatal(err)
	}
	if read.Kind != PolicyRequireOwner || read.Enabled == nil || !*read.Enabled || read.Version != 3 ||
		read.Severity != SeverityHigh || !read.EvaluatedAt.IsZero() ||
		!slices.Equal(read.Selector.Type, []string{"table"}) ||
		!slices.Equal(read.Selector.Platform, []string{"snowflake", "bigquery"}) || read.Selector.IDPrefix != "wh." {
		t.Errorf("decoded policy = %+v", read)
	}
	// A policy read back into Create loses its read-only fields.
	if _, _, err := c.Policies.Create(ctx, *read); err != nil {
		t.Fatal(err)
	}
	created := decodeJSON(t, f.bodies[1])
	for _, k := range []string{"id", "version", "created_at", "updated_at", "evaluated_at"} {
		if _, ok := created[k]; ok {
			t.Errorf("create body has read-only %q: %s", k, f.bodies[1])
		}
	}
	if created["kind"] != "require_owner" || created["enabled"] != true {
		t.Errorf("create body = %s", f.bodies[1])
	}
	if _, _, err := c.Policies.Create(ctx, Policy{Name: "n", Kind: PolicyRequireDescription}); err != nil {
		t.Fatal(err)
	}
	if f.bodies[2] != `{"name":"n","kind":"require_description"}` {
		t.Errorf("minimal create body = %s", f.bodies[2])
	}
	if _, _, err := c.Policies.Replace(ctx, "pol_1", *read, IfMatch(3)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Policies.Patch(ctx, "pol_1", map[string]any{"enabled": false}, IfMatch(4)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Policies.Delete(ctx, "pol_1", IfMatch(5)); err != nil {
		t.Fatal(err)
	}
	want := []string{"GET /api/v1/policies/pol_1", "POST /api/v1/policies", "POST /api/v1/policies",
		"PUT /api/v1/policies/pol_1", "PATCH /api/v1/policies/pol_1", "DELETE /api/v1/policies/pol_1"}
	for i, w := range want {
		if got := f.requests[i].Method + " " + f.requests[i].RequestURI; got != w {
			t.Errorf("request %d = %s; want %s", i, got, w)
		}
	}
	if got := decodeJSON(t, f.bodies[3]); got["id"] != "pol_1" || got["version"] != float64(3) {
		t.Errorf("replace body = %s; want the policy as read", f.bodies[3])
	}
	checks := map[string][2]string{
		"replace If-Match": {f.requests[3].Header.Get("If-Match"), `"3"`},
		"patch If-Match":   {f.requests[4].Header.Get("If-Match"), `"4"`},
		"patch type":       {f.requests[4].Header.Get("Content-Type"), "application/merge-patch+json"},
		"patch body":       {f.bodies[4], `{"enabled":false}`},
		"delete If-Match":  {f.requests[5].Header.Get("If-Match"), `"5"`},
	}
	for name, c := range checks {
		if c[0] != c[1] {
			t.Errorf("%s = %q; want %q", name, c[0], c[1])
		}
	}
	if _, _, err := c.Policies.Get(ctx, ""); !errors.Is(err, errEmptyID) {
		t.Errorf("Get(\"\") = %v; want errEmptyID", err)
	}
}

func TestPolicyListFiltersAndViolationPaging(t *testing.T) {
	pages := map[string]string{
		"":   `{"policy_id": "pol_1", "evaluated_at": "2025-01-02T03:04:05.000Z", "violations": [{"asset_id": "a", "reason": "no owner", "opened_at": "2025-01-02T03:04:05.000Z"}], "next_cursor": "c1"}`,
		"c1": `{"policy_id": "pol_1", "evaluated_at": "2025-01-02T03:04:05.000Z", "violations": [{"asset_id": "b", "reason": "lacks tag", "path": ["x", "b"], "opened_at": "2025-01-02T03:04:05.000Z"}], "next_cursor": null}`,
	}
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/api/v1/policies" {
			_, _ = io.WriteString(w, `{"items": [`+policyJSON+`], "next_cursor": null}`)
			return
		}
		_, _ = io.WriteString(w, pages[r.URL.Query().Get("cursor")])
	})
	var kinds []PolicyKind
	for p, err := range c.Policies.All(ctx, &PolicyListOptions{Kind: PolicyRequireOwner, Enabled: Ptr(false),
		ListOptions: ListOptions{Limit: 7}}) {
		if err != nil {
			t.Fatal(err)
		}
		kinds = append(kinds, p.Kind)
	}
	if got := f.requests[0].URL.RawQuery; got != "enabled=false&kind=require_owner&limit=7" {
		t.Errorf("list query = %q", got)
	}
	var got []string
	for v, err := range c.Policies.AllViolations(ctx, "pol/1", &ListOptions{Limit: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v.AssetID+fmt.Sprint(v.Path))
	}
	if fmt.Sprint(got) != "[a[] b[x b]]" || len(kinds) != 1 {
		t.Errorf("violations %v, kinds %v", got, kinds)
	}
	if uri := f.requests[2].RequestURI; uri != "/api/v1/policies/pol%2F1/violations?cursor=c1&limit=1" {
		t.Errorf("second violations page went to %s", uri)
	}
	page, _, err := c.Policies.ListViolations(ctx, "pol_1", nil)
	if err != nil || page.EvaluatedAt.IsZero() || page.PolicyID != "pol_1" || page.NextCursor != "c1" ||
		len(page.Items) != 1 || page.Items[0].AssetID != "a" {
		t.Errorf("Violations = %+v, %v", page, err)
	}
}

func TestEvaluateFindsEachPolicy(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"evaluated_at": "2025-01-02T03:04:05.000Z", "policies": []any{
			map[string]any{"policy_id": "pol_1", "violations": 2, "opened": 1, "resolved": 0},
		}})
	})
	sum, _, err := c.Policies.Evaluate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if e := sum.Policy("pol_1"); e == nil || e.Violations != 2 || e.Opened != 1 || sum.Policy("pol_2") != nil {
		t.Errorf("summary = %+v", sum)
	}
	r := f.requests[0]
	if r.Method != http.MethodPost || r.URL.Path != "/api/v1/policies/evaluate" || r.Header.Get("Idempotency-Key") == "" {
		t.Errorf("evaluate request = %s %s, key %q", r.Method, r.URL.Path, r.Header.Get("Idempotency-Key"))
	}
}

func TestQualityRulesAndResults(t *testing.T) {
	rule := `{"id": "qr_1", "asset_id": "a", "name": "n", "type": "not_null", "params": {}, "severity": "error",
		"enabled": true, "status": "failing", "last_result": {"status": "fail", "observed_value": 3,
		"message": "3 nulls", "run_at": "2025-01-02T03:04:05.000Z", "source": "api"}, "origin": "api",
		"version": 2, "created_at": "2025-01-02T03:04:05.000Z", "updated_at": "2025-01-02T03:04:05.000Z"}`
	result := `{"id": "qres_1", "rule_id": "qr_1", "status": "fail", "observed_value": 0, "message": null,
		"run_at": "2025-01-02T03:04:05.123Z", "recorded_at": "2025-01-02T03:04:06.000Z", "source": "api"}`
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/quality/rules":
			_, _ = io.WriteString(w, `{"items": [`+rule+`], "next_cursor": null}`)
		case r.Method == http.MethodGet && r.URL.Query().Get("cursor") == "":
			_, _ = io.WriteString(w, `{"items": [`+result+`], "next_cursor": "r1"}`)
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/quality/rules/qr_1/results":
			_, _ = io.WriteString(w, `{"items": [`+result+`], "next_cursor": null}`)
		case r.Method == http.MethodPost && r.URL.Path == "/api/v1/quality/rules/qr_1/results":
			w.WriteHeader(201)
			_, _ = io.WriteString(w, result)
		default:
			_, _ = io.WriteString(w, rule)
		}
	})
	var rules []QualityRule
	for r, err := range c.Quality.AllRules(ctx, &RuleListOptions{AssetID: "a/b", Status: RuleStatusFailing, Type: RuleNotNull}) {
		if err != nil {
			t.Fatal(err)
		}
		rules = append(rules, r)
	}
	if got := f.requests[0].URL.RawQuery; got != "asset_id=a%2Fb&status=failing&type=not_null" {
		t.Errorf("rules query = %q", got)
	}
	if len(rules) != 1 || rules[0].Status != RuleStatusFailing || rules[0].LastResult == nil ||
		rules[0].LastResult.ObservedValue != float64(3) || rules[0].Origin != "api" {
		t.Fatalf("rules = %+v", rules)
	}
	if _, _, err := c.Quality.CreateRule(ctx, rules[0]); err != nil {
		t.Fatal(err)
	}
	if want := `{"asset_id":"a","name":"n","type":"not_null","severity":"error","enabled":true}`; f.bodies[1] != want {
		t.Errorf("create body = %s; want %s", f.bodies[1], want)
	}
	if _, _, err := c.Quality.ReplaceRule(ctx, "qr_1", rules[0], IfMatch(2)); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Quality.PatchRule(ctx, "qr_1", map[string]any{"column": nil}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Quality.DeleteRule(ctx, "qr_1", IfMatch(3)); err != nil {
		t.Fatal(err)
	}
	run := time.Date(2025, 1, 2, 4, 4, 5, 123456789, time.FixedZone("CET", 3600))
	got, _, err := c.Quality.RecordResult(ctx, "qr_1", ResultInput{Status: ResultFail, ObservedValue: 0, RunAt: run})
	if err != nil || got.Status != ResultFail || got.ObservedValue != float64(0) || got.RuleID != "qr_1" {
		t.Fatalf("RecordResult = %+v, %v", got, err)
	}
	if want := `{"status":"fail","observed_value":0,"run_at":"2025-01-02T03:04:05.123Z"}`; f.bodies[5] != want {
		t.Errorf("result body = %s; want %s", f.bodies[5], want)
	}
	if _, _, err := c.Quality.RecordResult(ctx, "qr_1", ResultInput{Status: ResultPass}); err != nil {
		t.Fatal(err)
	}
	if f.bodies[6] != `{"status":"pass"}` {
		t.Errorf("minimal result body = %s", f.bodies[6])
	}
	n := 0
	for _, err := range c.Quality.AllResults(ctx, "qr_1", &ListOptions{Limit: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	want := []string{"PUT /api/v1/quality/rules/qr_1", "PATCH /api/v1/quality/rules/qr_1",
		"DELETE /api/v1/quality/rules/qr_1", "POST /api/v1/quality/rules/qr_1/results",
		"POST /api/v1/quality/rules/qr_1/results", "GET /api/v1/quality/rules/qr_1/results?limit=1",
		"GET /api/v1/quality/rules/qr_1/results?cursor=r1&limit=1"}
	for i, w := range want {
		if got := f.requests[i+2].Method + " " + f.requests[i+2].RequestURI; got != w {
			t.Errorf("request %d = %s; want %s", i+2, got, w)
		}
	}
	if n != 2 || f.requests[2].Header.Get("If-Match") != `"2"` || f.requests[3].Header.Get("Content-Type") != "application/merge-patch+json" {
		t.Errorf("%d results; headers %v %v", n, f.requests[2].Header, f.requests[3].Header)
	}
}

func TestRunResultsUploadIsGzippedOnce(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"received": 3, "recorded": 2, "unmatched": []string{"test.x"},
			"skipped": 0, "ignored": 1, "stale": 0, "duplicates": 0, "failed": []string{"test.y"}, "recovered": []string{}})
	})
	plain := []byte(`{"metadata": {}, "results": []}`)
	path := filepath.Join(t.TempDir(), "run_results.json")
	if err := os.WriteFile(path, plain, 0o600); err != nil {
		t.Fatal(err)
	}
	sum, _, err := c.Quality.UploadRunResultsFile(ctx, path)
	if err != nil || sum.Recorded != 2 || !slices.Equal(sum.Failed, []string{"test.y"}) || !slices.Equal(sum.Unmatched, []string{"test.x"}) {
		t.Fatalf("UploadRunResultsFile = %+v, %v", sum, err)
	}
	r := f.requests[0]
	if r.URL.Path != "/api/v1/quality/results/dbt" || r.Header.Get("Content-Encoding") != "gzip" ||
		r.Header.Get("Content-Type") != "application/json" || r.Header.Get("Idempotency-Key") == "" {
		t.Errorf("upload request = %s, headers %v", r.URL.Path, r.Header)
	}
	zr, err := gzip.NewReader(bytes.NewReader([]byte(f.bodies[0])))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := io.ReadAll(zr); !bytes.Equal(got, plain) {
		t.Errorf("gunzipped body = %s", got)
	}
	// Already gzipped bytes go as they are.
	if _, _, err := c.Quality.UploadRunResults(ctx, []byte(f.bodies[0])); err != nil {
		t.Fatal(err)
	}
	if f.bodies[1] != f.bodies[0] {
		t.Error("gzipped bytes were compressed again")
	}
	if _, _, err := c.Quality.UploadRunResultsFile(ctx, filepath.Join(t.TempDir(), "missing.json")); err == nil || f.count() != 2 {
		t.Errorf("a missing file: %v after %d requests", err, f.count())
	}
}

func TestQueryPagesResendTheSameBodyWithTheCursor(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		_ = json.NewDecoder(r.Body).Decode(&body)
		cursor, _ := body["cursor"].(string)
		next := map[string]any{"": "c1", "c1": "c2", "c2": nil}[cursor]
		writeJSON(w, 200, map[string]any{
			"nodes":       []any{map[string]any{"id": "n" + cursor, "name": "n", "type": "table", "tags": []string{}, "placeholder": false, "distance": n}},
			"next_cursor": next,
		})
	})
	q := Query{
		Start:    &QueryStart{IDs: []string{"a"}},
		Traverse: &Traverse{Direction: DirectionDownstream, MinDepth: Ptr(0), MaxDepth: 3, Where: &QueryFilter{Type: []string{"table"}, HasUpstream: Ptr(true)}},
		Limit:    1,
	}
	var ids []string
	for n, err := range c.Query.Nodes(ctx, q) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, fmt.Sprint(n.ID, "@", n.Distance))
	}
	if fmt.Sprint(ids) != "[n@1 nc1@2 nc2@3]" {
		t.Errorf("nodes = %v", ids)
	}
	first := `{"start":{"ids":["a"]},"traverse":{"direction":"downstream","min_depth":0,"max_depth":3,"where":{"type":["table"],"has_upstream":true}},"return":"nodes","limit":1}`
	if f.bodies[0] != first {
		t.Errorf("first body = %s\nwant %s", f.bodies[0], first)
	}
	second := decodeJSON(t, f.bodies[1])
	if second["cursor"] != "c1" || second["return"] != "nodes" || second["limit"] != float64(1) {
		t.Errorf("second body = %s", f.bodies[1])
	}
	var pages int
	for _, err := range c.Query.Pages(ctx, Query{Start: &QueryStart{Where: &QueryFilter{}}, Return: ReturnCount}) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if pages == 2 {
			break
		}
	}
	if pages != 2 || f.count() != 5 {
		t.Errorf("%d pages read in %d requests; want 2 pages, 5 requests in all", pages, f.count())
	}
	if f.bodies[3] != `{"start":{"where":{}},"return":"count"}` {
		t.Errorf("count body = %s", f.bodies[3])
	}
}

func TestCypherBodyAndRecords(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"columns": []string{"id", "n"}, "rows": [][]any{{"a", 1}, {"b", 2}}, "truncated": true})
	})
	res, _, err := c.Query.Cypher(ctx, "MATCH (a:Asset) RETURN a.id AS id, 1 AS n", map[string]any{"p": "x"}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"query":"MATCH (a:Asset) RETURN a.id AS id, 1 AS n","parameters":{"p":"x"},"limit":2}`; f.bodies[0] != want {
		t.Errorf("cypher body = %s", f.bodies[0])
	}
	recs := res.Records()
	if !res.Truncated || len(recs) != 2 || recs[1]["id"] != "b" || recs[1]["n"] != float64(2) {
		t.Errorf("records = %v", recs)
	}
	if _, _, err := c.Query.Cypher(ctx, "RETURN 1", nil, 0); err != nil {
		t.Fatal(err)
	}
	if f.bodies[1] != `{"query":"RETURN 1"}` {
		t.Errorf("minimal cypher body = %s", f.bodies[1])
	}
}
