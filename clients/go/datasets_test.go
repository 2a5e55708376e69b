package governance

// Unit tests of cross-tool lineage: datasets on assets and as edge ends, the
// dataset filters, the manifest's namespace and SQL ingestion, against local
// fake servers. No service needed.

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestAssetsSendAndReadTheirDataset(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/api/v1/assets" {
			writeJSON(w, 200, map[string]any{"items": []any{}, "next_cursor": nil})
			return
		}
		writeJSON(w, 201, map[string]any{
			"id": "warehouse.orders", "name": "orders", "type": "table", "version": 2,
			"dataset": map[string]string{"namespace": "snowflake://acme-prod", "name": "RAW.PUBLIC.ORDERS"},
			"aliases": []string{"snowflake://acme-prod/RAW.PUBLIC.ORDERS"},
		})
	})
	sent := Dataset{Namespace: "snowflake://ACME-prod", Name: "raw.public.orders"}
	a, _, err := c.Assets.Create(ctx, Asset{ID: "warehouse.orders", Name: "orders", Type: "table", Dataset: &sent})
	if err != nil {
		t.Fatal(err)
	}
	if *a.Dataset != (Dataset{Namespace: "snowflake://acme-prod", Name: "RAW.PUBLIC.ORDERS"}) ||
		!slices.Equal(a.Aliases, []string{"snowflake://acme-prod/RAW.PUBLIC.ORDERS"}) {
		t.Errorf("created = %+v", a)
	}
	// What Get gave back goes back with Put: the dataset is sent, the aliases
	// too (the service ignores them).
	if _, _, err := c.Assets.Put(ctx, a.ID, *a); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Assets.Put(ctx, "plain", Asset{Name: "plain", Type: "table"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Assets.Patch(ctx, a.ID, map[string]any{"dataset": nil}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Assets.List(ctx, &AssetListOptions{DatasetNamespace: "snowflake://acme-prod", DatasetName: "raw.public.orders"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Assets.List(ctx, &AssetListOptions{DatasetNamespace: "postgres://db"}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`{"id":"warehouse.orders","name":"orders","type":"table","dataset":{"namespace":"snowflake://ACME-prod","name":"raw.public.orders"}}`,
		`"dataset":{"namespace":"snowflake://acme-prod","name":"RAW.PUBLIC.ORDERS"},"aliases":["snowflake://acme-prod/RAW.PUBLIC.ORDERS"]`,
		`{"name":"plain","type":"table"}`,
		`{"dataset":null}`,
	}
	for i, w := range want {
		if !strings.Contains(f.bodies[i], w) {
			t.Errorf("body %d = %s; want it to hold %s", i, f.bodies[i], w)
		}
	}
	queries := []string{f.requests[4].URL.RawQuery, f.requests[5].URL.RawQuery}
	if queries[0] != "dataset_name=raw.public.orders&dataset_namespace=snowflake%3A%2F%2Facme-prod" ||
		queries[1] != "dataset_namespace=postgres%3A%2F%2Fdb" {
		t.Errorf("list queries = %q", queries)
	}
}

func TestDatasetTakenIsAConflictNamingTheHolder(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 409, "dataset_taken", map[string]any{
			"holder":  "warehouse.orders",
			"dataset": map[string]string{"namespace": "snowflake://acme-prod", "name": "RAW.PUBLIC.ORDERS"},
		})
	})
	_, _, err := c.Assets.Create(ctx, Asset{ID: "other.orders", Name: "orders", Type: "table",
		Dataset: &Dataset{Namespace: "snowflake://acme-prod", Name: "raw.public.orders"}})
	var apiErr *Error
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrConflict) || apiErr.Code != "dataset_taken" {
		t.Fatalf("err = %v; want a conflict, code dataset_taken", err)
	}
	var holder string
	if err := json.Unmarshal(apiErr.Extensions["holder"], &holder); err != nil || holder != "warehouse.orders" {
		t.Errorf("holder = %q, %v", holder, err)
	}
	if f.count() != 1 {
		t.Errorf("%d requests; a 409 is never retried", f.count())
	}
}

