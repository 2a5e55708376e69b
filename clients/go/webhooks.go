package governance

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

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
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || len(key) == 0 {
		return fail("the secret is not a base64 whsec_ secret")
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
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + stamp + "."))
	mac.Write(body)
	expected := mac.Sum(nil)
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
