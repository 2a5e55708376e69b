package governance

import (
	"context"
	"encoding/json"
	"net/http"
)

// ServiceInfo is the answer of GET /api/v1.
type ServiceInfo struct {
	Service    string `json:"service"`
	Version    string `json:"version"`
	APIVersion string `json:"api_version"`
}

// Health is the answer of the health and readiness probes.
type Health struct {
	// Status is "ok" for [Client.Health], "ready" for [Client.Ready].
	Status string `json:"status"`
}

// Info returns the service's name and version (needs no token).
func (c *Client) Info(ctx context.Context, opts ...RequestOption) (*ServiceInfo, *Response, error) {
	return sendFor[ServiceInfo](ctx, c, call{method: http.MethodGet, opts: opts})
}

// OpenAPI returns the service's OpenAPI 3.1 document (needs no token).
func (c *Client) OpenAPI(ctx context.Context, opts ...RequestOption) (json.RawMessage, *Response, error) {
	var doc json.RawMessage
	resp, err := c.send(ctx, call{method: http.MethodGet, path: "/openapi.json", out: &doc, opts: opts})
	if err != nil {
		return nil, resp, err
	}
	return doc, resp, nil
}

// Health asks whether the service process is up (GET /healthz, beside
// /api/v1 at the service's root; needs no token).
func (c *Client) Health(ctx context.Context, opts ...RequestOption) (*Health, *Response, error) {
	return sendFor[Health](ctx, c, call{method: http.MethodGet, root: true, path: "/healthz", opts: opts})
}

// Ready asks whether the service can serve: Neo4j reachable and the schema
// applied (GET /readyz; needs no token). When it is not, the error is
// [ErrUnavailable]; the call is retried like any GET first, so pass
// MaxRetries(0) to learn the state at once.
func (c *Client) Ready(ctx context.Context, opts ...RequestOption) (*Health, *Response, error) {
	return sendFor[Health](ctx, c, call{method: http.MethodGet, root: true, path: "/readyz", opts: opts})
}

// Metrics returns the service's Prometheus metrics in the text exposition
// format (GET /metrics).
func (c *Client) Metrics(ctx context.Context, opts ...RequestOption) ([]byte, *Response, error) {
	var text []byte
	k := call{method: http.MethodGet, root: true, path: "/metrics", accept: "text/plain", out: &text, opts: opts}
	resp, err := c.send(ctx, k)
	if err != nil {
		return nil, resp, err
	}
	return text, resp, nil
}