func TestEdgeEndsMayBeDatasets(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/api/v1/lineage" {
			writeJSON(w, 201, map[string]any{"source": "snowflake://acme-prod/RAW.PUBLIC.ORDERS", "target": "report.orders"})
			return
		}
		var edges []EdgeInput
		if err := json.NewDecoder(r.Body).Decode(&edges); err != nil {
			writeProblem(w, 422, "validation_error", nil)
			return
		}
		writeJSON(w, 200, map[string]int{"received": len(edges), "created": len(edges), "assets_created": 1})
	})
	raw := &Dataset{Namespace: "snowflake://acme-prod", Name: "raw.public.orders"}
	e, resp, err := c.Lineage.Create(ctx, EdgeInput{SourceDataset: raw, Target: "report.orders", Transformation: "select 1"})
	if err != nil || !resp.Created() || e.Source != "snowflake://acme-prod/RAW.PUBLIC.ORDERS" {
		t.Fatalf("Create = %+v, %v", e, err)
	}
	want := `{"source":{"namespace":"snowflake://acme-prod","name":"raw.public.orders"},"target":"report.orders","transformation":"select 1"}`
	if f.bodies[0] != want {
		t.Errorf("edge body = %s; want %s", f.bodies[0], want)
	}

	// The chunking helper sends dataset ends too.
	edges := []EdgeInput{
		{SourceDataset: raw, Target: "a"},
		{Source: "a", TargetDataset: &Dataset{Namespace: "postgres://db", Name: "mart.revenue"}},
		{SourceDataset: raw, TargetDataset: &Dataset{Namespace: "s3://lake", Name: "raw/events"},
			Columns: []ColumnMappingInput{{Source: "id", Target: "id"}}},
	}
	r, err := c.Lineage.PushBulk(ctx, edges, 2)
	if err != nil || *r != (BulkResult{Received: 3, Created: 3, AssetsCreated: 2}) {
		t.Fatalf("PushBulk = %+v, %v", r, err)
	}
	var sent []EdgeInput
	for _, body := range f.bodies[1:] {
		var chunk []EdgeInput
		if err := json.Unmarshal([]byte(body), &chunk); err != nil {
			t.Fatalf("chunk %s: %v", body, err)
		}
		sent = append(sent, chunk...)
	}
	if !reflect.DeepEqual(sent, edges) {
		t.Errorf("sent %+v; want %+v", sent, edges)
	}
	if !strings.Contains(f.bodies[1], `"target":"a"},{"source":"a","target":{"namespace":"postgres://db","name":"mart.revenue"}}`) {
		t.Errorf("first chunk = %s", f.bodies[1])
	}

	// An end given both ways is refused before any request.
	before := f.count()
	_, _, err = c.Lineage.Create(ctx, EdgeInput{Source: "x", SourceDataset: raw, Target: "y"})
	if err == nil || !strings.Contains(err.Error(), "source") || f.count() != before {
		t.Errorf("both ends: %v after %d requests", err, f.count()-before)
	}
	_, _, err = c.Lineage.Bulk(ctx, []EdgeInput{{Source: "x", Target: "y", TargetDataset: raw}})
	if err == nil || !strings.Contains(err.Error(), "target") || f.count() != before {
		t.Errorf("both ends in bulk: %v after %d requests", err, f.count()-before)
	}
}

func TestEdgeInputReadsEitherKindOfEnd(t *testing.T) {
	var e EdgeInput
	err := json.Unmarshal([]byte(`{"source":{"namespace":"s3://lake","name":"raw/events"},"target":"report","columns":[{"source":"id","target":"id"}]}`), &e)
	if err != nil || e.Source != "" || *e.SourceDataset != (Dataset{Namespace: "s3://lake", Name: "raw/events"}) ||
		e.Target != "report" || e.TargetDataset != nil || len(e.Columns) != 1 {
		t.Errorf("decoded %+v, %v", e, err)
	}
	if err := json.Unmarshal([]byte(`{"source":7,"target":"b"}`), &e); err == nil || !strings.Contains(err.Error(), "source") {
		t.Errorf("a number as source: %v", err)
	}
}

