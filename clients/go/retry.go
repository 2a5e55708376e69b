package governance

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Backoff and Retry-After bounds.
const (
	backoffBase = 500 * time.Millisecond
	backoffMax  = 8 * time.Second
	// maxRetryAfter caps the wait a Retry-After asks for.
	maxRetryAfter = 60 * time.Second
)

// shouldRetry is the retry policy. status is the HTTP status, or 0 when the
// request got no answer (connection error or timeout). Only connection
// errors, timeouts, 408, 429 and 5xx are retried; GET, HEAD, OPTIONS, PUT
// and DELETE always, POST and PATCH only when they carry an Idempotency-Key
// (or, for a POST, when it only reads: repeatable is then true). A 409 is a
// real conflict and never retried.
func shouldRetry(method string, status int, repeatable bool) bool {
	switch {
	case status == 0, status == http.StatusRequestTimeout, status == http.StatusTooManyRequests:
	case status >= 500 && status <= 599:
	default:
		return false
	}
	switch strings.ToUpper(method) {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodPut, http.MethodDelete:
		return true
	case http.MethodPost, http.MethodPatch:
		return repeatable
	default:
		return false
	}
}

// parseRetryAfter reads a Retry-After header: delay-seconds or an HTTP date.
// ok is false when the header is absent or unreadable.
func parseRetryAfter(header string, now time.Time) (d time.Duration, ok bool) {
	header = strings.TrimSpace(header)
	if header == "" {
		return 0, false
	}
	if secs, err := strconv.ParseUint(header, 10, 32); err == nil {
		return time.Duration(secs) * time.Second, true
	}
	if t, err := http.ParseTime(header); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// backoff is the delay before retry number attempt+1 when the answer gave no
// Retry-After: exponential from backoffBase, capped at backoffMax, with full
// jitter (a random part of it; random01 is in [0, 1)).
func backoff(attempt int, random01 float64) time.Duration {
	d := backoffMax
	if attempt < 16 {
		d = min(backoffBase<<attempt, backoffMax)
	}
	return time.Duration(random01 * float64(d))
}

// sleepContext waits d or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
