// Package governance is the Go client for the Data Governance Service API v1:
// assets, lineage, dbt manifests, policies, quality rules and dbt run results,
// the query facility, the event log and API tokens, plus [VerifyWebhook] for
// webhook deliveries.
//
// Create one [Client] and share it; it is safe for concurrent use.
//
//	client, err := governance.NewClient(
//		governance.WithBaseURL("http://localhost:8080"),
//		governance.WithToken(os.Getenv("GOVERNANCE_TOKEN")),
//	)
//	asset, err := client.Assets.Create(ctx, governance.Asset{
//		ID: "model.shop.orders", Name: "orders", Type: "model", Platform: "dbt",
//	})
//
// Every method takes a [context.Context] first. Failures the service reports
// are [*Error] values whose kind is checked with [errors.Is] against the
// sentinels ([ErrNotFound], [ErrConflict], [ErrValidation], ...); a request
// that got no answer fails with [*ConnectionError] ([ErrConnection],
// [ErrTimeout]). Collections are read page by page with List methods or all at
// once with iterators ([AssetsService.All]) that follow next_cursor.
//
// Requests that fail with a connection error, 429 or 5xx are retried with
// jittered exponential backoff that honours Retry-After. GET, PUT and DELETE
// are retried; POST is retried because the client gives every POST an
// Idempotency-Key (except token creation, which the service never replays);
// PATCH only when the caller sets [IdempotencyKey]. A 409 is never retried.
package governance
