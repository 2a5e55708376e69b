//go:build live

package governance

// Tests against a running service: GOVERNANCE_URL and GOVERNANCE_TOKEN (an
// admin token) must be set; clients/harness.py sets both. Every id starts
// with a prefix unique to this run, since other clients may share the database.

import (
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var runPrefix = "go-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "-"

// live returns a client for the service under test and a prefix unique to the test.
func live(t *testing.T) (*Client, string) {
	t.Helper()
	if os.Getenv("GOVERNANCE_URL") == "" || os.Getenv("GOVERNANCE_TOKEN") == "" {
		t.Fatal("live tests need GOVERNANCE_URL and GOVERNANCE_TOKEN (an admin token) of a running " +
			"service; run them through clients/harness.py, which sets both")
	}
	c, err := NewClient(WithTimeout(20 * time.Second))
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c, runPrefix + t.Name() + "-"
}

// mustCreate creates an asset and deletes it when the test ends.
func mustCreate(t *testing.T, c *Client, a Asset) *Asset {
	t.Helper()
	got, _, err := c.Assets.Create(ctx, a)
	if err != nil {
		t.Fatalf("Create(%q): %v", a.ID, err)
	}
	cleanup(t, c, a.ID)
	return got
}

func cleanup(t *testing.T, c *Client, ids ...string) {
	t.Cleanup(func() {
		for _, id := range ids {
			if _, err := c.Assets.Delete(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
				t.Errorf("cleanup: deleting %q: %v", id, err)
			}
		}
	})
}

// apiError asserts err is an *Error of kind want with a code and request id.
func apiError(t *testing.T, err error, want error, code string) *Error {
	t.Helper()
	var apiErr *Error
	if !errors.As(err, &apiErr) {
		t.Fatalf("err = %v; want an *Error (%v)", err, want)
	}
	if !errors.Is(err, want) {
		t.Fatalf("err = %v; want errors.Is(err, %v)", err, want)
	}
	if code != "" && apiErr.Code != code {
		t.Errorf("code = %q; want %q", apiErr.Code, code)
	}
	if apiErr.RequestID == "" {
		t.Errorf("error %v has no request id", err)
	}
	return apiErr
}

func TestLiveServiceInfoAndOpenAPICoverTheClient(t *testing.T) {
	c, _ := live(t)
	info, _, err := c.Info(ctx)
	if err != nil || info.APIVersion != "v1" || info.Service == "" {
		t.Fatalf("Info = %+v, %v", info, err)
	}
	raw, _, err := c.OpenAPI(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		OpenAPI string                    `json:"openapi"`
		Paths   map[string]map[string]any `json:"paths"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil || !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Fatalf("OpenAPI document %.80s: %v", raw, err)
	}
	// operations.json names a method for every operation of the document, and
	// for nothing else.
	data, err := os.ReadFile("operations.json")
	if err != nil {
		t.Fatal(err)
	}
	var covered map[string]string
	if err := json.Unmarshal(data, &covered); err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for path, methods := range doc.Paths {
		for method, op := range methods {
			fields, _ := op.(map[string]any) // a path item may hold "parameters" too
			id, _ := fields["operationId"].(string)
			if id == "" {
				continue
			}
			served[id] = true
			if covered[id] == "" {
				t.Errorf("operations.json lacks %s (%s %s)", id, strings.ToUpper(method), path)
			}
		}
	}
	for id := range covered {
		if !served[id] {
			t.Errorf("operations.json names %s, which the service does not serve", id)
		}
	}
}

func TestLiveAssetLifecycleWithIfMatch(t *testing.T) {
	c, p := live(t)
	id := p + "orders"
	created := mustCreate(t, c, Asset{
		ID: id, Name: "orders", Type: "table", Platform: "snowflake", Description: "all orders",
		Owners: []string{"data@example.com"}, Tags: []string{"PII", "pii", "Finance"},
		Columns:    []Column{{Name: "id", Type: "int"}, {Name: "email", Tags: []string{"PII"}}},
		Properties: map[string]any{"rows": 42, "schema": "sales", "certified": true},
	})
	if created.Version != 1 || created.CreatedAt.IsZero() || created.Placeholder ||
		fmt.Sprint(created.Tags) != "[pii finance]" || created.Properties["rows"] != 42.0 {
		t.Errorf("created = %+v", created)
	}

	got, _, err := c.Assets.Get(ctx, id)
	if err != nil || got.Name != "orders" || len(got.Columns) != 2 || got.Columns[1].Tags[0] != "pii" {
		t.Fatalf("Get = %+v, %v", got, err)
	}

	// PUT what GET gave back, edited: read-only fields are ignored.
	got.Description = "every order"
	replaced, resp, err := c.Assets.Put(ctx, id, *got, IfMatch(1))
	if err != nil || resp.Created() || replaced.Version != 2 || replaced.Description != "every order" {
		t.Fatalf("Put = %+v, created=%v, %v", replaced, resp.Created(), err)
	}
	if resp.ETag() != `"2"` || resp.StatusCode != 200 || resp.RequestID == "" || resp.Attempts != 1 {
		t.Errorf("Put response: ETag %q, status %d, request id %q, attempts %d",
			resp.ETag(), resp.StatusCode, resp.RequestID, resp.Attempts)
	}
	// A stale version is refused and changes nothing.
	_, _, err = c.Assets.Put(ctx, id, Asset{Name: "stale", Type: "table"}, IfMatch(1))
	apiError(t, err, ErrPreconditionFailed, "precondition_failed")

	patched, _, err := c.Assets.Patch(ctx, id, map[string]any{"description": nil, "tags": []string{"gold"}}, IfMatch(2))
	if err != nil || patched.Version != 3 || patched.Description != "" || fmt.Sprint(patched.Tags) != "[gold]" ||
		patched.Platform != "snowflake" {
		t.Fatalf("Patch = %+v, %v", patched, err)
	}
	_, _, err = c.Assets.Patch(ctx, id, map[string]any{"name": "x"}, IfMatch(2))
	apiError(t, err, ErrPreconditionFailed, "")

	_, err = c.Assets.Delete(ctx, id, IfMatch(2))
	apiError(t, err, ErrPreconditionFailed, "")
	if _, err := c.Assets.Delete(ctx, id, IfMatch(3)); err != nil {
		t.Fatalf("Delete: %v", err)
	}

	_, _, err = c.Assets.Get(ctx, id)
	e := apiError(t, err, ErrNotFound, "asset_not_found")
	if e.Status != 404 || e.Detail == "" {
		t.Errorf("404 error = %+v", e)
	}

	// PUT on a free id creates.
	put, resp, err := c.Assets.Put(ctx, id, Asset{Name: "again", Type: "view"})
	if err != nil || !resp.Created() || put.Version != 1 || put.ID != id {
		t.Fatalf("Put (create) = %+v, created=%v, %v", put, resp.Created(), err)
	}
	if resp.Header.Get("Location") == "" || resp.Rate.Limit == 0 {
		t.Errorf("Put (create) response: Location %q, rate %+v", resp.Header.Get("Location"), resp.Rate)
	}
}

func TestLiveConflictAndValidation(t *testing.T) {
	c, p := live(t)
	id := p + "dup"
	mustCreate(t, c, Asset{ID: id, Name: "dup", Type: "table"})
	_, _, err := c.Assets.Create(ctx, Asset{ID: id, Name: "dup", Type: "table"})
	apiError(t, err, ErrConflict, "already_exists")

	_, _, err = c.Assets.Create(ctx, Asset{ID: p + "bad", Name: "", Type: "not a type!"})
	e := apiError(t, err, ErrValidation, "validation_error")
	var fields []string
	for _, f := range e.FieldErrors {
		fields = append(fields, f.Field())
	}
	if !slices.Contains(fields, "body.name") || !slices.Contains(fields, "body.type") {
		t.Errorf("field errors %v; want body.name and body.type", fields)
	}

	_, _, err = c.Lineage.Upstream(ctx, id, &TraversalOptions{Depth: 99})
	e = apiError(t, err, ErrValidation, "")
	if len(e.FieldErrors) == 0 || e.FieldErrors[0].Field() != "query.depth" {
		t.Errorf("depth error names %+v; want query.depth", e.FieldErrors)
	}

	_, _, err = c.Lineage.Create(ctx, EdgeInput{Source: id, Target: id})
	apiError(t, err, ErrValidation, "self_loop")

	_, _, err = c.Lineage.Create(ctx, EdgeInput{Source: id, Target: p + "missing"}, Strict())
	e = apiError(t, err, ErrValidation, "unknown_assets")
	if !strings.Contains(string(e.Extensions["unknown_assets"]), p+"missing") {
		t.Errorf("unknown_assets = %s", e.Extensions["unknown_assets"])
	}
	_, _, err = c.Assets.Get(ctx, p+"missing", RequestID(p+"rid"))
	if e := apiError(t, err, ErrNotFound, "asset_not_found"); e.RequestID != p+"rid" {
		t.Errorf("request id %q; want the one sent, %q", e.RequestID, p+"rid")
	}
}

func TestLiveIdempotencyKeyReplaysTheFirstAnswer(t *testing.T) {
	c, p := live(t)
	id := p + "once"
	key := p + "key"
	first, _, err := c.Assets.Create(ctx, Asset{ID: id, Name: "once", Type: "table"}, IdempotencyKey(key))
	if err != nil {
		t.Fatal(err)
	}
	cleanup(t, c, id)
	again, _, err := c.Assets.Create(ctx, Asset{ID: id, Name: "once", Type: "table"}, IdempotencyKey(key))
	if err != nil || again.CreatedAt != first.CreatedAt {
		t.Fatalf("repeat with the same key = %+v, %v; want the first answer", again, err)
	}
	_, _, err = c.Assets.Create(ctx, Asset{ID: id, Name: "other", Type: "table"}, IdempotencyKey(key))
	apiError(t, err, ErrValidation, "idempotency_key_reused")
}

func TestLiveIDsWithReservedCharactersRoundTrip(t *testing.T) {
	c, p := live(t)
	ids := []string{
		"s3://lake/" + p + "raw/events.parquet",
		"urn:li:dataset:(urn:li:dataPlatform:hive," + p + "db.orders,PROD)",
		p + "a#b?c%d@e$f,g;h=i+j&k'l!m*表.订单",
		p + "ends/in/upstream",
	}
	for _, id := range ids {
		got := mustCreate(t, c, Asset{ID: id, Name: "odd", Type: "file"})
		if got.ID != id {
			t.Errorf("created id %q; want %q", got.ID, id)
		}
		if a, _, err := c.Assets.Get(ctx, id); err != nil || a.ID != id {
			t.Errorf("Get(%q) = %+v, %v", id, a, err)
		}
		if a, _, err := c.Assets.Put(ctx, id, Asset{Name: "odder", Type: "file"}); err != nil || a.ID != id || a.Version != 2 {
			t.Errorf("Put(%q) = %+v, %v", id, a, err)
		}
		if a, _, err := c.Assets.Patch(ctx, id, map[string]any{"name": "oddest"}); err != nil || a.ID != id || a.Name != "oddest" {
			t.Errorf("Patch(%q) = %+v, %v", id, a, err)
		}
	}
	if _, _, err := c.Lineage.Create(ctx, EdgeInput{Source: ids[0], Target: ids[3]}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{ids[0], ids[3]} {
		g, _, err := c.Lineage.Graph(ctx, id, "", nil)
		if err != nil || g.Root != id || len(g.Nodes) != 2 || len(g.Edges) != 1 {
			t.Errorf("Graph(%q) = %+v, %v", id, g, err)
		}
	}
	if g, _, err := c.Lineage.Upstream(ctx, ids[3], nil); err != nil || g.Node(ids[0]) == nil {
		t.Errorf("Upstream(%q) = %+v, %v", ids[3], g, err)
	}
	var found []Asset
	for a, err := range c.Assets.All(ctx, &AssetListOptions{Q: p}) {
		if err != nil {
			t.Fatal(err)
		}
		found = append(found, a)
	}
	if len(found) != len(ids) {
		t.Errorf("listing by prefix found %d assets; want %d", len(found), len(ids))
	}
	for _, id := range ids {
		if _, err := c.Assets.Delete(ctx, id); err != nil {
			t.Errorf("Delete(%q): %v", id, err)
		}
	}
}

func TestLivePagingAndFilters(t *testing.T) {
	c, p := live(t)
	var want []string
	for i := range 7 {
		a := Asset{ID: fmt.Sprintf("%s%02d", p, i), Name: "paged", Type: "table", Owners: []string{p + "owner"}}
		if i%2 == 0 {
			a.Tags = []string{"even", "num"}
			a.Platform = "postgres"
		} else {
			a.Tags = []string{"num"}
		}
		mustCreate(t, c, a)
		want = append(want, a.ID)
	}
	first, _, err := c.Assets.List(ctx, &AssetListOptions{Q: p, ListOptions: ListOptions{Limit: 3}})
	if err != nil || len(first.Items) != 3 || first.NextCursor == "" {
		t.Fatalf("first page = %+v, %v; want 3 items and a cursor", first, err)
	}
	var got []string
	for a, err := range c.Assets.All(ctx, &AssetListOptions{Q: p, ListOptions: ListOptions{Limit: 3}}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, a.ID)
	}
	if !slices.Equal(got, want) {
		t.Errorf("All = %v; want %v in id order", got, want)
	}
	count := func(o AssetListOptions) int {
		n := 0
		for _, err := range c.Assets.All(ctx, &o) {
			if err != nil {
				t.Fatal(err)
			}
			n++
		}
		return n
	}
	cases := map[string]struct {
		opts AssetListOptions
		want int
	}{
		"both tags":        {AssetListOptions{Q: p, Tags: []string{"num", "even"}}, 4},
		"one tag":          {AssetListOptions{Q: p, Tags: []string{"num"}}, 7},
		"platform":         {AssetListOptions{Q: p, Platform: "postgres"}, 4},
		"owner":            {AssetListOptions{Owner: p + "owner"}, 7},
		"type":             {AssetListOptions{Q: p, Type: "view"}, 0},
		"not placeholders": {AssetListOptions{Q: p, Placeholder: Ptr(false)}, 7},
	}
	for name, tc := range cases {
		if n := count(tc.opts); n != tc.want {
			t.Errorf("%s: %d assets; want %d", name, n, tc.want)
		}
	}
}

func TestLiveLineageEdgesAndTraversal(t *testing.T) {
	c, p := live(t)
	// raw -> stg -> orders -> report, and customers -> orders.
	raw, stg, orders, report, customers := p+"raw", p+"stg", p+"orders", p+"report", p+"customers"
	for _, id := range []string{raw, stg, orders, report, customers} {
		mustCreate(t, c, Asset{ID: id, Name: id, Type: "model", Platform: "dbt"})
	}
	e, resp, err := c.Lineage.Create(ctx, EdgeInput{Source: raw, Target: stg, Transformation: "select 1"})
	if err != nil || !resp.Created() || e.Transformation != "select 1" || !slices.Contains(e.Origins, "api") {
		t.Fatalf("Create edge = %+v, created=%v, %v", e, resp.Created(), err)
	}
	if _, resp, err := c.Lineage.Create(ctx, EdgeInput{Source: raw, Target: stg}); err != nil || resp.Created() {
		t.Errorf("repeating an edge: created=%v, %v; want an existing edge", resp.Created(), err)
	}
	r, _, err := c.Lineage.Bulk(ctx, []EdgeInput{{Source: stg, Target: orders}, {Source: orders, Target: report}, {Source: customers, Target: orders}})
	if err != nil || *r != (BulkResult{Received: 3, Created: 3}) {
		t.Fatalf("Bulk = %+v, %v", r, err)
	}

	up, _, err := c.Lineage.Upstream(ctx, report, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantUp := map[string]int{report: 0, orders: 1, stg: 2, customers: 2, raw: 3}
	if up.Direction != DirectionUpstream || len(up.Nodes) != len(wantUp) || len(up.Edges) != 4 || up.Truncated {
		t.Errorf("upstream of report = %+v", up)
	}
	for id, d := range wantUp {
		if n := up.Node(id); n == nil || n.Distance != d {
			t.Errorf("upstream node %s = %+v; want distance %d", id, n, d)
		}
	}

	down, _, err := c.Lineage.Downstream(ctx, raw, &TraversalOptions{Depth: 2})
	if err != nil || down.Depth != 2 || len(down.Nodes) != 3 || down.Node(orders) == nil || down.Node(report) != nil {
		t.Errorf("downstream of raw, depth 2 = %+v, %v", down, err)
	}
	both, _, err := c.Lineage.Graph(ctx, orders, DirectionBoth, &TraversalOptions{Depth: 1})
	if err != nil || len(both.Nodes) != 4 || both.Node(report).Direction != "downstream" || both.Node(stg).Direction != "upstream" {
		t.Errorf("both ways of orders = %+v, %v", both, err)
	}
	small, _, err := c.Lineage.Graph(ctx, report, DirectionUpstream, &TraversalOptions{Limit: 2})
	if err != nil || !small.Truncated || len(small.Nodes) != 2 {
		t.Errorf("limit 2 = %+v, %v; want 2 nodes, truncated", small, err)
	}
	_, _, err = c.Lineage.Downstream(ctx, p+"nowhere", nil)
	apiError(t, err, ErrNotFound, "asset_not_found")

	var into []string
	for e, err := range c.Lineage.AllEdges(ctx, &EdgeListOptions{Target: orders, ListOptions: ListOptions{Limit: 1}}) {
		if err != nil {
			t.Fatal(err)
		}
		into = append(into, e.Source)
	}
	if !slices.Equal(into, []string{customers, stg}) {
		t.Errorf("edges into orders = %v", into)
	}

	if _, err := c.Lineage.DeleteEdge(ctx, customers, orders); err != nil {
		t.Fatal(err)
	}
	_, err = c.Lineage.DeleteEdge(ctx, customers, orders)
	apiError(t, err, ErrNotFound, "edge_not_found")
}

func TestLivePushBulkChunks(t *testing.T) {
	c, p := live(t)
	hub := p + "hub"
	var edges []EdgeInput
	var targets []string
	for i := range 23 {
		target := fmt.Sprintf("%st%02d", p, i)
		edges = append(edges, EdgeInput{Source: hub, Target: target})
		targets = append(targets, target)
	}
	cleanup(t, c, append(targets, hub)...)
	r, err := c.Lineage.PushBulk(ctx, edges, 10)
	if err != nil || *r != (BulkResult{Received: 23, Created: 23, AssetsCreated: 24}) {
		t.Fatalf("PushBulk = %+v, %v", r, err)
	}
	// Idempotent: again changes nothing.
	r, err = c.Lineage.PushBulk(ctx, edges, 7)
	if err != nil || *r != (BulkResult{Received: 23, Existing: 23}) {
		t.Fatalf("PushBulk again = %+v, %v", r, err)
	}
	var got []string
	for e, err := range c.Lineage.AllEdges(ctx, &EdgeListOptions{Source: hub, ListOptions: ListOptions{Limit: 10}}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Target)
	}
	if !slices.Equal(got, targets) {
		t.Errorf("edges from the hub = %v", got)
	}
	hubAsset, _, err := c.Assets.Get(ctx, hub)
	if err != nil || !hubAsset.Placeholder || hubAsset.Type != "unknown" {
		t.Errorf("hub = %+v, %v; want a placeholder", hubAsset, err)
	}
	var placeholders int
	for _, err := range c.Assets.All(ctx, &AssetListOptions{Q: p, Placeholder: Ptr(true)}) {
		if err != nil {
			t.Fatal(err)
		}
		placeholders++
	}
	if placeholders != 24 {
		t.Errorf("%d placeholders; want 24", placeholders)
	}

	// A bad item fails its chunk; the chunks before it stay written.
	bad := append(slices.Clone(edges[:5]), EdgeInput{Source: hub, Target: hub})
	r, err = c.Lineage.PushBulk(ctx, append(slices.Clone(edges), bad...), 23, Strict())
	var bulkErr *BulkError
	if !errors.As(err, &bulkErr) || bulkErr.Chunk != 1 || bulkErr.Offset != 23 || r.Received != 23 {
		t.Fatalf("PushBulk with a bad chunk = %+v, %v", r, err)
	}
	apiError(t, err, ErrValidation, "self_loop")
}

func TestLiveTokensCreateAndRevoke(t *testing.T) {
	c, p := live(t)
	created, _, err := c.Tokens.Create(ctx, TokenRequest{Name: p + "reader", Scopes: []Scope{ScopeRead}, ExpiresInDays: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(created.Secret, "dgs_") || !strings.HasPrefix(created.ID, "tok_") ||
		created.Prefix != created.Secret[:8] || created.ExpiresAt == nil || created.RevokedAt != nil {
		t.Errorf("created token = %+v", created.Token)
	}
	got, _, err := c.Tokens.Get(ctx, created.ID)
	if err != nil || got.Name != p+"reader" || !slices.Equal(got.Scopes, []Scope{ScopeRead}) {
		t.Errorf("Get token = %+v, %v", got, err)
	}
	if !slices.ContainsFunc(collect(t, c.Tokens.All(ctx, &ListOptions{Limit: 2})), func(x Token) bool { return x.ID == created.ID }) {
		t.Error("the new token is not listed")
	}

	reader, err := NewClient(WithToken(created.Secret))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := reader.Assets.List(ctx, &AssetListOptions{ListOptions: ListOptions{Limit: 1}}); err != nil {
		t.Fatalf("the read token cannot read: %v", err)
	}
	_, _, err = reader.Assets.Create(ctx, Asset{ID: p + "nope", Name: "nope", Type: "table"})
	apiError(t, err, ErrPermission, "insufficient_scope")
	_, _, err = reader.Tokens.List(ctx, nil)
	apiError(t, err, ErrPermission, "insufficient_scope")

	if _, err := c.Tokens.Revoke(ctx, created.ID); err != nil {
		t.Fatal(err)
	}
	_, _, err = reader.Assets.List(ctx, nil)
	apiError(t, err, ErrAuthentication, "")
	if got, _, err := c.Tokens.Get(ctx, created.ID); err != nil || got.RevokedAt == nil {
		t.Errorf("revoked token = %+v, %v; want revoked_at", got, err)
	}
	_, _, err = c.Tokens.Get(ctx, "tok_"+strings.Repeat("0", 26))
	apiError(t, err, ErrNotFound, "")

	anonymous, _ := NewClient(WithToken(""))
	_, _, err = anonymous.Assets.List(ctx, nil)
	apiError(t, err, ErrAuthentication, "")
	if info, _, err := anonymous.Info(ctx); err != nil || info.APIVersion != "v1" {
		t.Errorf("Info without a token = %+v, %v", info, err)
	}
}

// manifestFixture is a gzipped dbt 1.11 manifest of the repository's tests,
// with 20 dependencies.
func manifestFixture(t *testing.T) string {
	t.Helper()
	return repoFixture(t, "dbt_versions", "manifest_v12_dbt1.11.16.json.gz")
}

func TestLiveManifestUploadIsIdempotentAndLogged(t *testing.T) {
	c, _ := live(t)
	path := manifestFixture(t)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the fixture: %v", err)
	}
	project := "go-" + crand.Text()[:12]
	first, _, err := c.Lineage.UploadManifestFile(ctx, path, Project(project))
	if err != nil {
		t.Fatalf("UploadManifestFile: %v", err)
	}
	// Other clients upload the same manifest into the same database, so the
	// assets may exist already; the edges of this project are new.
	if first.Project != project || first.DbtVersion != "1.11.16" || first.DbtSchemaVersion == "" ||
		first.Edges.Created+first.Edges.Existing != 20 || first.Edges.Removed != 0 {
		t.Errorf("first upload = %+v", first)
	}
	second, _, err := c.Lineage.UploadManifest(ctx, data, Project(project), Prune(true))
	if err != nil {
		t.Fatalf("UploadManifest (again): %v", err)
	}
	if second.Edges.Created != 0 || second.Edges.Removed != 0 || second.Edges.Existing != 20 ||
		second.Assets.Created != 0 || second.QualityRules.Created != 0 || second.QualityRules.Removed != 0 {
		t.Errorf("second upload = %+v; want nothing changed", second)
	}

	// Both uploads are in the event log.
	found := 0
	for ev, err := range c.Events.All(ctx, &EventListOptions{Types: []string{"lineage.manifest.ingested"},
		ListOptions: ListOptions{Limit: 200}}) {
		if err != nil {
			t.Fatalf("Events.All: %v", err)
		}
		if ev.Type != "lineage.manifest.ingested" {
			t.Fatalf("event %+v is not of the type asked for", ev)
		}
		var d struct {
			Project string `json:"project"`
		}
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatalf("event data %s: %v", ev.Data, err)
		}
		if d.Project == project {
			found++
			if ev.ID == "" || ev.Seq <= 0 || ev.OccurredAt.IsZero() || ev.Actor == "" {
				t.Errorf("event = %+v", ev)
			}
		}
	}
	if found == 0 {
		t.Errorf("no lineage.manifest.ingested event has data.project %q", project)
	}

	// A bad filter is a validation error.
	_, _, err = c.Events.List(ctx, &EventListOptions{Types: []string{"no.such.type"}})
	apiError(t, err, ErrValidation, "")
}
