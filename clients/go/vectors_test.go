package governance

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"testing"
	"time"
)

// vectors mirrors clients/contract/vectors.json, shared by every client library.
type vectors struct {
	BaseURL []struct {
		Input    string `json:"input"`
		Expected string `json:"expected"`
	} `json:"base_url"`
	PathSegment []struct {
		ID      string `json:"id"`
		Encoded string `json:"encoded"`
	} `json:"path_segment"`
	Errors []struct {
		Status int    `json:"status"`
		Code   string `json:"code"`
		Kind   string `json:"kind"`
	} `json:"errors"`
	Retry []struct {
		Method         string `json:"method"`
		Status         int    `json:"status"`
		IdempotencyKey bool   `json:"idempotency_key"`
		Retry          bool   `json:"retry"`
	} `json:"retry"`
	RetryAfter []struct {
		Header  string `json:"header"`
		Seconds *int   `json:"seconds"`
	} `json:"retry_after"`
	BulkChunks []struct {
		Items  int   `json:"items"`
		Max    int   `json:"max"`
		Chunks []int `json:"chunks"`
	} `json:"bulk_chunks"`
	WebhookSignatures []struct {
		Secret    string `json:"secret"`
		ID        string `json:"id"`
		Timestamp int64  `json:"timestamp"`
		Body      string `json:"body"`
		Signature string `json:"signature"`
		Valid     bool   `json:"valid"`
	} `json:"webhook_signatures"`
}

func loadVectors(t *testing.T) vectors {
	t.Helper()
	data, err := os.ReadFile("../contract/vectors.json")
	if err != nil {
		t.Fatalf("reading the shared vectors: %v", err)
	}
	var v vectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("decoding the shared vectors: %v", err)
	}
	if len(v.BaseURL) == 0 || len(v.PathSegment) == 0 || len(v.Errors) == 0 ||
		len(v.Retry) == 0 || len(v.RetryAfter) == 0 || len(v.BulkChunks) == 0 || len(v.WebhookSignatures) == 0 {
		t.Fatal("a section of vectors.json is empty or was renamed")
	}
	return v
}

func TestVectorsBaseURL(t *testing.T) {
	for _, v := range loadVectors(t).BaseURL {
		got, err := normalizeBaseURL(v.Input)
		if err != nil || got != v.Expected {
			t.Errorf("normalizeBaseURL(%q) = %q, %v; want %q", v.Input, got, err, v.Expected)
		}
		c, err := NewClient(WithBaseURL(v.Input))
		if err != nil || c.BaseURL() != v.Expected {
			t.Errorf("NewClient(WithBaseURL(%q)).BaseURL() = %v, %v; want %q", v.Input, c, err, v.Expected)
		}
	}
}

func TestVectorsPathSegment(t *testing.T) {
	for _, v := range loadVectors(t).PathSegment {
		if got := escapeSegment(v.ID); got != v.Encoded {
			t.Errorf("escapeSegment(%q) = %q; want %q", v.ID, got, v.Encoded)
		}
	}
}

func TestVectorsErrorKinds(t *testing.T) {
	for _, v := range loadVectors(t).Errors {
		name := fmt.Sprintf("%d_%s", v.Status, v.Code)
		t.Run(name, func(t *testing.T) {
			if got := kindOf(v.Status, v.Code); string(got) != v.Kind {
				t.Fatalf("kindOf(%d, %q) = %q; want %q", v.Status, v.Code, got, v.Kind)
			}
			var err error = &Error{Problem: Problem{Status: v.Status, Code: v.Code}}
			want := sentinels[Kind(v.Kind)]
			if want == nil {
				t.Fatalf("no sentinel for kind %q", v.Kind)
			}
			if !errors.Is(err, want) {
				t.Errorf("errors.Is(%d %s, %v) = false", v.Status, v.Code, want)
			}
			for kind, other := range sentinels {
				if string(kind) != v.Kind && errors.Is(err, other) {
					t.Errorf("errors.Is(%d %s, %v) = true; kinds must not overlap", v.Status, v.Code, other)
				}
			}
		})
	}
}

