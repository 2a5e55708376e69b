//go:build live

package governance

// Column classification against a running service: a tag set on a column is
// inherited downstream, with the path it came by, until the tag's rule stops
// it.

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// inheritedTags are the tags each column of the asset inherits.
func inheritedTags(t *testing.T, c *Client, id string) map[string][]string {
	t.Helper()
	cols, _, err := c.Assets.Columns(ctx, id)
	if err != nil {
		t.Fatalf("Columns(%q): %v", id, err)
	}
	out := map[string][]string{}
	for _, col := range cols.Columns {
		out[col.Name] = []string{}
		for _, why := range col.Inherited {
			out[col.Name] = append(out[col.Name], why.Tag)
		}
	}
	return out
}

func TestLiveATagIsInheritedWithItsPathUntilItsRuleStopsIt(t *testing.T) {
	c, p := live(t)
	tag := strings.ToLower(runPrefix) + "pii" // one tag per run: its rule is global
	raw, mart := p+"raw", p+"mart"
	mustCreate(t, c, Asset{ID: raw, Name: "raw", Type: "table", Columns: []Column{{Name: "email", Type: "text", Tags: []string{tag}}}})
	mustCreate(t, c, Asset{ID: mart, Name: "mart", Type: "table", Columns: []Column{{Name: "contact", Type: "text"}}})
	edge := EdgeInput{Source: raw, Target: mart, Columns: []ColumnMappingInput{{Source: "email", Target: "contact"}}}
	if _, _, err := c.Lineage.Create(ctx, edge); err != nil {
		t.Fatal(err)
	}

	cols, _, err := c.Assets.Columns(ctx, mart)
	if err != nil || cols.Asset != mart || len(cols.Columns) != 1 || len(cols.Columns[0].Inherited) != 1 {
		t.Fatalf("Columns = %+v, %v", cols, err)
	}
	why := cols.Columns[0].Inherited[0]
	// A mapping written without a transformation is of kind unknown, which carries a tag.
	wantPath := []PathStep{{Asset: raw, Column: "email"}, {Asset: mart, Column: "contact", Kind: MappingUnknown}}
	if why.Tag != tag || why.From != (ColumnRef{Asset: raw, Column: "email"}) || !slices.Equal(why.Path, wantPath) {
		t.Errorf("inherited = %+v", why)
	}

	rule, _, err := c.Assets.GetColumnTagRule(ctx, tag)
	if err != nil || !rule.Default || !slices.Contains(rule.Stops, MappingMasking) {
		t.Fatalf("GetColumnTagRule = %+v, %v", rule, err)
	}
	rule, _, err = c.Assets.PutColumnTagRule(ctx, tag, []MappingKind{MappingUnknown})
	if err != nil || rule.Default || !slices.Equal(rule.Stops, []MappingKind{MappingUnknown}) {
		t.Fatalf("PutColumnTagRule = %+v, %v", rule, err)
	}
	if got := inheritedTags(t, c, mart); len(got["contact"]) != 0 {
		t.Errorf("after a rule stopping unknown mappings: %v", got)
	}
	if _, _, err := c.Assets.PutColumnTagRule(ctx, tag, nil); err != nil {
		t.Fatal(err)
	}
	if got := inheritedTags(t, c, mart); !slices.Equal(got["contact"], []string{tag}) {
		t.Errorf("after a rule stopping nothing: %v", got)
	}
	if _, _, err := c.Assets.Columns(ctx, p+"never"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Columns of an unknown asset = %v; want ErrNotFound", err)
	}
}
