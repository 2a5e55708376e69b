//go:build live

package governance

// Live tests of policies, quality rules, dbt run results and the query
// facility; see live_test.go for what they need. Ids start with the test's
// own prefix, except the dbt fixture's, which every client shares.

import (
	"errors"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// repoFixture is a file under tests/fixtures/ of this repository (two levels
// above this package).
func repoFixture(t *testing.T, parts ...string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(append([]string{filepath.Dir(filepath.Dir(wd)), "tests", "fixtures"}, parts...)...)
}

func cleanupPolicy(t *testing.T, c *Client, id string) {
	t.Cleanup(func() {
		if _, err := c.Policies.Delete(ctx, id); err != nil && !errors.Is(err, ErrNotFound) {
			t.Errorf("cleanup: deleting policy %q: %v", id, err)
		}
	})
}

func collect[T any](t *testing.T, seq iter.Seq2[T, error]) []T {
	t.Helper()
	var out []T
	for item, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, item)
	}
	return out
}

func fields(e *Error) []string {
	var out []string
	for _, f := range e.FieldErrors {
		out = append(out, f.Field())
	}
	return out
}

func TestLivePolicyViolationOpensAndResolves(t *testing.T) {
	c, p := live(t)
	orphan, owned := p+"orphan", p+"owned"
	mustCreate(t, c, Asset{ID: orphan, Name: "orphan", Type: "table"})
	mustCreate(t, c, Asset{ID: owned, Name: "owned", Type: "table", Owners: []string{"data@example.com"}})

	pol, _, err := c.Policies.Create(ctx, Policy{
		Name: p + "owners", Kind: PolicyRequireOwner, Severity: SeverityHigh,
		Selector: Selector{IDPrefix: p, Type: AnyOf{"table"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	cleanupPolicy(t, c, pol.ID)
	if !strings.HasPrefix(pol.ID, "pol_") || pol.Version != 1 || pol.Enabled == nil || !*pol.Enabled ||
		pol.Severity != SeverityHigh || pol.Selector.IDPrefix != p || !slices.Equal(pol.Selector.Type, []string{"table"}) {
		t.Errorf("created policy = %+v", pol)
	}

	sum, _, err := c.Policies.Evaluate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if e := sum.Policy(pol.ID); e == nil || e.Violations != 1 {
		t.Fatalf("evaluation of %s = %+v; want 1 violation", pol.ID, e)
	}
	found := collect(t, c.Policies.AllViolations(ctx, pol.ID, &ListOptions{Limit: 1}))
	if len(found) != 1 || found[0].AssetID != orphan || found[0].Reason == "" || found[0].OpenedAt.IsZero() {
		t.Errorf("violations = %+v; want only %s", found, orphan)
	}
	page, _, err := c.Policies.ListViolations(ctx, pol.ID, nil)
	if err != nil || page.PolicyID != pol.ID || page.EvaluatedAt.IsZero() {
		t.Errorf("Violations = %+v, %v", page, err)
	}

	// Fix the asset: the violation goes away at the next evaluation.
	if _, _, err := c.Assets.Patch(ctx, orphan, map[string]any{"owners": []string{"data@example.com"}}); err != nil {
		t.Fatal(err)
	}
	sum, _, err = c.Policies.Evaluate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if e := sum.Policy(pol.ID); e == nil || e.Violations != 0 {
		t.Errorf("evaluation after the fix = %+v; want 0 violations", e)
	}
	if left := collect(t, c.Policies.AllViolations(ctx, pol.ID, nil)); len(left) != 0 {
		t.Errorf("violations after the fix = %+v", left)
	}

	// Versioned updates.
	read, _, err := c.Policies.Get(ctx, pol.ID)
	if err != nil {
		t.Fatal(err)
	}
	read.Description = "every table has an owner"
	_, _, err = c.Policies.Replace(ctx, pol.ID, *read, IfMatch(read.Version+1))
	apiError(t, err, ErrPreconditionFailed, "")
	replaced, _, err := c.Policies.Replace(ctx, pol.ID, *read, IfMatch(read.Version))
	if err != nil || replaced.Version != read.Version+1 || replaced.Description != read.Description {
		t.Fatalf("Replace = %+v, %v", replaced, err)
	}
	off, _, err := c.Policies.Patch(ctx, pol.ID, map[string]any{"enabled": false, "description": nil}, IfMatch(replaced.Version))
	if err != nil || off.Enabled == nil || *off.Enabled || off.Description != "" {
		t.Fatalf("Patch = %+v, %v", off, err)
	}
	var listed bool
	for got, err := range c.Policies.All(ctx, &PolicyListOptions{Kind: PolicyRequireOwner, Enabled: Ptr(false)}) {
		if err != nil {
			t.Fatal(err)
		}
		if got.Kind != PolicyRequireOwner || *got.Enabled {
			t.Errorf("listed %+v despite the filter", got)
		}
		listed = listed || got.ID == pol.ID
	}
	if !listed {
		t.Error("the disabled policy is not listed")
	}
	_, err = c.Policies.Delete(ctx, pol.ID, IfMatch(off.Version-1))
	apiError(t, err, ErrPreconditionFailed, "")
	if _, err := c.Policies.Delete(ctx, pol.ID, IfMatch(off.Version)); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Policies.Get(ctx, pol.ID)
	apiError(t, err, ErrNotFound, "")
}

func TestLivePolicyValidationNamesTheField(t *testing.T) {
	c, p := live(t)
	_, _, err := c.Policies.Create(ctx, Policy{Name: p + "bad", Kind: "no_such_kind"})
	if e := apiError(t, err, ErrValidation, "validation_error"); !slices.Contains(fields(e), "body.kind") {
		t.Errorf("field errors %v; want body.kind", fields(e))
	}
	_, _, err = c.Policies.Create(ctx, Policy{Name: p + "bad", Kind: PolicyTagPropagation})
	if e := apiError(t, err, ErrValidation, ""); !slices.Contains(fields(e), "body.params.tag") {
		t.Errorf("field errors %v; want body.params.tag", fields(e))
	}
	for pol, err := range c.Policies.All(ctx, nil) {
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(pol.Name, p) {
			t.Errorf("a refused policy was written: %+v", pol)
		}
	}
}

func TestLiveQualityRuleFailsAndKeepsHistory(t *testing.T) {
	c, p := live(t)
	orders := p + "orders"
	mustCreate(t, c, Asset{ID: orders, Name: "orders", Type: "table"})
	rule, _, err := c.Quality.CreateRule(ctx, QualityRule{
		AssetID: orders, Column: "order_id", Name: "order_id not null", Type: RuleNotNull, Severity: RuleSeverityError,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rule.ID, "qr_") || rule.Status != RuleStatusUnknown || rule.Version != 1 || rule.Origin != "api" {
		t.Errorf("created rule = %+v", rule)
	}

	now := time.Now()
	if _, _, err := c.Quality.RecordResult(ctx, rule.ID, ResultInput{Status: ResultPass, ObservedValue: 0, RunAt: now.Add(-2 * time.Minute)}); err != nil {
		t.Fatal(err)
	}
	failed, _, err := c.Quality.RecordResult(ctx, rule.ID, ResultInput{
		Status: ResultFail, ObservedValue: 3, Message: "3 null rows", RunAt: now.Add(-time.Minute),
	})
	if err != nil || failed.RuleID != rule.ID || failed.Status != ResultFail || failed.Source != "api" ||
		!failed.RunAt.Equal(now.Add(-time.Minute).Truncate(time.Millisecond)) {
		t.Fatalf("RecordResult = %+v, %v", failed, err)
	}
	got, _, err := c.Quality.GetRule(ctx, rule.ID)
	if err != nil || got.Status != RuleStatusFailing || got.LastResult == nil ||
		got.LastResult.ObservedValue != float64(3) || got.LastResult.Message != "3 null rows" {
		t.Fatalf("rule after a failure = %+v, %v", got, err)
	}
	history := collect(t, c.Quality.AllResults(ctx, rule.ID, &ListOptions{Limit: 1}))
	if len(history) != 2 || history[0].Status != ResultFail || history[1].Status != ResultPass {
		t.Errorf("history = %+v; want fail then pass, newest first", history)
	}

	failing := collect(t, c.Quality.AllRules(ctx, &RuleListOptions{AssetID: orders, Status: RuleStatusFailing, Type: RuleNotNull}))
	if len(failing) != 1 || failing[0].ID != rule.ID {
		t.Errorf("failing not_null rules of the asset = %+v", failing)
	}
	if none := collect(t, c.Quality.AllRules(ctx, &RuleListOptions{AssetID: orders, Status: RuleStatusPassing})); len(none) != 0 {
		t.Errorf("passing rules of the asset = %+v", none)
	}

	got.Params = map[string]any{"sql": "select count(*) from orders where order_id is null"}
	got.Type = RuleCustom
	_, _, err = c.Quality.ReplaceRule(ctx, rule.ID, *got, IfMatch(got.Version+1))
	apiError(t, err, ErrPreconditionFailed, "")
	replaced, _, err := c.Quality.ReplaceRule(ctx, rule.ID, *got, IfMatch(got.Version))
	if err != nil || replaced.Type != RuleCustom || replaced.Version != got.Version+1 || replaced.Status != RuleStatusFailing {
		t.Fatalf("ReplaceRule = %+v, %v; want the new type, the status kept", replaced, err)
	}
	patched, _, err := c.Quality.PatchRule(ctx, rule.ID, map[string]any{"severity": "warn", "column": nil})
	if err != nil || patched.Severity != RuleSeverityWarn || patched.Column != "" {
		t.Fatalf("PatchRule = %+v, %v", patched, err)
	}
	if _, err := c.Quality.DeleteRule(ctx, rule.ID, IfMatch(patched.Version)); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Quality.GetRule(ctx, rule.ID)
	apiError(t, err, ErrNotFound, "")

	_, _, err = c.Quality.CreateRule(ctx, QualityRule{AssetID: p + "missing", Name: "n", Type: RuleNotNull})
	if e := apiError(t, err, ErrValidation, ""); !slices.Contains(fields(e), "body.asset_id") {
		t.Errorf("field errors %v; want body.asset_id", fields(e))
	}
	_, _, err = c.Quality.RecordResult(ctx, "qr_"+strings.Repeat("0", 26), ResultInput{Status: ResultPass})
	apiError(t, err, ErrNotFound, "")
}

func TestLiveDbtRunResultsMarkRulesFailing(t *testing.T) {
	c, _ := live(t)
	manifest := repoFixture(t, "dbt_quality", "manifest.json")
	if _, _, err := c.Lineage.UploadManifestFile(ctx, manifest); err != nil {
		t.Fatalf("UploadManifestFile: %v", err)
	}
	// Other suites upload the same fixture into this database: delete its
	// rules (and so their histories), and let the manifest make them afresh.
	var deleted int
	for rule, err := range c.Quality.AllRules(ctx, &RuleListOptions{ListOptions: ListOptions{Limit: 200}}) {
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(rule.ID, "test.quality_shop.") {
			if _, err := c.Quality.DeleteRule(ctx, rule.ID); err != nil {
				t.Fatal(err)
			}
			deleted++
		}
	}
	sum, _, err := c.Lineage.UploadManifestFile(ctx, manifest)
	if err != nil || deleted == 0 || sum.QualityRules.Created != deleted {
		t.Fatalf("manifest again = %+v, %v; want %d rules created", sum, err, deleted)
	}

	run, _, err := c.Quality.UploadRunResultsFile(ctx, repoFixture(t, "dbt_quality", "run_results_failing.json"))
	if err != nil {
		t.Fatal(err)
	}
	const nullCustomer = "test.quality_shop.not_null_orders_customer_id.c5f02694af"
	if len(run.Failed) == 0 || !slices.Contains(run.Failed, nullCustomer) || run.Recorded == 0 || len(run.Unmatched) != 0 {
		t.Fatalf("run results = %+v; want %s among the failed", run, nullCustomer)
	}
	rule, _, err := c.Quality.GetRule(ctx, nullCustomer)
	if err != nil || rule.Status != RuleStatusFailing || rule.Origin != "dbt:quality_shop" ||
		rule.LastResult == nil || !strings.HasPrefix(rule.LastResult.Source, "dbt:") {
		t.Errorf("rule after the run = %+v, %v", rule, err)
	}
	again, _, err := c.Quality.UploadRunResultsFile(ctx, repoFixture(t, "dbt_quality", "run_results_failing.json"))
	if err != nil || again.Recorded != 0 || again.Duplicates != run.Recorded || len(again.Failed) != 0 {
		t.Errorf("the same run again = %+v, %v; want only duplicates", again, err)
	}
}

func TestLiveQueryPagesCountAndCypher(t *testing.T) {
	c, p := live(t)
	a, b, cc, d := p+"a", p+"b", p+"c", p+"d"
	for _, id := range []string{a, b, cc, d} {
		mustCreate(t, c, Asset{ID: id, Name: id, Type: "table"})
	}
	if _, _, err := c.Lineage.Bulk(ctx, []EdgeInput{{Source: a, Target: b}, {Source: b, Target: cc}, {Source: cc, Target: d}}); err != nil {
		t.Fatal(err)
	}
	down := Query{Start: &QueryStart{IDs: []string{a}}, Traverse: &Traverse{Direction: DirectionDownstream}, Limit: 1}

	var pages int
	var ids []string
	for page, err := range c.Query.Pages(ctx, down) {
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, n := range page.Nodes {
			ids = append(ids, n.ID)
		}
	}
	if pages != 3 || !slices.Equal(ids, []string{b, cc, d}) {
		t.Errorf("%d pages of %v; want 3 pages of b, c, d", pages, ids)
	}
	nodes := collect(t, c.Query.Nodes(ctx, down))
	if len(nodes) != 3 || nodes[2].ID != d || nodes[2].Distance != 3 {
		t.Errorf("Nodes = %+v", nodes)
	}

	count := down
	count.Return = ReturnCount
	n, _, err := c.Query.Run(ctx, count)
	if err != nil || n.Count != 3 || n.NextCursor != "" {
		t.Errorf("count = %+v, %v; want 3", n, err)
	}
	withStart := down
	withStart.Traverse = &Traverse{Direction: DirectionDownstream, MinDepth: Ptr(0), Where: &QueryFilter{IDPrefix: []string{p}}}
	if edges := collect(t, c.Query.Edges(ctx, withStart)); len(edges) != 3 || edges[0].Source != a {
		t.Errorf("Edges = %+v", edges)
	}
	paths := collect(t, c.Query.Paths(ctx, Query{Path: &PathQuery{From: a, To: d}}))
	if len(paths) != 1 || !slices.Equal(paths[0], []string{a, b, cc, d}) {
		t.Errorf("Paths = %v", paths)
	}

	_, _, err = c.Query.Run(ctx, Query{Start: &QueryStart{IDs: []string{a}}, Traverse: &Traverse{MaxDepth: 99}})
	if e := apiError(t, err, ErrValidation, "validation_error"); !slices.Contains(fields(e), "body.traverse.max_depth") {
		t.Errorf("field errors %v; want body.traverse.max_depth", fields(e))
	}

	res, _, err := c.Query.Cypher(ctx, "MATCH (x:Asset) WHERE x.id STARTS WITH $prefix RETURN x.id AS id ORDER BY id",
		map[string]any{"prefix": p}, 10)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Columns, []string{"id"}) || len(res.Rows) != 4 || res.Rows[0][0] != a || res.Truncated {
		t.Errorf("Cypher = %+v", res)
	}
	if recs := res.Records(); recs[3]["id"] != d {
		t.Errorf("Records = %v", recs)
	}
	cut, _, err := c.Query.Cypher(ctx, "MATCH (x:Asset) WHERE x.id STARTS WITH $prefix RETURN x.id AS id",
		map[string]any{"prefix": p}, 2)
	if err != nil || len(cut.Rows) != 2 || !cut.Truncated {
		t.Errorf("Cypher with limit 2 = %+v, %v", cut, err)
	}
	_, _, err = c.Query.Cypher(ctx, "MATCH (x:Asset {id: $id}) SET x.name = 'pwned'", map[string]any{"id": a}, 0)
	apiError(t, err, ErrValidation, "forbidden_query")
	if got, _, err := c.Assets.Get(ctx, a); err != nil || got.Name != a {
		t.Errorf("after a refused write: %+v, %v", got, err)
	}
}
