package governance_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"time"

	governance "github.com/governance-service/governance/clients/go"
)

// The examples without an Output comment are compiled, not run: they need a
// service.
func Example() {
	ctx := context.Background()
	client, err := governance.NewClient(
		governance.WithBaseURL("http://localhost:8080"),
		governance.WithToken(os.Getenv("GOVERNANCE_TOKEN")),
	)
	if err != nil {
		log.Fatal(err)
	}
	orders, _, err := client.Assets.Create(ctx, governance.Asset{
		ID: "model.shop.orders", Name: "orders", Type: "model", Platform: "dbt",
	})
	if errors.Is(err, governance.ErrConflict) {
		orders, _, err = client.Assets.Get(ctx, "model.shop.orders")
	}
	if err != nil {
		log.Fatal(err)
	}
	_, _, err = client.Assets.Patch(ctx, orders.ID,
		map[string]any{"description": "one row per order"}, governance.IfMatch(orders.Version))
	if err != nil {
		log.Fatal(err)
	}
	edges := []governance.EdgeInput{{Source: "s3://lake/raw/orders.parquet", Target: orders.ID}}
	if _, err := client.Lineage.PushBulk(ctx, edges, 0); err != nil {
		log.Fatal(err)
	}
	graph, _, err := client.Lineage.Upstream(ctx, orders.ID, &governance.TraversalOptions{Depth: 3})
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range graph.Nodes {
		fmt.Println(n.Distance, n.ID)
	}
}

func ExampleAssetsService_All() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	for asset, err := range client.Assets.All(ctx, &governance.AssetListOptions{Tags: []string{"pii"}}) {
		if err != nil {
			var apiErr *governance.Error
			if errors.As(err, &apiErr) {
				log.Fatalf("%s (request %s)", apiErr.Code, apiErr.RequestID)
			}
			log.Fatal(err)
		}
		fmt.Println(asset.ID)
	}
}

func ExampleLineageService_GraphPages() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	shown := &governance.TraversalOptions{Limit: 500, Types: []string{"dashboard", "report"}, Fanout: 50}
	for page, err := range client.Lineage.GraphPages(ctx, "mart.revenue", governance.DirectionDownstream, shown) {
		if err != nil {
			log.Fatal(err)
		}
		for _, n := range page.Nodes {
			fmt.Println(n.Distance, n.ID)
		}
		for _, c := range page.Capped {
			fmt.Printf("%s: %d of %d neighbours shown\n", c.ID, c.Shown, c.Total)
		}
	}
}

func ExamplePoliciesService_Evaluate() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	policy, _, err := client.Policies.Create(ctx, governance.Policy{
		Name: "tables have owners", Kind: governance.PolicyRequireOwner, Severity: governance.SeverityHigh,
		Selector: governance.Selector{Type: governance.AnyOf{"table"}, Platform: governance.AnyOf{"snowflake"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	if _, _, err := client.Policies.Evaluate(ctx); err != nil {
		log.Fatal(err)
	}
	for v, err := range client.Policies.AllViolations(ctx, policy.ID, nil) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(v.AssetID, v.Reason)
	}
}

func ExampleQueryService_Nodes() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	// Every dashboard downstream of a table within 10 hops, 100 per request.
	q := governance.Query{
		Start: &governance.QueryStart{IDs: []string{"warehouse.orders"}},
		Traverse: &governance.Traverse{
			Direction: governance.DirectionDownstream, MaxDepth: 10,
			Where: &governance.QueryFilter{Type: []string{"dashboard"}},
		},
	}
	for n, err := range client.Query.Nodes(ctx, q) {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(n.Distance, n.ID)
	}
}

func ExampleNewClient() {
	client, err := governance.NewClient(
		governance.WithBaseURL("http://127.0.0.1:8080/"), // with or without /api/v1
		governance.WithToken("dgs_..."),
		governance.WithMaxRetries(4),
		governance.WithTimeout(30*time.Second),
	)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(client.BaseURL())
	// Output: http://127.0.0.1:8080/api/v1
}

// A webhook receiver checks each delivery before trusting it.
func ExampleVerifyWebhook() {
	secret := "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=" // from Webhooks.Create
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body) // the raw bytes, before any decoding
		if err != nil {
			http.Error(w, "unreadable", http.StatusBadRequest)
			return
		}
		ev, err := governance.VerifyWebhook(secret, r.Header, body)
		if errors.Is(err, governance.ErrWebhookVerification) {
			http.Error(w, "bad signature", http.StatusUnauthorized)
			return
		}
		fmt.Println("received", ev.Type, ev.Seq)
		w.WriteHeader(http.StatusNoContent)
	})

	// A delivery as the service signs it, and one tampered with.
	body := `{"id":"evt_1","seq":42,"type":"asset.created","occurred_at":"2026-01-02T03:04:05Z","actor":"token:tok_1","data":{}}`
	for _, sent := range []string{body, strings.Replace(body, "42", "43", 1)} {
		now := time.Now()
		signature, _ := governance.SignWebhook(secret, "evt_1", now, []byte(body))
		req := httptest.NewRequest(http.MethodPost, "/hooks/governance", strings.NewReader(sent))
		req.Header.Set("webhook-id", "evt_1")
		req.Header.Set("webhook-timestamp", fmt.Sprint(now.Unix()))
		req.Header.Set("webhook-signature", signature)
		rec := httptest.NewRecorder()
		handler.ServeHTTP(rec, req)
		fmt.Println(rec.Code)
	}
	// Output:
	// received asset.created 42
	// 204
	// 401
}

