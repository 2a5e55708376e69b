//go:build live

package governance

// Traversal pages, filters and fanout against a running service.

import (
	"slices"
	"testing"
)

// pagedLineage makes root -> t1 -> d1, root -> d2, root -> t2 -> r1 (the
// d* dashboards, r1 a report, the t* tables) and returns the root's id and
// the id of each by its short name.
func pagedLineage(t *testing.T, c *Client, p string) map[string]string {
	t.Helper()
	types := map[string]string{"root": "table", "t1": "table", "t2": "table", "d1": "dashboard", "d2": "dashboard", "r1": "report"}
	ids := map[string]string{}
	for name, typ := range types {
		ids[name] = p + name
		mustCreate(t, c, Asset{ID: p + name, Name: name, Type: typ})
	}
	var edges []EdgeInput
	for _, e := range [][2]string{{"root", "t1"}, {"t1", "d1"}, {"root", "d2"}, {"root", "t2"}, {"t2", "r1"}} {
		edges = append(edges, EdgeInput{Source: ids[e[0]], Target: ids[e[1]]})
	}
	if _, _, err := c.Lineage.Bulk(ctx, edges, Strict()); err != nil {
		t.Fatalf("Bulk: %v", err)
	}
	return ids
}

func TestLiveGraphPagesGiveEveryNodeOnceTheRootFirst(t *testing.T) {
	c, p := live(t)
	ids := pagedLineage(t, c, p)
	whole, _, err := c.Lineage.Downstream(ctx, ids["root"], nil)
	if err != nil || whole.Truncated || whole.NextCursor != "" {
		t.Fatalf("Downstream = %+v, %v; want the whole neighbourhood in one page", whole, err)
	}
	var seen []string
	pages := 0
	for page, err := range c.Lineage.GraphPages(ctx, ids["root"], DirectionDownstream, &TraversalOptions{Limit: 2}) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if page.Truncated != (page.NextCursor != "") || len(page.Nodes) > 2 {
			t.Errorf("page %d: %d nodes, truncated %v, next cursor %q", pages, len(page.Nodes), page.Truncated, page.NextCursor)
		}
		if root := page.Node(ids["root"]); (root != nil) != (pages == 1) {
			t.Errorf("page %d: root present %v", pages, root != nil)
		}
		if page.NextCursor == "" && page.Remaining.Downstream != 0 {
			t.Errorf("the last page says %d remain", page.Remaining.Downstream)
		}
		seen = append(seen, nodeIDs(page)...)
	}
	slices.Sort(seen)
	if !slices.Equal(seen, nodeIDs(whole)) || pages != 3 {
		t.Errorf("%d pages gave %v; want 3 giving %v", pages, seen, nodeIDs(whole))
	}
}

func TestLiveFiltersShowTheMatchingAssetsAndCountTheHidden(t *testing.T) {
	c, p := live(t)
	ids := pagedLineage(t, c, p)
	g, _, err := c.Lineage.Downstream(ctx, ids["root"], &TraversalOptions{Types: []string{"dashboard", "report"}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{ids["d1"], ids["d2"], ids["r1"], ids["root"]}
	slices.Sort(want)
	if got := nodeIDs(g); !slices.Equal(got, want) || g.Hidden.Downstream != 2 {
		t.Errorf("nodes %v, hidden %+v; want %v and 2 hidden", got, g.Hidden, want)
	}
	if d1 := g.Node(ids["d1"]); d1 == nil || d1.Distance != 2 {
		t.Errorf("d1 = %+v; want it at its true distance, 2", d1)
	}
	_, _, err = c.Lineage.Downstream(ctx, ids["root"], &TraversalOptions{Types: []string{"dashboard"}, AsOf: newestMoment(t, c, ids["root"])})
	refused := apiError(t, err, ErrValidation, "validation_error")
	if len(refused.FieldErrors) != 1 || refused.FieldErrors[0].Field() != "query.type" || refused.FieldErrors[0].Type != "unsupported_combination" {
		t.Errorf("field errors = %+v; want query.type unsupported_combination", refused.FieldErrors)
	}
}

func TestLiveFanoutListsTheNodesItCut(t *testing.T) {
	c, p := live(t)
	ids := pagedLineage(t, c, p)
	g, _, err := c.Lineage.Downstream(ctx, ids["root"], &TraversalOptions{Fanout: 1, Depth: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := CappedNode{ID: ids["root"], Direction: DirectionDownstream, Shown: 1, Total: 3}
	if !slices.Contains(g.Capped, want) || len(g.Nodes) != 2 {
		t.Errorf("nodes %v, capped %+v; want the root and one neighbour, and %+v", nodeIDs(g), g.Capped, want)
	}
}
