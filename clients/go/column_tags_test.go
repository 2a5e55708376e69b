package governance

// Unit tests of column classification against a local fake server: the paths
// Columns and the column tag rules go to, the body a rule is written with, and
// the answers read into their types. No service needed.

import (
	"errors"
	"net/http"
	"slices"
	"testing"
)

func TestColumnsReadsOwnAndInheritedTags(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"asset": "mart users", "columns": []any{
			map[string]any{"name": "contact", "type": "text", "tags": []any{}, "inherited": []any{
				map[string]any{"tag": "pii", "from": map[string]any{"asset": "raw.users", "column": "email"},
					"path": []any{
						map[string]any{"asset": "raw.users", "column": "email", "kind": nil},
						map[string]any{"asset": "mart users", "column": "contact", "kind": "identity"},
					}},
			}},
			map[string]any{"name": "id", "type": nil, "tags": []any{"key"}, "inherited": []any{}},
		}})
	})
	got, _, err := c.Assets.Columns(ctx, "mart users")
	if err != nil {
		t.Fatal(err)
	}
	if f.requests[0].Method != http.MethodGet || f.requests[0].RequestURI != "/api/v1/assets/mart%20users/columns" {
		t.Errorf("request %s %s", f.requests[0].Method, f.requests[0].RequestURI)
	}
	if len(got.Columns) != 2 || got.Columns[1].Type != "" || !slices.Equal(got.Columns[1].Tags, []string{"key"}) {
		t.Fatalf("Columns = %+v", got.Columns)
	}
	why := got.Columns[0].Inherited[0]
	wantPath := []PathStep{{Asset: "raw.users", Column: "email"}, {Asset: "mart users", Column: "contact", Kind: MappingIdentity}}
	if why.Tag != "pii" || why.From != (ColumnRef{Asset: "raw.users", Column: "email"}) || !slices.Equal(why.Path, wantPath) {
		t.Errorf("inherited = %+v", why)
	}
	if _, _, err := c.Assets.Columns(ctx, ""); !errors.Is(err, errEmptyID) || f.count() != 1 {
		t.Errorf("an empty id = %v; want errEmptyID and no request", err)
	}
}

func TestColumnTagRulesAreReadAndPutUnderTheirTag(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			writeJSON(w, 200, map[string]any{"tag": "a/b", "stops": []any{"masking", "aggregation", "indirect"}, "default": true, "updated_at": nil})
			return
		}
		writeJSON(w, 200, map[string]any{"tag": "a/b", "stops": []any{}, "default": false, "updated_at": "2026-11-27T10:00:00.000Z"})
	})
	rule, _, err := c.Assets.GetColumnTagRule(ctx, "a/b")
	if err != nil || !rule.Default || !rule.UpdatedAt.IsZero() || !slices.Equal(rule.Stops, []MappingKind{MappingMasking, MappingAggregation, MappingIndirect}) {
		t.Fatalf("GetColumnTagRule = %+v, %v", rule, err)
	}
	rule, _, err = c.Assets.PutColumnTagRule(ctx, "a/b", nil)
	if err != nil || rule.Default || rule.UpdatedAt.IsZero() || len(rule.Stops) != 0 {
		t.Fatalf("PutColumnTagRule = %+v, %v", rule, err)
	}
	for i, want := range []string{"GET /api/v1/column-tags/a%2Fb", "PUT /api/v1/column-tags/a%2Fb"} {
		if got := f.requests[i].Method + " " + f.requests[i].RequestURI; got != want {
			t.Errorf("request %d = %q; want %q", i, got, want)
		}
	}
	if f.bodies[1] != `{"stops":[]}` {
		t.Errorf("a nil rule sent %q; want an empty list", f.bodies[1])
	}
}
