//go:build live

package governance

// Lineage through time and change impact against a running service. The
// moments the graph is read at are the service's own (a version's At), never
// this machine's clock.

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
	"time"
)

const revenueModel = "model.quality_shop.customer_revenue"

func nodeIDs(g *Graph) []string {
	var ids []string
	for _, n := range g.Nodes {
		ids = append(ids, n.ID)
	}
	slices.Sort(ids)
	return ids
}

func edgePairs(edges []GraphEdge) []string {
	var out []string
	for _, e := range edges {
		out = append(out, e.Source+" -> "+e.Target)
	}
	slices.Sort(out)
	return out
}

// newestMoment is when the asset's newest version was written, by the service's clock.
func newestMoment(t *testing.T, c *Client, id string) time.Time {
	t.Helper()
	page, _, err := c.Assets.ListHistory(ctx, id, &ListOptions{Limit: 1})
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("ListHistory(%q) = %+v, %v", id, page, err)
	}
	return page.Items[0].At
}

func TestLiveReplacedEdgesStayReadableAsTheyStood(t *testing.T) {
	c, p := live(t)
	a, b, x := p+"a", p+"b", p+"c"
	mustCreate(t, c, Asset{ID: a, Name: "A", Type: "table", Columns: []Column{{Name: "x", Type: "int"}}})
	mustCreate(t, c, Asset{ID: b, Name: "B", Type: "table", Columns: []Column{{Name: "y", Type: "int"}}})
	mustCreate(t, c, Asset{ID: x, Name: "C", Type: "table"})
	origin := Origin("sync:" + p)
	mapped := EdgeInput{Source: a, Target: b, Columns: []ColumnMappingInput{{Source: "x", Target: "y"}}}
	if r, _, err := c.Lineage.Bulk(ctx, []EdgeInput{mapped}, origin); err != nil || r.Created != 1 || r.Retired != nil {
		t.Fatalf("Bulk = %+v, %v", r, err)
	}
	if _, _, err := c.Assets.Patch(ctx, b, map[string]any{"description": "fed by a"}); err != nil {
		t.Fatal(err)
	}
	fedByA := newestMoment(t, c, b)

	r, _, err := c.Lineage.Bulk(ctx, []EdgeInput{{Source: x, Target: b}}, origin, Replace())
	if err != nil || r.Retired == nil || *r.Retired != (Retired{Edges: 1, EdgesRemoved: 1, ColumnMappings: 1, ColumnMappingsRemoved: 1}) {
		t.Fatalf("a replacing Bulk = %+v (retired %+v), %v", r, r.Retired, err)
	}
	now, _, err := c.Lineage.Upstream(ctx, b, nil)
	if err != nil || !slices.Equal(nodeIDs(now), []string{b, x}) {
		t.Errorf("upstream now = %v, %v", nodeIDs(now), err)
	}
	then := &TraversalOptions{AsOf: fedByA}
	for name, read := range map[string]func() (*Graph, *Response, error){
		"Upstream":   func() (*Graph, *Response, error) { return c.Lineage.Upstream(ctx, b, then) },
		"Downstream": func() (*Graph, *Response, error) { return c.Lineage.Downstream(ctx, a, then) },
		"Graph":      func() (*Graph, *Response, error) { return c.Lineage.Graph(ctx, a, DirectionBoth, then) },
	} {
		g, _, err := read()
		if err != nil || !slices.Equal(nodeIDs(g), []string{a, b}) {
			t.Errorf("%s as of %s = %v, %v", name, fedByA, nodeIDs(g), err)
		}
	}
	cols, _, err := c.Lineage.ColumnUpstream(ctx, b, "y", then)
	if err != nil || len(cols.Nodes) != 2 || cols.Nodes[1] != (ColumnNode{Asset: a, Column: "x", Distance: 1}) {
		t.Errorf("ColumnUpstream as of then = %+v, %v", cols, err)
	}
	cols, _, err = c.Lineage.ColumnDownstream(ctx, a, "x", then)
	if err != nil || len(cols.Nodes) != 2 {
		t.Errorf("ColumnDownstream as of then = %+v, %v", cols, err)
	}

	d, _, err := c.Lineage.Diff(ctx, b, fedByA, &DiffOptions{Direction: DirectionUpstream})
	if err != nil {
		t.Fatal(err)
	}
	if got := edgePairs(d.Removed.Edges); !slices.Equal(got, []string{a + " -> " + b}) {
		t.Errorf("removed edges %v", got)
	}
	if got := edgePairs(d.Added.Edges); !slices.Equal(got, []string{x + " -> " + b}) {
		t.Errorf("added edges %v", got)
	}
	if len(d.Removed.Nodes) != 1 || d.Removed.Nodes[0].ID != a || len(d.Added.Nodes) != 1 || d.Added.Nodes[0].ID != x ||
		len(d.Changed.Edges) != 0 || d.Root != b || !d.From.Equal(fedByA) {
		t.Errorf("diff = %+v", d)
	}
}

func TestLiveAsOfBeforeTheRootExistedIsNotFound(t *testing.T) {
	c, p := live(t)
	id := p + "late"
	mustCreate(t, c, Asset{ID: id, Name: "Late", Type: "table"})
	born := newestMoment(t, c, id)
	_, _, err := c.Lineage.Upstream(ctx, id, &TraversalOptions{AsOf: born.Add(-time.Second)})
	apiError(t, err, ErrNotFound, "asset_not_found")
	if g, _, err := c.Lineage.Upstream(ctx, id, &TraversalOptions{AsOf: born}); err != nil || g.Root != id {
		t.Errorf("as of its birth = %+v, %v", g, err)
	}
	_, _, err = c.Lineage.Diff(ctx, id, born, &DiffOptions{To: born.Add(-time.Hour)})
	apiError(t, err, ErrValidation, "")
}

