package governance

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Response is the HTTP answer behind a method's result, for when the status
// or the headers matter: created or replaced ([Response.Created]), ETag,
// Location, the rate-limit budget. Methods return it beside their value,
// also with an error when the service answered one; it is nil when the
// request got no answer. The body has been read and closed already.
type Response struct {
	*http.Response
	// RequestID is the X-Request-ID of the answer (the caller's [RequestID]
	// or one the service made).
	RequestID string
	// Rate is the token's rate-limit budget from the RateLimit-* headers.
	Rate Rate
	// Attempts is how many attempts the call took: 1 when not retried.
	Attempts int
}

// Rate is the rate-limit budget of the calling token. It is the zero Rate
// when the answer did not carry the headers.
type Rate struct {
	// Limit is the burst size: the most requests allowed at once.
	Limit int
	// Remaining is how many requests may be made now.
	Remaining int
	// Reset is how long until the budget is full again.
	Reset time.Duration
}

func newResponse(hr *http.Response) *Response {
	return &Response{
		Response:  hr,
		RequestID: hr.Header.Get("X-Request-ID"),
		Rate: Rate{
			Limit:     headerInt(hr.Header, "RateLimit-Limit"),
			Remaining: headerInt(hr.Header, "RateLimit-Remaining"),
			Reset:     time.Duration(headerInt(hr.Header, "RateLimit-Reset")) * time.Second,
		},
	}
}

// Created reports whether the request made a new resource (201 Created), as
// opposed to replacing or updating one (200): for [AssetsService.Put] and
// [LineageService.Create].
func (r *Response) Created() bool { return r != nil && r.StatusCode == http.StatusCreated }

// ETag is the answer's entity tag, `"<version>"` for assets, policies and
// quality rules; empty when there is none.
func (r *Response) ETag() string {
	if r == nil || r.Response == nil {
		return ""
	}
	return r.Header.Get("ETag")
}

func headerInt(h http.Header, name string) int {
	n, err := strconv.Atoi(strings.TrimSpace(h.Get(name)))
	if err != nil {
		return 0
	}
	return n
}