func TestManifestNamespaceOptionAndMergedCount(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"project": "shop", "assets": map[string]any{"created": 3, "updated": 1, "merged": 2}})
	})
	got, _, err := c.Lineage.UploadManifest(ctx, []byte(`{"nodes":{}}`), Namespace("snowflake://acme-prod"), Project("shop"))
	if err != nil || got.Assets.Merged != 2 || got.Assets.Created != 3 {
		t.Fatalf("UploadManifest = %+v, %v", got, err)
	}
	if q := f.requests[0].URL.RawQuery; q != "namespace=snowflake%3A%2F%2Facme-prod&project=shop" {
		t.Errorf("query = %q", q)
	}
}

func TestIngestSQLSendsAScriptOrAQueryLog(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 3 {
			writeProblem(w, 422, "validation_error", map[string]any{
				"errors": []any{map[string]any{"loc": []any{"body", "dialect"}, "msg": "unknown dialect", "type": "unknown_dialect"}},
			})
			return
		}
		writeJSON(w, 200, map[string]any{
			"origin":          "sql:nightly",
			"statements":      map[string]int{"received": 2, "with_lineage": 1, "without_lineage": 0, "failed": 1},
			"edges":           map[string]int{"created": 1, "existing": 0},
			"column_mappings": map[string]int{"created": 2, "existing": 0},
			"assets_created":  2,
			"failures":        []any{map[string]any{"index": 1, "message": "Expected table name", "query_id": "q2"}},
			"warnings":        []string{},
		})
	})
	res, _, err := c.Lineage.IngestSQL(ctx, SQLRequest{
		Dialect: "postgres", Namespace: "postgres://db", Source: "nightly",
		Statements: []SQLStatement{
			{SQL: "insert into mart.revenue select customer_id, sum(amount) from raw.orders group by 1", QueryID: "q1", User: "etl", Timestamp: "2026-01-02T03:04:05Z"},
			{SQL: "select broken from", QueryID: "q2"},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := SQLResult{
		Origin:     "sql:nightly",
		Statements: SQLStatementCounts{Received: 2, WithLineage: 1, Failed: 1},
		Edges:      Counts{Created: 1}, ColumnMappings: Counts{Created: 2}, AssetsCreated: 2,
		Failures: []SQLFailure{{Index: 1, Message: "Expected table name", QueryID: "q2"}}, Warnings: []string{},
	}
	if fmt.Sprintf("%+v", *res) != fmt.Sprintf("%+v", want) {
		t.Errorf("result = %+v; want %+v", *res, want)
	}
	if _, _, err := c.Lineage.IngestSQL(ctx, SQLRequest{Dialect: "snowflake", Namespace: "snowflake://acme-prod",
		DefaultDatabase: "ANALYTICS", DefaultSchema: "PUBLIC", SQL: "create table a as select * from b; select 1"}); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Lineage.IngestSQL(ctx, SQLRequest{Dialect: "klingon", Namespace: "x://y", SQL: "select 1"})
	var apiErr *Error
	if !errors.As(err, &apiErr) || !errors.Is(err, ErrValidation) || apiErr.FieldErrors[0].Field() != "body.dialect" {
		t.Errorf("unknown dialect: %v", err)
	}
	bodies := []string{
		`{"dialect":"postgres","namespace":"postgres://db","source":"nightly","statements":[` +
			`{"sql":"insert into mart.revenue select customer_id, sum(amount) from raw.orders group by 1","query_id":"q1","user":"etl","timestamp":"2026-01-02T03:04:05Z"},` +
			`{"sql":"select broken from","query_id":"q2"}]}`,
		`{"dialect":"snowflake","namespace":"snowflake://acme-prod","default_database":"ANALYTICS","default_schema":"PUBLIC","sql":"create table a as select * from b; select 1"}`,
	}
	for i, want := range bodies {
		r := f.requests[i]
		if r.Method != "POST" || r.URL.Path != "/api/v1/lineage/sql" || r.Header.Get("Idempotency-Key") == "" || f.bodies[i] != want {
			t.Errorf("request %d: %s %s key %q body %s", i, r.Method, r.URL.Path, r.Header.Get("Idempotency-Key"), f.bodies[i])
		}
	}
}
