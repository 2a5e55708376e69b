package governance

// Unit tests of lineage through time and change impact against local fake
// servers: AsOf on every traversal, Diff, an asset's history, CheckManifest
// and edge sets owned by their origin. No service needed.

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

var moment = time.Date(2026, 11, 1, 13, 0, 0, 123456789, time.FixedZone("CET", 3600))

const momentWire = "2026-11-01T12:00:00.123Z"

func graphJSON() map[string]any {
	return map[string]any{"root": "a", "direction": "both", "depth": 5, "nodes": []any{}, "edges": []any{}, "truncated": false}
}

func TestEveryTraversalSendsAsOfInUTC(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "/columns/") {
			writeJSON(w, 200, map[string]any{"root": map[string]any{"asset": "a", "column": "x"}, "nodes": []any{}, "edges": []any{}})
			return
		}
		writeJSON(w, 200, graphJSON())
	})
	at := &TraversalOptions{AsOf: moment, Depth: 2}
	steps := []func() error{
		func() error { _, _, err := c.Lineage.Graph(ctx, "a", DirectionBoth, at); return err },
		func() error { _, _, err := c.Lineage.Upstream(ctx, "a", at); return err },
		func() error { _, _, err := c.Lineage.Downstream(ctx, "a", at); return err },
		func() error { _, _, err := c.Lineage.ColumnUpstream(ctx, "a", "x", at); return err },
		func() error { _, _, err := c.Lineage.ColumnDownstream(ctx, "a", "x", at); return err },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("traversal %d: %v", i, err)
		}
	}
	for _, r := range f.requests {
		if got := r.URL.Query().Get("as_of"); got != momentWire || r.URL.Query().Get("depth") != "2" {
			t.Errorf("%s: as_of %q; want %q", r.URL.Path, got, momentWire)
		}
	}
	if _, _, err := c.Lineage.Upstream(ctx, "a", &TraversalOptions{Depth: 1}); err != nil {
		t.Fatal(err)
	}
	if f.requests[5].URL.Query().Has("as_of") {
		t.Errorf("a zero AsOf was sent: %s", f.requests[5].URL)
	}
}

func TestARootMissingThenIsNotFound(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 404, "asset_not_found", nil)
	})
	if _, _, err := c.Lineage.Upstream(ctx, "a", &TraversalOptions{AsOf: moment}); !errors.Is(err, ErrNotFound) {
		t.Errorf("err = %v; want ErrNotFound", err)
	}
}

func TestDiffSendsItsMomentsAndReadsBothSides(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{
			"from": "2026-11-01T12:00:00.123Z", "to": "2026-11-27T06:00:00.000Z",
			"added":   map[string]any{"nodes": []any{map[string]any{"id": "b", "name": "b", "type": "table", "tags": []any{}, "distance": 1, "direction": "downstream"}}, "edges": []any{map[string]any{"source": "a", "target": "b"}}},
			"removed": map[string]any{"nodes": []any{}, "edges": []any{}},
			"changed": map[string]any{"edges": []any{map[string]any{"source": "b", "target": "c", "transformation": "select 2", "previous_transformation": "select 1"}}},
			"root":    "s3://lake/x", "direction": "downstream", "depth": 3, "truncated": false,
		})
	})
	d, _, err := c.Lineage.Diff(ctx, "s3://lake/x", moment, &DiffOptions{Direction: DirectionDownstream, Depth: 3, Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Added.Nodes) != 1 || d.Added.Edges[0].Target != "b" || len(d.Removed.Edges) != 0 || !d.From.Equal(moment.Truncate(time.Millisecond)) ||
		d.Changed.Edges[0].PreviousTransformation != "select 1" || d.Changed.Edges[0].Transformation != "select 2" || d.Root != "s3://lake/x" {
		t.Errorf("diff = %+v", d)
	}
	r := f.requests[0]
	q := r.URL.Query()
	if r.URL.EscapedPath() != "/api/v1/lineage/s3%3A%2F%2Flake%2Fx/diff" || q.Get("from") != momentWire ||
		q.Has("to") || q.Get("direction") != "downstream" || q.Get("depth") != "3" || q.Get("limit") != "100" {
		t.Errorf("request %s", r.URL)
	}
	to := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	if _, _, err := c.Lineage.Diff(ctx, "a", moment, &DiffOptions{To: to}); err != nil {
		t.Fatal(err)
	}
	if got := f.requests[1].URL.Query().Get("to"); got != "2026-11-20T00:00:00.000Z" {
		t.Errorf("to = %q", got)
	}
	if _, _, err := c.Lineage.Diff(ctx, "a", time.Time{}, nil); err == nil || f.count() != 2 {
		t.Errorf("a diff from the zero time: err %v after %d requests; want an error and no request", err, f.count())
	}
}

