// Package governance is the Go client for the Data Governance Service API v1:
// assets, lineage and column lineage across tools (one asset per physical
// [Dataset]), dbt manifests, OpenLineage events and SQL, lineage as it stood
// at any moment and the change impact of a candidate manifest, policies,
// quality rules and dbt run results, the query facility, the event log and its live
// stream, webhooks, API tokens and users, plus [VerifyWebhook] for the
// receiving end of webhook deliveries.
//
// Its import path is github.com/governance-service/governance/clients/go;
// the package name is governance.
//
// Create one [Client] and share it; it is safe for concurrent use.
//
//	client, err := governance.NewClient(
//		governance.WithBaseURL("http://127.0.0.1:8080"),
//		governance.WithToken(os.Getenv("GOVERNANCE_TOKEN")),
//	)
//	asset, resp, err := client.Assets.Create(ctx, governance.Asset{
//		ID: "model.shop.orders", Name: "orders", Type: "model", Platform: "dbt",
//	})
//
// Every method takes a [context.Context] first and [RequestOption] values
// last ([Timeout], [IdempotencyKey], [Header], [RequestID], [MaxRetries],
// [IfMatch], ...). Besides its value it returns the [*Response] the service
// answered, for the status and headers: [Response.Created], [Response.ETag],
// the rate-limit budget in [Response.Rate].
//
// Failures the service reports are [*Error] values whose kind is checked
// with [errors.Is] against the sentinels ([ErrNotFound], [ErrConflict],
// [ErrValidation], ...); a request that got no answer fails with
// [*ConnectionError] ([ErrConnection], [ErrTimeout]). Collections are read
// page by page with List methods ([AssetsService.List],
// [LineageService.ListEdges]) or all at once with the matching All
// iterators ([AssetsService.All], [LineageService.AllEdges]) that follow
// next_cursor; lineage traversals page the same way, one [Graph] per page,
// with [LineageService.GraphPages]. [EventsService.Subscribe] and
// [EventsService.Stream] follow the event log live, resuming after a dropped
// connection.
//
// Each attempt is bounded by [DefaultTimeout] (uploads of dbt artifacts by
// [ManifestTimeout]). Attempts that fail with a connection error, a timeout,
// 408, 429 or 5xx are retried up to [DefaultMaxRetries] times, after the
// Retry-After the service gave (at most a minute) or else a fully jittered
// exponential backoff from 0.5 s up to 8 s. GET, PUT and DELETE are retried,
// and so are the POSTs a repeat cannot harm, without an Idempotency-Key:
// queries and manifest impact checks (which only read), bulk edges and
// OpenLineage events (which the service merges). Other POSTs are retried
// because the client gives each one an Idempotency-Key (except token and
// webhook creation, whose secret the service never keeps for a replay);
// PATCH only when the caller sets [IdempotencyKey]. A 409 is never retried.
package governance
