package governance

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Webhook is an endpoint that receives the events whose types it names,
// each delivery signed with its secret (see [VerifyWebhook]).
type Webhook struct {
	ID  string `json:"id"`
	URL string `json:"url"`
	// Types are event types or "prefix.*" patterns; "*" is every event.
	Types       []string  `json:"types"`
	Enabled     bool      `json:"enabled"`
	Description string    `json:"description,omitempty"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
	// FailingSince is when deliveries started failing; nil while they work.
	FailingSince *time.Time `json:"failing_since"`
	// DisabledReason says why the service disabled the webhook, if it did.
	DisabledReason string     `json:"disabled_reason,omitempty"`
	LastDeliveryAt *time.Time `json:"last_delivery_at"`
}

// CreatedWebhook is a new webhook with its signing secret, shown this once.
type CreatedWebhook struct {
	Webhook
	// Secret ("whsec_...") signs every delivery; keep it for [VerifyWebhook].
	Secret string `json:"secret"`
}

// WebhookRequest asks for a new webhook.
type WebhookRequest struct {
	// URL must be https and resolve to public addresses only, unless the
	// service allows private ones (GOVERNANCE_WEBHOOK_ALLOW_PRIVATE).
	URL string `json:"url"`
	// Types are event types or "prefix.*" patterns; empty means every event.
	Types []string `json:"types,omitempty"`
	// Enabled nil means true.
	Enabled     *bool  `json:"enabled,omitempty"`
	Description string `json:"description,omitempty"`
}

// Delivery states.
const (
	DeliveryPending   = "pending"
	DeliveryDelivered = "delivered"
	DeliveryFailed    = "failed" // the service gave up
	DeliveryCancelled = "cancelled"
)

// Delivery is one event's delivery to a webhook, with its attempts so far.
type Delivery struct {
	ID        string `json:"id"`
	EventID   string `json:"event_id"`
	EventType string `json:"event_type"`
	// State is one of DeliveryPending ... DeliveryCancelled.
	State    string `json:"state"`
	Attempts int    `json:"attempts"`
	// LastStatus is the receiver's last HTTP status (0: none yet).
	LastStatus int `json:"last_status,omitempty"`
	// LastError is the service's account of a failure, never the receiver's
	// body.
	LastError     string     `json:"last_error,omitempty"`
	NextAttemptAt *time.Time `json:"next_attempt_at"`
	LastAttemptAt *time.Time `json:"last_attempt_at"`
	DeliveredAt   *time.Time `json:"delivered_at"`
	CreatedAt     time.Time  `json:"created_at"`
}

// WebhookTestResult is what a test delivery did.
type WebhookTestResult struct {
	Delivered bool `json:"delivered"`
	// Status is the receiver's HTTP status (0: it gave none).
	Status     int     `json:"status,omitempty"`
	Error      string  `json:"error,omitempty"`
	DurationMS float64 `json:"duration_ms"`
}

// WebhooksService covers /webhooks; every operation needs the admin scope.
type WebhooksService struct{ c *Client }

// List returns one page of webhooks, ordered by id.
func (s *WebhooksService) List(ctx context.Context, opts *ListOptions, ro ...RequestOption) (*Page[Webhook], *Response, error) {
	return listPage[Webhook](ctx, s.c, "/webhooks", opts, ro)
}

// All yields every webhook, following next_cursor.
func (s *WebhooksService) All(ctx context.Context, opts *ListOptions, ro ...RequestOption) iter.Seq2[Webhook, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[Webhook], *Response, error) {
		return s.List(ctx, o, ro...)
	})
}

// Create makes a webhook; the answer's Secret is shown this once. It is not
// retried: the service keeps no answer holding a secret, so a repeat would
// make a second webhook. A URL the service refuses is [ErrValidation].
func (s *WebhooksService) Create(ctx context.Context, req WebhookRequest, ro ...RequestOption) (*CreatedWebhook, *Response, error) {
	return sendFor[CreatedWebhook](ctx, s.c, call{method: http.MethodPost, path: "/webhooks", body: req, opts: ro, noReplay: true})
}

// Get reads a webhook; [ErrNotFound] if there is none.
func (s *WebhooksService) Get(ctx context.Context, id string, ro ...RequestOption) (*Webhook, *Response, error) {
	return sendAt[Webhook](ctx, s.c, call{method: http.MethodGet, opts: ro}, "/webhooks", id)
}

// Patch changes a webhook with a JSON Merge Patch of "url", "types",
// "enabled" and "description" (nil removes it); fields left out keep their
// value. Enabling a disabled webhook clears its failure state.
func (s *WebhooksService) Patch(ctx context.Context, id string, patch any, ro ...RequestOption) (*Webhook, *Response, error) {
	k := call{method: http.MethodPatch, body: patch, contentType: mergePatch, opts: ro}
	return sendAt[Webhook](ctx, s.c, k, "/webhooks", id)
}

// Delete removes a webhook; its pending deliveries are dropped.
func (s *WebhooksService) Delete(ctx context.Context, id string, ro ...RequestOption) (*Response, error) {
	return deleteAt(ctx, s.c, "/webhooks", id, ro)
}

// Test sends a signed event of type webhook.test (sequence 0, not logged) to
// the webhook now and tells what happened.
func (s *WebhooksService) Test(ctx context.Context, id string, ro ...RequestOption) (*WebhookTestResult, *Response, error) {
	return sendAt[WebhookTestResult](ctx, s.c, call{method: http.MethodPost, opts: ro}, "/webhooks", id, "/test")
}

// ListDeliveries returns one page of a webhook's delivery log.
func (s *WebhooksService) ListDeliveries(ctx context.Context, id string, opts *ListOptions, ro ...RequestOption) (*Page[Delivery], *Response, error) {
	return listPageAt[Delivery](ctx, s.c, "/webhooks", id, "/deliveries", opts, ro)
}

// AllDeliveries yields a webhook's whole delivery log, following
// next_cursor.
func (s *WebhooksService) AllDeliveries(ctx context.Context, id string, opts *ListOptions, ro ...RequestOption) iter.Seq2[Delivery, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[Delivery], *Response, error) {
		return s.ListDeliveries(ctx, id, o, ro...)
	})
}

// ErrWebhookVerification is wrapped by every error of [VerifyWebhook] that
// means the delivery cannot be trusted: a missing header, a bad signature, a
// timestamp outside the tolerance, an unusable secret.
var ErrWebhookVerification = errors.New("governance: webhook verification failed")

// DefaultWebhookTolerance is how far a delivery's timestamp may be from now.
const DefaultWebhookTolerance = 5 * time.Minute

// VerifyOption adjusts [VerifyWebhook].
type VerifyOption func(*verifyOptions)

type verifyOptions struct {
	tolerance time.Duration
	now       time.Time
}

// WithTolerance sets how far the webhook-timestamp may lie from now, either
// way (default [DefaultWebhookTolerance]).
func WithTolerance(d time.Duration) VerifyOption {
	return func(o *verifyOptions) { o.tolerance = max(d, 0) }
}

// WithNow sets the time the timestamp is compared with (default time.Now()).
func WithNow(t time.Time) VerifyOption { return func(o *verifyOptions) { o.now = t } }

// VerifyWebhook checks a webhook delivery the Standard Webhooks way and
// returns the event it carries. secret is the endpoint's signing secret
// ("whsec_..."), header the request's headers and body its raw bytes, exactly
// as received (read them before any JSON decoding).
//
// The webhook-signature header holds one or more space-separated "v1,<base64
// HMAC-SHA256>" entries, of "<webhook-id>.<webhook-timestamp>.<body>" keyed
// with the base64-decoded secret; any matching entry is accepted. Deliveries
// whose timestamp is more than the tolerance away from now are refused, to
// stop replays. Failures wrap [ErrWebhookVerification].
func VerifyWebhook(secret string, header http.Header, body []byte, opts ...VerifyOption) (Event, error) {
	o := verifyOptions{tolerance: DefaultWebhookTolerance}
	for _, opt := range opts {
		opt(&o)
	}
	if o.now.IsZero() {
		o.now = time.Now()
	}
	fail := func(format string, args ...any) (Event, error) {
		return Event{}, fmt.Errorf("%w: "+format, append([]any{ErrWebhookVerification}, args...)...)
	}
	key, err := webhookKey(secret)
	if err != nil {
		return Event{}, err
	}
	id := header.Get("webhook-id")
	stamp := header.Get("webhook-timestamp")
	signatures := header.Get("webhook-signature")
	if id == "" || stamp == "" || signatures == "" {
		return fail("missing webhook-id, webhook-timestamp or webhook-signature header")
	}
	secs, err := strconv.ParseInt(strings.TrimSpace(stamp), 10, 64)
	if err != nil {
		return fail("webhook-timestamp %q is not a Unix time", stamp)
	}
	if skew := o.now.Sub(time.Unix(secs, 0)); skew > o.tolerance || -skew > o.tolerance {
		return fail("webhook-timestamp is %v away from now (tolerance %v)", skew.Round(time.Second), o.tolerance)
	}
	expected := webhookMAC(key, id, stamp, body)
	matched := false
	for _, entry := range strings.Fields(signatures) {
		version, sig, ok := strings.Cut(entry, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(sig)
		if err == nil && hmac.Equal(got, expected) {
			matched = true
			break
		}
	}
	if !matched {
		return fail("no webhook-signature entry matches")
	}
	var ev Event
	if err := json.Unmarshal(body, &ev); err != nil {
		return Event{}, fmt.Errorf("governance: webhook body is signed but not an event: %w", err)
	}
	return ev, nil
}

// SignWebhook computes the webhook-signature entry ("v1,<base64>") the
// service sends for a delivery: for testing a receiver without the service.
func SignWebhook(secret, id string, timestamp time.Time, body []byte) (string, error) {
	key, err := webhookKey(secret)
	if err != nil {
		return "", err
	}
	mac := webhookMAC(key, id, strconv.FormatInt(timestamp.Unix(), 10), body)
	return "v1," + base64.StdEncoding.EncodeToString(mac), nil
}

func webhookKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return nil, fmt.Errorf("%w: the secret is not a base64 whsec_ secret", ErrWebhookVerification)
	}
	return key, nil
}

func webhookMAC(key []byte, id, stamp string, body []byte) []byte {
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + stamp + "."))
	mac.Write(body)
	return mac.Sum(nil)
}