// Errors the service answers are *governance.Error values; errors.Is tells
// their kind.
func ExampleError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"type":"about:blank","title":"Not Found","status":404,"code":"asset_not_found",`+
			`"detail":"No asset warehouse.nope.","request_id":"req-1"}`)
	}))
	defer srv.Close()
	client, _ := governance.NewClient(governance.WithBaseURL(srv.URL))

	_, resp, err := client.Assets.Get(context.Background(), "warehouse.nope")
	var apiErr *governance.Error
	if errors.As(err, &apiErr) {
		fmt.Println(errors.Is(err, governance.ErrNotFound), apiErr.Code, apiErr.RequestID, resp.StatusCode)
	}
	// Output: true asset_not_found req-1 404
}

// Follow the event log live, resuming after the last event handled before
// (kept, say, in a database) so that no event is missed or handled twice.
func ExampleEventsService_Stream() {
	ctx, stop := context.WithTimeout(context.Background(), time.Hour)
	defer stop()
	client, _ := governance.NewClient()
	var lastHandled int64 = 1041 // 0 replays the whole log; nil After starts from now
	opts := &governance.StreamOptions{After: &lastHandled, Types: []string{"asset.*", "quality.rule.failed"}}
	for ev, err := range client.Events.Stream(ctx, opts) {
		if errors.Is(err, context.DeadlineExceeded) {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ev.Seq, ev.Type, string(ev.Data))
		lastHandled = ev.Seq
	}
}

// Subscribe first, then make the change: Subscribe returns once the service
// has subscribed the stream, so the change's event is sure to come.
func ExampleEventsService_Subscribe() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	sub, err := client.Events.Subscribe(ctx, &governance.StreamOptions{Types: []string{"asset.created"}})
	if err != nil {
		log.Fatal(err)
	}
	defer sub.Close()
	if _, _, err := client.Assets.Create(ctx, governance.Asset{ID: "warehouse.orders", Name: "orders", Type: "table"}); err != nil {
		log.Fatal(err)
	}
	for ev, err := range sub.Events() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(ev.Type, string(ev.Data))
		break
	}
}

// Put tells whether it created or replaced through the *Response beside the
// asset.
func ExampleAssetsService_Put() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	asset, resp, err := client.Assets.Put(ctx, "s3://lake/raw/orders.parquet",
		governance.Asset{Name: "orders.parquet", Type: "file", Platform: "s3"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Created(), resp.ETag(), asset.Version, resp.Rate.Remaining)
}

func ExampleLineageService_PushOpenLineage() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	complete := governance.RunEvent{
		EventType: governance.RunComplete, EventTime: time.Now(),
		Producer: "https://example.com/etl", SchemaURL: "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
		Run: governance.OpenLineageRun{RunID: "0190c5a4-8f5e-7d2a-b3a1-1c2d3e4f5a6b"},
		Job: governance.OpenLineageJob{Namespace: "etl", Name: "load_orders",
			Facets: map[string]any{"sql": governance.SQLJobFacet{Query: "insert into dw.orders select * from raw.orders"}}},
		Inputs: []governance.OpenLineageDataset{{Namespace: "postgres://db", Name: "raw.orders"}},
		Outputs: []governance.OpenLineageDataset{{Namespace: "postgres://db", Name: "dw.orders",
			Facets: map[string]any{"columnLineage": governance.ColumnLineageDatasetFacet{
				Fields: map[string]governance.ColumnLineageField{"email": {InputFields: []governance.InputField{
					{Namespace: "postgres://db", Name: "raw.orders", Field: "email"}}}},
			}}}},
	}
	// Any number of events: sent in requests the service accepts.
	sum, err := client.Lineage.PushOpenLineage(ctx, []governance.RunEvent{complete}, 0)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(sum.Edges.Created, sum.ColumnMappings.Created, sum.Warnings)
}

// An edge may name a physical dataset instead of an asset id; the asset that
// later claims the dataset takes the placeholder over.
func ExampleEdgeInput() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	raw := &governance.Dataset{Namespace: "snowflake://acme-prod", Name: "raw.public.orders"}
	edge, _, err := client.Lineage.Create(ctx, governance.EdgeInput{SourceDataset: raw, Target: "report.orders"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(edge.Source) // the placeholder: snowflake://acme-prod/RAW.PUBLIC.ORDERS
	orders, _, err := client.Assets.Create(ctx, governance.Asset{
		ID: "warehouse.raw_orders", Name: "orders", Type: "table", Dataset: raw,
	})
	var apiErr *governance.Error
	if errors.As(err, &apiErr) && apiErr.Code == "dataset_taken" {
		log.Fatalf("another asset holds the table: %s", apiErr.Extensions["holder"])
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(orders.Aliases) // [snowflake://acme-prod/RAW.PUBLIC.ORDERS]
}

// A query log becomes table and column lineage between the assets holding
// its tables; statements that do not parse are listed, not written.
func ExampleLineageService_IngestSQL() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	res, _, err := client.Lineage.IngestSQL(ctx, governance.SQLRequest{
		Dialect: "postgres", Namespace: "postgres://db", Source: "nightly",
		Statements: []governance.SQLStatement{
			{SQL: "insert into mart.revenue select customer_id, sum(amount) as revenue from raw.orders group by 1", QueryID: "q1"},
			{SQL: "select broken from", QueryID: "q2"},
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res.Origin, res.Edges.Created, res.ColumnMappings.Created)
	for _, f := range res.Failures {
		fmt.Println(f.Index, f.QueryID, f.Message)
	}
}