func TestVectorsRetry(t *testing.T) {
	for _, v := range loadVectors(t).Retry {
		if got := shouldRetry(v.Method, v.Status, v.IdempotencyKey); got != v.Retry {
			t.Errorf("shouldRetry(%s, %d, key=%v) = %v; want %v", v.Method, v.Status, v.IdempotencyKey, got, v.Retry)
		}
	}
	// 408 is retried like 429 and 5xx; other 4xx are not.
	for status, want := range map[int]bool{408: true, 429: true, 599: true, 400: false, 409: false, 412: false} {
		if got := shouldRetry("GET", status, false); got != want {
			t.Errorf("shouldRetry(GET, %d) = %v; want %v", status, got, want)
		}
	}
	// A connection error (status 0) follows the same method rules.
	for method, want := range map[string]bool{"GET": true, "PUT": true, "DELETE": true, "POST": false, "PATCH": false} {
		if got := shouldRetry(method, 0, false); got != want {
			t.Errorf("shouldRetry(%s, connection error, key=false) = %v; want %v", method, got, want)
		}
	}
}

func TestVectorsRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, v := range loadVectors(t).RetryAfter {
		got, ok := parseRetryAfter(v.Header, now)
		switch {
		case v.Seconds == nil && ok:
			t.Errorf("parseRetryAfter(%q) = %v; want none", v.Header, got)
		case v.Seconds != nil && (!ok || got != time.Duration(*v.Seconds)*time.Second):
			t.Errorf("parseRetryAfter(%q) = %v, %v; want %ds", v.Header, got, ok, *v.Seconds)
		}
	}
	// An HTTP date is honoured too.
	date := now.Add(7 * time.Second).Format(http.TimeFormat)
	if got, ok := parseRetryAfter(date, now); !ok || got != 7*time.Second {
		t.Errorf("parseRetryAfter(%q) = %v, %v; want 7s", date, got, ok)
	}
}

func TestVectorsBulkChunks(t *testing.T) {
	for _, v := range loadVectors(t).BulkChunks {
		items := make([]EdgeInput, v.Items)
		var got []int
		for _, c := range chunks(items, v.Max) {
			got = append(got, len(c))
		}
		if fmt.Sprint(got) != fmt.Sprint(v.Chunks) {
			t.Errorf("chunks(%d items, max %d) = %v; want %v", v.Items, v.Max, got, v.Chunks)
		}
	}
}

func TestBackoffIsFullyJitteredExponentialAndCapped(t *testing.T) {
	for attempt, want := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second} {
		lo, mid, hi := backoff(attempt, 0), backoff(attempt, 0.5), backoff(attempt, 0.999999)
		if lo != 0 || mid != want/2 || hi >= want || hi < want*99/100 {
			t.Errorf("backoff(%d) spans [%v, %v] (middle %v); want [0, %v)", attempt, lo, hi, mid, want)
		}
	}
	if d := backoff(1000, 0.999999); d > backoffMax {
		t.Errorf("backoff(1000) = %v; want at most %v", d, backoffMax)
	}
}

func TestVectorsWebhookSignatures(t *testing.T) {
	for i, v := range loadVectors(t).WebhookSignatures {
		h := http.Header{}
		h.Set("webhook-id", v.ID)
		h.Set("webhook-timestamp", strconv.FormatInt(v.Timestamp, 10))
		h.Set("webhook-signature", v.Signature)
		ev, err := VerifyWebhook(v.Secret, h, []byte(v.Body), WithNow(time.Unix(v.Timestamp, 0)))
		switch {
		case v.Valid && err != nil:
			t.Errorf("vector %d: VerifyWebhook = %v; want valid", i, err)
		case v.Valid && (ev.ID == "" || ev.Seq == 0 || ev.Type == "" || ev.OccurredAt.IsZero() || len(ev.Data) == 0):
			t.Errorf("vector %d: event = %+v; want the decoded envelope", i, ev)
		case !v.Valid && !errors.Is(err, ErrWebhookVerification):
			t.Errorf("vector %d: VerifyWebhook = %+v, %v; want ErrWebhookVerification", i, ev, err)
		}
	}
}
