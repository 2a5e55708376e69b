//go:build live

package governance

// Cross-tool lineage against a running service: assets holding datasets,
// edges naming datasets, merges and aliases, SQL ingestion and a manifest
// with a namespace. Each test names its datasets in a namespace of its own.

import (
	crand "crypto/rand"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// namespace is a dataset namespace unique to the test: scheme:// and the
// test's prefix, lower-cased.
func namespace(scheme, p string) string {
	return scheme + "://" + strings.ToLower(strings.Trim(p, "-"))
}

// holders lists the assets holding a dataset of the namespace (with name,
// the one holding that dataset).
func holders(t *testing.T, c *Client, namespace, name string) []string {
	t.Helper()
	var ids []string
	for a, err := range c.Assets.All(ctx, &AssetListOptions{DatasetNamespace: namespace, DatasetName: name}) {
		if err != nil {
			t.Fatalf("listing the holders of %s %s: %v", namespace, name, err)
		}
		ids = append(ids, a.ID)
	}
	return ids
}

func TestLiveAssetDatasetIsFoundByAnySpelling(t *testing.T) {
	c, p := live(t)
	ns := namespace("snowflake", p)
	id := p + "orders"
	created := mustCreate(t, c, Asset{ID: id, Name: "orders", Type: "table",
		Dataset: &Dataset{Namespace: strings.ToUpper(ns), Name: "analytics.public.orders"}})
	if created.Dataset == nil || *created.Dataset != (Dataset{Namespace: ns, Name: "ANALYTICS.PUBLIC.ORDERS"}) ||
		len(created.Aliases) != 0 {
		t.Fatalf("created = %+v; want the dataset normalised, no aliases", created)
	}
	mustCreate(t, c, Asset{ID: p + "customers", Name: "customers", Type: "table",
		Dataset: &Dataset{Namespace: ns, Name: "ANALYTICS.PUBLIC.CUSTOMERS"}})

	if got := holders(t, c, ns, "analytics.public.orders"); !slices.Equal(got, []string{id}) {
		t.Errorf("holder of the lower-case spelling = %v; want [%s]", got, id)
	}
	if got := holders(t, c, "SNOWFLAKE://"+strings.TrimPrefix(ns, "snowflake://"), `ANALYTICS."PUBLIC".ORDERS`); !slices.Equal(got, []string{id}) {
		t.Errorf("holder of a quoted spelling = %v; want [%s]", got, id)
	}
	if got := holders(t, c, ns, ""); !slices.Equal(got, []string{p + "customers", id}) {
		t.Errorf("the namespace lists %v", got)
	}
	if got := holders(t, c, ns, "analytics.public.nothing"); len(got) != 0 {
		t.Errorf("holder of a dataset nobody holds = %v", got)
	}
	_, _, err := c.Assets.List(ctx, &AssetListOptions{DatasetName: "x"})
	apiError(t, err, ErrValidation, "")

	// A Put of what Get read keeps the dataset; a patch to null lets it go.
	got, _, err := c.Assets.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	got.Description = "all orders"
	if put, _, err := c.Assets.Put(ctx, id, *got); err != nil || put.Dataset == nil || *put.Dataset != *created.Dataset {
		t.Errorf("Put = %+v, %v; want the dataset kept", put, err)
	}
	patched, _, err := c.Assets.Patch(ctx, id, map[string]any{"dataset": nil})
	if err != nil || patched.Dataset != nil {
		t.Fatalf("Patch dataset null = %+v, %v", patched, err)
	}
	if got := holders(t, c, ns, "ANALYTICS.PUBLIC.ORDERS"); len(got) != 0 {
		t.Errorf("holder after the patch = %v; want none", got)
	}
	patched, _, err = c.Assets.Patch(ctx, id, map[string]any{"dataset": Dataset{Namespace: ns, Name: "analytics.public.orders"}})
	if err != nil || patched.Dataset == nil || patched.Dataset.Name != "ANALYTICS.PUBLIC.ORDERS" {
		t.Errorf("Patch dataset = %+v, %v", patched, err)
	}
}

func TestLiveEdgeByDatasetThenClaimedBecomesAnAlias(t *testing.T) {
	c, p := live(t)
	ns := namespace("snowflake", p)
	raw := &Dataset{Namespace: ns, Name: "raw.public.orders"}
	placeholder := ns + "/RAW.PUBLIC.ORDERS"
	report, id := p+"report", p+"orders"
	cleanup(t, c, report, id)

	_, _, err := c.Lineage.Create(ctx, EdgeInput{SourceDataset: raw, Target: report}, Strict())
	apiError(t, err, ErrValidation, "unknown_assets")

	e, resp, err := c.Lineage.Create(ctx, EdgeInput{SourceDataset: raw, Target: report})
	if err != nil || !resp.Created() || e.Source != placeholder || e.Target != report {
		t.Fatalf("Create edge from a dataset = %+v, %v", e, err)
	}
	// The same dataset spelled otherwise, through the chunking helper.
	again := &Dataset{Namespace: strings.ToUpper(ns), Name: `RAW."PUBLIC".orders`}
	r, err := c.Lineage.PushBulk(ctx, []EdgeInput{{SourceDataset: again, Target: report}}, 0)
	if err != nil || *r != (BulkResult{Received: 1, Existing: 1}) {
		t.Fatalf("PushBulk with another spelling = %+v, %v", r, err)
	}
	if a, _, err := c.Assets.Get(ctx, placeholder); err != nil || !a.Placeholder || a.Dataset == nil ||
		*a.Dataset != (Dataset{Namespace: ns, Name: "RAW.PUBLIC.ORDERS"}) {
		t.Fatalf("placeholder = %+v, %v", a, err)
	}

	claimed, _, err := c.Assets.Create(ctx, Asset{ID: id, Name: "orders", Type: "table", Dataset: raw})
	if err != nil {
		t.Fatalf("claiming the dataset: %v", err)
	}
	if !slices.Equal(claimed.Aliases, []string{placeholder}) || claimed.Placeholder {
		t.Errorf("claimed = %+v; want the placeholder's id as its alias", claimed)
	}
	// The former id names the asset that took it over.
	byAlias, _, err := c.Assets.Get(ctx, placeholder)
	if err != nil || byAlias.ID != id || !slices.Equal(byAlias.Aliases, []string{placeholder}) {
		t.Errorf("Get(%q) = %+v, %v; want %s", placeholder, byAlias, err, id)
	}
	page, _, err := c.Lineage.ListEdges(ctx, &EdgeListOptions{Target: report})
	if err != nil || len(page.Items) != 1 || page.Items[0].Source != id {
		t.Errorf("edges into the report = %+v, %v; want one from %s", page, err, id)
	}
	if g, _, err := c.Lineage.Upstream(ctx, report, nil); err != nil || g.Node(id) == nil {
		t.Errorf("upstream of the report = %+v, %v", g, err)
	}

	// A second explicit asset may not hold it.
	_, _, err = c.Assets.Create(ctx, Asset{ID: p + "other", Name: "orders", Type: "table",
		Dataset: &Dataset{Namespace: ns, Name: "RAW.PUBLIC.ORDERS"}})
	e409 := apiError(t, err, ErrConflict, "dataset_taken")
	var holder string
	if err := json.Unmarshal(e409.Extensions["holder"], &holder); err != nil || holder != id {
		t.Errorf("holder = %q, %v; want %s", holder, err, id)
	}
	_, _, err = c.Assets.Get(ctx, p+"other")
	apiError(t, err, ErrNotFound, "")

	// The merge is in the event log.
	found := false
	for ev, err := range c.Events.All(ctx, &EventListOptions{Types: []string{"asset.merged"}, ListOptions: ListOptions{Limit: 500}}) {
		if err != nil {
			t.Fatal(err)
		}
		var d struct{ From, Into string }
		if err := json.Unmarshal(ev.Data, &d); err != nil {
			t.Fatalf("asset.merged data %s: %v", ev.Data, err)
		}
		found = found || d.From == placeholder && d.Into == id
	}
	if !found {
		t.Errorf("no asset.merged event from %s into %s", placeholder, id)
	}
}

func TestLiveSQLIngestion(t *testing.T) {
	c, p := live(t)
	ns := namespace("postgres", p)
	log := SQLRequest{Dialect: "postgres", Namespace: ns, Statements: []SQLStatement{
		{SQL: "insert into mart.revenue select customer_id, sum(amount) as revenue from raw.orders group by 1", QueryID: "q1"},
		{SQL: "select broken from", QueryID: "q2"},
	}}
	res, _, err := c.Lineage.IngestSQL(ctx, log)
	if err != nil {
		t.Fatalf("IngestSQL: %v", err)
	}
	source, target := holders(t, c, ns, "raw.orders"), holders(t, c, ns, "MART.REVENUE")
	cleanup(t, c, append(source, target...)...)
	if res.Origin != "sql:api" || res.Statements != (SQLStatementCounts{Received: 2, WithLineage: 1, Failed: 1}) ||
		res.Edges != (Counts{Created: 1}) || res.AssetsCreated != 2 || res.ColumnMappings.Created == 0 {
		t.Errorf("result = %+v", res)
	}
	if len(res.Failures) != 1 || res.Failures[0].Index != 1 || res.Failures[0].QueryID != "q2" || res.Failures[0].Message == "" {
		t.Errorf("failures = %+v; want statement 1", res.Failures)
	}
	if len(source) != 1 || len(target) != 1 {
		t.Fatalf("holders of raw.orders %v, of mart.revenue %v; want one each", source, target)
	}
	page, _, err := c.Lineage.ListEdges(ctx, &EdgeListOptions{Source: source[0], Target: target[0]})
	if err != nil || len(page.Items) != 1 || !slices.Contains(page.Items[0].Origins, "sql:api") ||
		!strings.HasPrefix(page.Items[0].Transformation, "insert into mart.revenue") {
		t.Errorf("the edge = %+v, %v", page, err)
	}

	// A script under its own source: the same edge, now asserted by two writers.
	script, _, err := c.Lineage.IngestSQL(ctx, SQLRequest{Dialect: "postgres", Namespace: ns, Source: "nightly",
		DefaultSchema: "mart", SQL: "insert into revenue select customer_id, sum(amount) as revenue from raw.orders group by 1; select 1"})
	if err != nil || script.Origin != "sql:nightly" || script.Statements.WithLineage != 1 ||
		script.Statements.WithoutLineage != 1 || script.Edges != (Counts{Existing: 1}) || len(script.Failures) != 0 {
		t.Errorf("script = %+v, %v", script, err)
	}

	_, _, err = c.Lineage.IngestSQL(ctx, SQLRequest{Dialect: "no-such-dialect", Namespace: ns,
		Statements: []SQLStatement{{SQL: "select 1"}}})
	if e := apiError(t, err, ErrValidation, ""); len(e.FieldErrors) == 0 || e.FieldErrors[0].Field() != "body.dialect" {
		t.Errorf("unknown dialect: fields %+v; want body.dialect", e.FieldErrors)
	}
	both := log
	both.SQL = "select 1"
	_, _, err = c.Lineage.IngestSQL(ctx, both)
	apiError(t, err, ErrValidation, "")
	_, _, err = c.Lineage.IngestSQL(ctx, SQLRequest{Dialect: "postgres", Namespace: ns})
	apiError(t, err, ErrValidation, "")
}

func TestLiveManifestNamespaceMergesAPlaceholder(t *testing.T) {
	c, p := live(t)
	ns := namespace("duckdb", p)
	const model = "model.corner_shop.orders" // corner_shop.main_marts.orders in the fixture
	board := p + "board"
	cleanup(t, c, board)
	e, _, err := c.Lineage.Create(ctx, EdgeInput{
		SourceDataset: &Dataset{Namespace: ns, Name: "Corner_Shop.Main_Marts.Orders"}, Target: board,
	})
	placeholder := ns + "/corner_shop.main_marts.orders"
	if err != nil || e.Source != placeholder {
		t.Fatalf("edge from the table = %+v, %v", e, err)
	}

	sum, _, err := c.Lineage.UploadManifestFile(ctx, manifestFixture(t), Namespace(ns), Project("go-"+crand.Text()[:12]))
	if err != nil {
		t.Fatalf("UploadManifestFile with a namespace: %v", err)
	}
	if sum.Assets.Merged != 1 {
		t.Errorf("summary = %+v; want the placeholder merged", sum)
	}
	got, _, err := c.Assets.Get(ctx, placeholder)
	if err != nil || got.ID != model || !slices.Contains(got.Aliases, placeholder) || got.Dataset == nil ||
		*got.Dataset != (Dataset{Namespace: ns, Name: "corner_shop.main_marts.orders"}) {
		t.Errorf("Get(%q) = %+v, %v; want %s holding the table", placeholder, got, err, model)
	}
	if ids := holders(t, c, ns, "CORNER_SHOP.MAIN_MARTS.ORDERS"); !slices.Equal(ids, []string{model}) {
		t.Errorf("holder of the table = %v; want [%s]", ids, model)
	}
	page, _, err := c.Lineage.ListEdges(ctx, &EdgeListOptions{Target: board})
	if err != nil || len(page.Items) != 1 || page.Items[0].Source != model {
		t.Errorf("edges into the board = %+v, %v; want one from %s", page, err, model)
	}
}