func TestHistoryPagesNewestFirst(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		version := func(v int) map[string]any {
			return map[string]any{"version": v, "at": "2026-11-0" + string(rune('0'+v)) + "T00:00:00.000Z", "actor": "token:tok_1", "deleted": false,
				"changes": []any{map[string]any{"field": "description", "column": nil, "change": "set", "from": nil, "to": "v"}}}
		}
		if n == 1 {
			writeJSON(w, 200, map[string]any{"items": []any{version(3), version(2)}, "next_cursor": "c2"})
			return
		}
		writeJSON(w, 200, map[string]any{"items": []any{version(1)}, "next_cursor": nil})
	})
	var seen []int
	for v, err := range c.Assets.AllHistory(ctx, "model.shop.orders", &ListOptions{Limit: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		seen = append(seen, v.Version)
		if v.Actor != "token:tok_1" || v.Changes[0].Field != "description" || v.Changes[0].Change != "set" || v.Changes[0].To != "v" || v.At.IsZero() {
			t.Errorf("version %+v", v)
		}
	}
	if !slices.Equal(seen, []int{3, 2, 1}) {
		t.Errorf("versions %v; want 3, 2, 1", seen)
	}
	if f.requests[0].URL.Path != "/api/v1/assets/model.shop.orders/history" || f.requests[1].URL.Query().Get("cursor") != "c2" ||
		f.requests[1].URL.Query().Get("limit") != "2" {
		t.Errorf("requests %s, %s", f.requests[0].URL, f.requests[1].URL)
	}
	if _, _, err := c.Assets.ListHistory(ctx, "", nil); err == nil {
		t.Error("an empty id was accepted")
	}
}

func TestCheckManifestIsAGzippedReadRetriedWithoutAKey(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			writeProblem(w, 503, "neo4j_unavailable", nil)
			return
		}
		writeJSON(w, 200, map[string]any{
			"changes":  []any{map[string]any{"kind": "column_type_changed", "asset": "model.shop.orders", "column": "id", "from": "int", "to": "text", "breaking": true}},
			"impacted": []any{map[string]any{"asset": "dash.revenue", "column": nil, "distance": 2, "owners": []string{"bi@shop"}, "via": []string{"model.shop.orders", "mart.revenue", "dash.revenue"}}},
			"breaking": true, "project": "shop", "depth": 3,
		})
	})
	manifest := []byte(`{"nodes":{}}`)
	path := filepath.Join(t.TempDir(), "manifest.json")
	if err := os.WriteFile(path, manifest, 0o600); err != nil {
		t.Fatal(err)
	}
	report, _, err := c.Lineage.CheckManifestFile(ctx, path, Project("shop"), Namespace("snowflake://acme"), ImpactDepth(3))
	if err != nil {
		t.Fatal(err)
	}
	if !report.Breaking || report.Changes[0].Kind != "column_type_changed" || report.Changes[0].From != "int" ||
		report.Impacted[0].Owners[0] != "bi@shop" || report.Impacted[0].Distance != 2 || len(report.Impacted[0].Via) != 3 ||
		report.Project != "shop" || report.Depth != 3 {
		t.Errorf("report = %+v", report)
	}
	if f.count() != 2 {
		t.Fatalf("%d requests; want 2 (one retry)", f.count())
	}
	for i, r := range f.requests {
		q := r.URL.Query()
		if r.Method != "POST" || r.URL.Path != "/api/v1/impact/manifest" || q.Get("project") != "shop" ||
			q.Get("namespace") != "snowflake://acme" || q.Get("depth") != "3" || r.Header.Get("Content-Encoding") != "gzip" ||
			r.Header.Get("Idempotency-Key") != "" {
			t.Errorf("request %d: %s %s %v", i, r.Method, r.URL, r.Header)
		}
		if gunzipString(t, f.bodies[i]) != string(manifest) {
			t.Errorf("request %d: body does not gunzip to the manifest", i)
		}
	}
}

func TestBulkNamesItsOriginAndReplacesItsSet(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"received": 1, "created": 0, "existing": 1, "assets_created": 0,
			"retired": map[string]any{"edges": 2, "edges_removed": 1, "column_mappings": 0, "column_mappings_removed": 0}})
	})
	edges := []EdgeInput{{Source: "a", Target: "b"}}
	r, _, err := c.Lineage.Bulk(ctx, edges, Origin("airflow:sync"), Replace())
	if err != nil || r.Retired == nil || *r.Retired != (Retired{Edges: 2, EdgesRemoved: 1}) {
		t.Fatalf("Bulk = %+v, %v", r, err)
	}
	if q := f.requests[0].URL.Query(); q.Get("origin") != "airflow:sync" || q.Get("replace") != "true" {
		t.Errorf("query %v", q)
	}
	if _, _, err := c.Lineage.Bulk(ctx, edges, Replace()); !errors.Is(err, errReplaceWithoutOrigin) || f.count() != 1 {
		t.Errorf("Replace without Origin: %v after %d requests", err, f.count())
	}
	total, err := c.Lineage.PushBulk(ctx, []EdgeInput{{Source: "a", Target: "b"}, {Source: "b", Target: "c"}}, 1, Origin("o"))
	if err != nil || total.Retired.Edges != 4 || f.count() != 3 || f.requests[2].URL.Query().Get("origin") != "o" {
		t.Errorf("PushBulk = %+v, %v after %d requests", total, err, f.count())
	}
	two := []EdgeInput{{Source: "a", Target: "b"}, {Source: "b", Target: "c"}}
	if _, err := c.Lineage.PushBulk(ctx, two, 1, Origin("o"), Replace()); err == nil || f.count() != 3 {
		t.Errorf("a replacement over two chunks: %v after %d requests; want an error, nothing sent", err, f.count())
	}
	if r, err := c.Lineage.PushBulk(ctx, two, 0, Origin("o"), Replace()); err != nil || r.Retired.Edges != 2 || f.count() != 4 {
		t.Errorf("a replacement in one chunk = %+v, %v after %d requests", r, err, f.count())
	}
}