func TestLiveHistoryListsEachChangeNewestFirst(t *testing.T) {
	c, p := live(t)
	id := p + "orders"
	mustCreate(t, c, Asset{ID: id, Name: "Orders", Type: "table", Columns: []Column{{Name: "id", Type: "int"}}})
	if _, _, err := c.Assets.Patch(ctx, id, map[string]any{"description": "one row per order"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Assets.Put(ctx, id, Asset{Name: "Orders", Type: "table", Columns: []Column{{Name: "id", Type: "bigint"}}}); err != nil {
		t.Fatal(err)
	}
	var versions []AssetVersion
	for v, err := range c.Assets.AllHistory(ctx, id, &ListOptions{Limit: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		versions = append(versions, v)
	}
	if len(versions) != 3 || versions[0].Version != 3 || versions[2].Version != 1 {
		t.Fatalf("versions %+v", versions)
	}
	retyped := slices.ContainsFunc(versions[0].Changes, func(ch VersionChange) bool {
		return ch.Field == "columns" && ch.Column == "id" && ch.Change == "retyped"
	})
	described := versions[1].Changes
	if !retyped || len(described) != 1 || described[0].Field != "description" || described[0].To != "one row per order" ||
		described[0].From != nil || !strings.HasPrefix(versions[0].Actor, "token:") || versions[0].Deleted {
		t.Errorf("changes %+v / %+v", versions[0], versions[1])
	}
	_, _, err := c.Assets.ListHistory(ctx, p+"never", nil)
	apiError(t, err, ErrNotFound, "asset_not_found")
}

func TestLiveManifestCheckNamesWhatBreaksAndWhoReadsIt(t *testing.T) {
	c, p := live(t)
	path := repoFixture(t, "dbt_quality", "manifest.json")
	project := strings.TrimSuffix(p, "-")
	if _, _, err := c.Lineage.UploadManifestFile(ctx, path, Project(project)); err != nil {
		t.Fatal(err)
	}
	board := p + "revenue_board"
	mustCreate(t, c, Asset{ID: board, Name: "Revenue board", Type: "dashboard", Owners: []string{"bi@example.com"}})
	if _, _, err := c.Lineage.Create(ctx, EdgeInput{Source: revenueModel, Target: board}); err != nil {
		t.Fatal(err)
	}

	same, _, err := c.Lineage.CheckManifestFile(ctx, path, Project(project))
	if err != nil || same.Breaking || len(same.Changes) != 0 || same.Project != project {
		t.Fatalf("the stored manifest checked = %+v, %v", same, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var manifest map[string]any
	if err := json.Unmarshal(data, &manifest); err != nil {
		t.Fatal(err)
	}
	nodes := manifest["nodes"].(map[string]any)
	for key, node := range nodes {
		deps, _ := node.(map[string]any)["depends_on"].(map[string]any)["nodes"].([]any)
		if key == revenueModel || slices.Contains(deps, any(revenueModel)) {
			delete(nodes, key)
		}
	}
	candidate, err := json.Marshal(manifest)
	if err != nil {
		t.Fatal(err)
	}
	report, _, err := c.Lineage.CheckManifest(ctx, candidate, Project(project), ImpactDepth(3))
	if err != nil {
		t.Fatal(err)
	}
	removed := slices.ContainsFunc(report.Changes, func(ch ImpactChange) bool {
		return ch.Kind == "model_removed" && ch.Asset == revenueModel && ch.Breaking
	})
	i := slices.IndexFunc(report.Impacted, func(hit ImpactedAsset) bool { return hit.Asset == board })
	if !report.Breaking || !removed || i < 0 || report.Depth != 3 {
		t.Fatalf("report = %+v", report)
	}
	hit := report.Impacted[i]
	if hit.Distance != 1 || !slices.Equal(hit.Owners, []string{"bi@example.com"}) ||
		!slices.Equal(hit.Via, []string{revenueModel, board}) {
		t.Errorf("impacted %+v", hit)
	}

	_, _, err = c.Lineage.CheckManifestFile(ctx, path, Project(project+"-never-uploaded"))
	apiError(t, err, ErrNotFound, "unknown_project")
}

func TestLiveAnEmptyReplacementRetiresTheOriginsEdges(t *testing.T) {
	c, p := live(t)
	a, b := p+"a", p+"b"
	cleanup(t, c, a, b)
	origin := Origin("sync:" + p)
	if _, err := c.Lineage.PushBulk(ctx, []EdgeInput{{Source: a, Target: b}}, 0, origin); err != nil {
		t.Fatal(err)
	}
	r, err := c.Lineage.PushBulk(ctx, nil, 0, origin, Replace())
	if err != nil || r.Retired == nil || r.Retired.Edges != 1 || r.Retired.EdgesRemoved != 1 {
		t.Fatalf("an empty replacement = %+v, %v", r, err)
	}
	page, _, err := c.Lineage.ListEdges(ctx, &EdgeListOptions{Source: a})
	if err != nil || len(page.Items) != 0 {
		t.Errorf("edges from %s = %+v, %v", a, page, err)
	}
}
