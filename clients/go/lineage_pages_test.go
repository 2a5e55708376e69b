package governance

// Unit tests of traversal paging and filters against local fake servers:
// GraphPages follows next_cursor with the same other options, the new answer
// fields decode, and column traversals refuse what they cannot do. No
// service needed.

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"testing"
)

// traversalPages are three pages of a downstream walk from "root", keyed by
// the cursor that asks for each.
var traversalPages = map[string]map[string]any{
	"": {
		"root": "root", "direction": "downstream", "depth": 3, "truncated": true, "next_cursor": "p2",
		"nodes": []any{
			map[string]any{"id": "root", "name": "root", "type": "table", "tags": []any{}, "distance": 0, "direction": "root"},
			map[string]any{"id": "b", "name": "b", "type": "dashboard", "tags": []any{}, "distance": 2, "direction": "downstream"},
		},
		"edges":     []any{map[string]any{"source": "root", "target": "b"}},
		"remaining": map[string]any{"downstream": 3},
		"hidden":    map[string]any{"downstream": 1},
		"capped":    []any{map[string]any{"id": "root", "direction": "downstream", "shown": 2, "total": 7}},
	},
	"p2": {
		"root": "root", "direction": "downstream", "depth": 3, "truncated": true, "next_cursor": "p3",
		"nodes": []any{
			map[string]any{"id": "c", "name": "c", "type": "dashboard", "tags": []any{}, "distance": 2, "direction": "downstream"},
			map[string]any{"id": "d", "name": "d", "type": "report", "tags": []any{}, "distance": 3, "direction": "downstream"},
		},
		"edges": []any{}, "remaining": map[string]any{"downstream": 1}, "hidden": map[string]any{"downstream": 1}, "capped": []any{},
	},
	"p3": {
		"root": "root", "direction": "downstream", "depth": 3, "truncated": false, "next_cursor": nil,
		"nodes": []any{
			map[string]any{"id": "e", "name": "e", "type": "report", "tags": []any{}, "distance": 3, "direction": "downstream"},
		},
		"edges": []any{}, "remaining": map[string]any{"downstream": 0}, "hidden": map[string]any{"downstream": 1}, "capped": []any{},
	},
}

func servePages(n int, w http.ResponseWriter, r *http.Request) {
	page, ok := traversalPages[r.URL.Query().Get("cursor")]
	if !ok {
		writeProblem(w, 400, "invalid_cursor", nil)
		return
	}
	writeJSON(w, 200, page)
}

func TestGraphPagesFollowsTheCursorWithTheSameOptions(t *testing.T) {
	f, c, _ := newFake(t, servePages)
	opts := &TraversalOptions{
		Depth: 3, Limit: 2, AsOf: moment, Fanout: 2,
		Types: []string{"dashboard", "report"}, Platforms: []string{"looker"},
		Tags: []string{"gold", "pii"}, Owners: []string{"bi@example.com"},
	}
	var ids []string
	var cursors []string
	for page, err := range c.Lineage.GraphPages(ctx, "root", DirectionDownstream, opts) {
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range page.Nodes {
			ids = append(ids, n.ID)
		}
		cursors = append(cursors, page.NextCursor)
	}
	if fmt.Sprint(ids) != "[root b c d e]" || fmt.Sprint(cursors) != "[p2 p3 ]" {
		t.Errorf("nodes %v, cursors %q", ids, cursors)
	}
	if f.count() != 3 {
		t.Fatalf("%d requests; want 3", f.count())
	}
	for i, r := range f.requests {
		q := r.URL.Query()
		if r.URL.Path != "/api/v1/lineage/root" || q.Get("direction") != "downstream" || q.Get("depth") != "3" ||
			q.Get("limit") != "2" || q.Get("as_of") != momentWire || q.Get("fanout") != "2" ||
			!slices.Equal(q["type"], []string{"dashboard", "report"}) || !slices.Equal(q["platform"], []string{"looker"}) ||
			!slices.Equal(q["tag"], []string{"gold", "pii"}) || !slices.Equal(q["owner"], []string{"bi@example.com"}) {
			t.Errorf("request %d: %s", i, r.URL)
		}
		if want := []string{"", "p2", "p3"}[i]; q.Get("cursor") != want || (want == "") == q.Has("cursor") {
			t.Errorf("request %d cursor %q; want %q", i, q.Get("cursor"), want)
		}
	}
	if opts.Cursor != "" {
		t.Errorf("GraphPages changed the caller's options: Cursor %q", opts.Cursor)
	}
}

