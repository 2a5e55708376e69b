//go:build live

package governance

// Live tests of users and /me, column lineage, OpenLineage ingestion and the
// service's probes; see live_test.go for what they need.

import (
	crand "crypto/rand"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLiveUsersLifecycle(t *testing.T) {
	c, p := live(t)
	name := "go." + strings.ToLower(crand.Text()[:12]) // unique: the database is shared
	user, resp, err := c.Users.Create(ctx, UserRequest{
		Username: name, Password: "correct horse battery", Role: RoleEditor, DisplayName: p + "ada",
	})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	t.Cleanup(func() { _, _ = c.Users.Delete(ctx, user.ID) })
	if !resp.Created() || resp.Header.Get("Location") == "" || user.Username != name || user.Role != RoleEditor ||
		user.Disabled || user.LastSignInAt != nil || user.CreatedAt.IsZero() {
		t.Errorf("created user = %+v (status %d)", user, resp.StatusCode)
	}
	_, _, err = c.Users.Create(ctx, UserRequest{Username: strings.ToUpper(name), Password: "another long one", Role: RoleViewer})
	apiError(t, err, ErrConflict, "already_exists")
	_, _, err = c.Users.Create(ctx, UserRequest{Username: name + "x", Password: "short", Role: RoleViewer})
	if e := apiError(t, err, ErrValidation, ""); !slices.Contains(fields(e), "body.password") {
		t.Errorf("fields %v; want body.password", fields(e))
	}

	got, _, err := c.Users.Get(ctx, user.ID)
	if err != nil || got.Username != name || got.DisplayName != p+"ada" {
		t.Errorf("Get = %+v, %v", got, err)
	}
	if !slices.ContainsFunc(collect(t, c.Users.All(ctx, &ListOptions{Limit: 2})), func(x User) bool { return x.ID == user.ID }) {
		t.Error("the new user is not listed")
	}

	patched, _, err := c.Users.Patch(ctx, user.ID, map[string]any{"role": RoleViewer, "display_name": nil, "disabled": true})
	if err != nil || patched.Role != RoleViewer || patched.DisplayName != "" || !patched.Disabled {
		t.Errorf("Patch = %+v, %v", patched, err)
	}
	_, _, err = c.Users.Patch(ctx, user.ID, map[string]any{"role": nil})
	apiError(t, err, ErrValidation, "")

	if _, err := c.Users.Delete(ctx, user.ID); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Users.Get(ctx, user.ID)
	apiError(t, err, ErrNotFound, "")
}

func TestLiveMeTellsTheCallingToken(t *testing.T) {
	c, p := live(t)
	me, _, err := c.Me(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The harness's token comes from the command line: it has no user.
	if me.User != nil || me.Token.UserID != "" || !strings.HasPrefix(c.token, me.Token.Prefix) || me.Token.ID == "" {
		t.Errorf("Me = %+v (user %+v)", me.Token, me.User)
	}
	made, _, err := c.Tokens.Create(ctx, TokenRequest{Name: p + "me", Scopes: []Scope{ScopeRead}, ExpiresInDays: 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _, _ = c.Tokens.Revoke(ctx, made.ID) })
	reader, err := NewClient(WithToken(made.Secret))
	if err != nil {
		t.Fatal(err)
	}
	mine, _, err := reader.Me(ctx)
	if err != nil || mine.Token.ID != made.ID || mine.Token.Name != p+"me" || mine.User != nil ||
		mine.Token.CreatedBy != "token:"+me.Token.ID || mine.Token.UserID != "" {
		t.Errorf("Me with a made token = %+v, %v", mine, err)
	}
}

func TestLiveColumnLineage(t *testing.T) {
	c, p := live(t)
	raw, stg, mart := p+"raw", p+"stg", p+"mart"
	mustCreate(t, c, Asset{ID: raw, Name: "raw", Type: "table", Columns: []Column{{Name: "id"}, {Name: "email"}}})
	mustCreate(t, c, Asset{ID: stg, Name: "stg", Type: "view", Columns: []Column{{Name: "customer_id"}, {Name: "email"}}})
	mustCreate(t, c, Asset{ID: mart, Name: "mart", Type: "table", Columns: []Column{{Name: "contact"}, {Name: "lonely"}}})

	edge, resp, err := c.Lineage.Create(ctx, EdgeInput{Source: raw, Target: stg, Columns: []ColumnMappingInput{
		{Source: "id", Target: "customer_id"},
		{Source: "email", Target: "email", Transformation: "lower(email)"},
	}})
	if err != nil || !resp.Created() || len(edge.Columns) != 2 {
		t.Fatalf("Create edge with columns = %+v, %v", edge, err)
	}
	bulk, _, err := c.Lineage.Bulk(ctx, []EdgeInput{{Source: stg, Target: mart, Columns: []ColumnMappingInput{
		{Source: "email", Target: "contact"}, {Source: "email", Target: "contact"},
	}}})
	if err != nil || bulk.ColumnMappings == nil || *bulk.ColumnMappings != (Counts{Created: 1}) {
		t.Fatalf("Bulk with columns = %+v, %v", bulk, err)
	}

	page, _, err := c.Lineage.ListEdges(ctx, &EdgeListOptions{Source: raw})
	if err != nil || len(page.Items) != 1 || len(page.Items[0].Columns) != 2 {
		t.Fatalf("Edges = %+v, %v", page, err)
	}
	if m := page.Items[0].Columns[0]; m.Source != "email" || m.Target != "email" || m.Transformation != "lower(email)" ||
		!slices.Contains(m.Origins, "api") {
		t.Errorf("first mapping = %+v", m)
	}

	up, _, err := c.Lineage.ColumnUpstream(ctx, mart, "contact", nil)
	if err != nil {
		t.Fatal(err)
	}
	var nodes []string
	for _, n := range up.Nodes {
		nodes = append(nodes, fmt.Sprint(n.Distance, ":", strings.TrimPrefix(n.Asset, p), ".", n.Column))
	}
	if up.Root != (ColumnRef{Asset: mart, Column: "contact"}) || up.Direction != DirectionUpstream ||
		fmt.Sprint(nodes) != "[0:mart.contact 1:stg.email 2:raw.email]" || len(up.Edges) != 2 || up.Truncated {
		t.Errorf("ColumnUpstream = %+v (nodes %v)", up, nodes)
	}
	for _, e := range up.Edges {
		if e.Source == (ColumnRef{Asset: raw, Column: "email"}) && e.Transformation != "lower(email)" {
			t.Errorf("edge %+v lost its transformation", e)
		}
	}
	down, _, err := c.Lineage.ColumnDownstream(ctx, raw, "email", &TraversalOptions{Depth: 1})
	if err != nil || len(down.Nodes) != 2 || down.Nodes[1].Asset != stg || down.Depth != 1 {
		t.Errorf("ColumnDownstream depth 1 = %+v, %v", down, err)
	}
	alone, _, err := c.Lineage.ColumnUpstream(ctx, mart, "lonely", nil)
	if err != nil || len(alone.Nodes) != 1 || len(alone.Edges) != 0 {
		t.Errorf("a declared column without lineage = %+v, %v; want just the root", alone, err)
	}
	_, _, err = c.Lineage.ColumnUpstream(ctx, mart, "no such column", nil)
	apiError(t, err, ErrNotFound, "column_not_found")
	_, _, err = c.Lineage.ColumnDownstream(ctx, p+"missing", "x", nil)
	apiError(t, err, ErrNotFound, "asset_not_found")
}

func TestLiveOpenLineageIngestion(t *testing.T) {
	c, p := live(t)
	ns := "postgres://" + strings.ToLower(strings.Trim(p, "-")) // unique dataset ids
	// The placeholders' ids are the datasets normalised: the default port added.
	in, out := ns+":5432/shop.orders", ns+":5432/dw.orders"
	cleanup(t, c, in, out)
	start := runEvent(1, RunStart, 1, 1)
	start.Job = OpenLineageJob{Namespace: "etl", Name: p + "load"}
	start.Inputs = []OpenLineageDataset{{Namespace: ns, Name: "shop.orders"}}
	start.Outputs = []OpenLineageDataset{{Namespace: ns, Name: "dw.orders"}}
	complete := start
	complete.EventType, complete.EventTime = RunComplete, start.EventTime.Add(time.Minute)
	complete.Job.Facets = map[string]any{"sql": SQLJobFacet{Query: "insert into dw.orders select * from shop.orders"}}
	complete.Inputs = []OpenLineageDataset{{Namespace: ns, Name: "shop.orders", Facets: map[string]any{
		"schema": SchemaDatasetFacet{Fields: []SchemaField{{Name: "id", Type: "bigint"}, {Name: "email", Type: "text"}}},
	}}}
	complete.Outputs = []OpenLineageDataset{{Namespace: ns, Name: "dw.orders", Facets: map[string]any{
		"columnLineage": ColumnLineageDatasetFacet{Fields: map[string]ColumnLineageField{
			"contact": {InputFields: []InputField{{Namespace: ns, Name: "shop.orders", Field: "email",
				Transformations: []FieldTransformation{{Type: "DIRECT", Subtype: "IDENTITY"}}}}},
		}},
	}}}

	res, _, err := c.Lineage.IngestOpenLineage(ctx, []RunEvent{start, complete})
	if err != nil {
		t.Fatalf("IngestOpenLineage: %v", err)
	}
	if res.Received != 2 || res.Complete != 1 || res.Runs != 1 || res.Edges != (Counts{Created: 1}) ||
		res.ColumnMappings != (Counts{Created: 1}) || res.Assets.Created != 2 || res.Assets.Updated != 1 {
		t.Errorf("result = %+v", res)
	}
	page, _, err := c.Lineage.ListEdges(ctx, &EdgeListOptions{Source: in, Target: out})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("Edges = %+v, %v", page, err)
	}
	edge := page.Items[0]
	if !slices.Contains(edge.Origins, "openlineage:etl/"+p+"load") || !strings.HasPrefix(edge.Transformation, "insert into") ||
		len(edge.Columns) != 1 || edge.Columns[0].Transformation != "DIRECT/IDENTITY" {
		t.Errorf("edge = %+v", edge)
	}
	asset, _, err := c.Assets.Get(ctx, in)
	if err != nil || len(asset.Columns) != 2 || asset.Columns[1].Name != "email" {
		t.Errorf("input asset = %+v, %v; want the schema facet's columns", asset, err)
	}

	// Any number of events, one per request here; a repeat changes nothing.
	again := complete
	again.Run.RunID = "00000000-0000-4000-8000-00000000000a"
	total, err := c.Lineage.PushOpenLineage(ctx, []RunEvent{start, complete, again}, 1)
	if err != nil {
		t.Fatalf("PushOpenLineage: %v", err)
	}
	if total.Received != 3 || total.Complete != 2 || total.Edges != (Counts{Existing: 2}) || total.Assets.Created != 0 {
		t.Errorf("PushOpenLineage total = %+v", total)
	}
	bad := complete
	bad.Run.RunID = "not a uuid"
	_, _, err = c.Lineage.IngestOpenLineage(ctx, []RunEvent{complete, bad})
	if e := apiError(t, err, ErrValidation, ""); !slices.Contains(fields(e), "body.1.run.runId") {
		t.Errorf("fields %v; want body.1.run.runId", fields(e))
	}
}

func TestLiveProbesAndMetrics(t *testing.T) {
	c, _ := live(t)
	if h, _, err := c.Health(ctx); err != nil || h.Status != "ok" {
		t.Errorf("Health = %+v, %v", h, err)
	}
	if h, _, err := c.Ready(ctx, MaxRetries(0)); err != nil || h.Status != "ready" {
		t.Errorf("Ready = %+v, %v", h, err)
	}
	text, resp, err := c.Metrics(ctx)
	if err != nil || !strings.Contains(string(text), "# TYPE ") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
		t.Errorf("Metrics = %.200s, %v", text, err)
	}
}
