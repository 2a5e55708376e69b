package governance_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"

	governance "github.com/governance-service/governance-go"
)

// Compiled, not run: it needs a service.
func Example() {
	ctx := context.Background()
	client, err := governance.NewClient(
		governance.WithBaseURL("http://localhost:8080"),
		governance.WithToken(os.Getenv("GOVERNANCE_TOKEN")),
	)
	if err != nil {
		log.Fatal(err)
	}
	orders, err := client.Assets.Create(ctx, governance.Asset{
		ID: "model.shop.orders", Name: "orders", Type: "model", Platform: "dbt",
	})
	if errors.Is(err, governance.ErrConflict) {
		orders, err = client.Assets.Get(ctx, "model.shop.orders")
	}
	if err != nil {
		log.Fatal(err)
	}
	_, err = client.Assets.Patch(ctx, orders.ID,
		map[string]any{"description": "one row per order"}, governance.IfMatch(orders.Version))
	if err != nil {
		log.Fatal(err)
	}
	edges := []governance.EdgeInput{{Source: "s3://lake/raw/orders.parquet", Target: orders.ID}}
	if _, err := client.Lineage.PushBulk(ctx, edges, 0); err != nil {
		log.Fatal(err)
	}
	graph, err := client.Lineage.Upstream(ctx, orders.ID, &governance.TraversalOptions{Depth: 3})
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

func ExamplePoliciesService_Evaluate() {
	ctx := context.Background()
	client, _ := governance.NewClient()
	policy, err := client.Policies.Create(ctx, governance.Policy{
		Name: "tables have owners", Kind: governance.PolicyRequireOwner, Severity: governance.SeverityHigh,
		Selector: governance.Selector{Type: governance.AnyOf{"table"}, Platform: governance.AnyOf{"snowflake"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	if _, err := client.Policies.Evaluate(ctx); err != nil {
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