func TestATraversalPageSaysWhatItLeftOut(t *testing.T) {
	_, c, _ := newFake(t, servePages)
	g, _, err := c.Lineage.Downstream(ctx, "root", &TraversalOptions{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !g.Truncated || g.NextCursor != "p2" || g.Remaining != (SideCounts{Downstream: 3}) || g.Hidden != (SideCounts{Downstream: 1}) {
		t.Errorf("page = %+v", g)
	}
	if want := []CappedNode{{ID: "root", Direction: DirectionDownstream, Shown: 2, Total: 7}}; !slices.Equal(g.Capped, want) {
		t.Errorf("Capped = %+v; want %+v", g.Capped, want)
	}
	if want := []GraphEdge{{Source: "root", Target: "b"}}; !slices.Equal(g.Edges, want) {
		t.Errorf("Edges = %+v; want %+v", g.Edges, want)
	}
	last, _, err := c.Lineage.Downstream(ctx, "root", &TraversalOptions{Limit: 2, Cursor: "p3"})
	if err != nil {
		t.Fatal(err)
	}
	if last.Truncated || last.NextCursor != "" || last.Remaining != (SideCounts{}) {
		t.Errorf("last page = %+v", last)
	}
}

func TestGraphPagesStartsAtTheGivenCursorAndStopsWhenTheLoopDoes(t *testing.T) {
	f, c, _ := newFake(t, servePages)
	var ids []string
	for page, err := range c.Lineage.GraphPages(ctx, "root", DirectionDownstream, &TraversalOptions{Cursor: "p2"}) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, page.Nodes[0].ID)
		break
	}
	if fmt.Sprint(ids) != "[c]" || f.count() != 1 || f.requests[0].URL.Query().Get("cursor") != "p2" {
		t.Errorf("yielded %v after %d requests", ids, f.count())
	}
}

func TestGraphPagesYieldsTheErrorLast(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			servePages(n, w, r)
			return
		}
		writeProblem(w, 400, "invalid_cursor", nil)
	})
	var got []string
	for page, err := range c.Lineage.GraphPages(ctx, "root", "", nil) {
		if err != nil {
			got = append(got, "error:"+err.(*Error).Code)
			continue
		}
		got = append(got, fmt.Sprint(len(page.Nodes)))
	}
	if fmt.Sprint(got) != "[2 error:invalid_cursor]" {
		t.Errorf("yielded %v", got)
	}
}

func TestGraphPagesStopsWhenTheCursorDoesNotMove(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"root": "a", "direction": "both", "nodes": []any{}, "edges": []any{}, "truncated": true, "next_cursor": "same"})
	})
	pages := 0
	for _, err := range c.Lineage.GraphPages(ctx, "a", "", nil) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
	}
	if pages != 2 || f.count() != 2 {
		t.Errorf("%d pages from %d requests; want 2 and 2", pages, f.count())
	}
}

func TestColumnTraversalsRefusePagingAndFiltersWithoutARequest(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		t.Errorf("unexpected request %s", r.URL)
	})
	for _, opts := range []*TraversalOptions{
		{Cursor: "p2"}, {Fanout: 3}, {Types: []string{"table"}}, {Platforms: []string{"dbt"}},
		{Tags: []string{"pii"}}, {Owners: []string{"x@example.com"}},
	} {
		if _, _, err := c.Lineage.ColumnUpstream(ctx, "a", "x", opts); !errors.Is(err, errColumnPaging) {
			t.Errorf("ColumnUpstream(%+v) err = %v", opts, err)
		}
		if _, _, err := c.Lineage.ColumnDownstream(ctx, "a", "x", opts); !errors.Is(err, errColumnPaging) {
			t.Errorf("ColumnDownstream(%+v) err = %v", opts, err)
		}
	}
	if f.count() != 0 {
		t.Errorf("%d requests sent", f.count())
	}
}
