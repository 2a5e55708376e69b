package governance

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Event is one entry of the event log, as listed and streamed by
// [EventsService] and as delivered to webhooks (see [VerifyWebhook]).
type Event struct {
	ID string `json:"id"`
	// Seq is the event's position in the log, increasing.
	Seq int64 `json:"seq"`
	// Type is such as "asset.created", "asset.merged" (Data {"from", "into"}:
	// the asset from became an alias of into) or "lineage.manifest.ingested".
	Type       string    `json:"type"`
	OccurredAt time.Time `json:"occurred_at"`
	// Actor is who caused it, such as "token:tok_1".
	Actor string `json:"actor"`
	// Data is the type-specific payload; decode it with json.Unmarshal.
	Data json.RawMessage `json:"data"`
	// Alert and Severity are set on alerts only.
	Alert    bool   `json:"alert,omitempty"`
	Severity string `json:"severity,omitempty"`
}

// EventListOptions filters GET /events.
type EventListOptions struct {
	// After lists events with a sequence number above it (0: from the start).
	// A Cursor takes precedence.
	After int64
	// Types are event types or prefix patterns ("asset.*"); empty means all.
	Types []string
	ListOptions
}

func (o *EventListOptions) query() url.Values {
	q := url.Values{}
	if o == nil {
		return q
	}
	if o.After > 0 {
		q.Set("after", strconv.FormatInt(o.After, 10))
	}
	set(q, "types", joinTypes(o.Types))
	o.ListOptions.encode(q)
	return q
}

// EventsService covers /events: the log of what changed, read page by page
// or followed live with [EventsService.Stream].
type EventsService struct{ c *Client }

// List returns one page of events in sequence order.
func (s *EventsService) List(ctx context.Context, opts *EventListOptions, ro ...RequestOption) (*Page[Event], *Response, error) {
	return sendFor[Page[Event]](ctx, s.c, call{method: http.MethodGet, path: "/events", query: opts.query(), opts: ro})
}

// All yields every event that matches opts, following next_cursor.
func (s *EventsService) All(ctx context.Context, opts *EventListOptions, ro ...RequestOption) iter.Seq2[Event, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *EventListOptions) (*Page[Event], *Response, error) {
		return s.List(ctx, o, ro...)
	})
}
