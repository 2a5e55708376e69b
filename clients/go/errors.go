package governance

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"
)

// Sentinel kinds, for errors.Is. An [*Error] matches exactly one of the first
// ten; a [*ConnectionError] matches ErrConnection, and ErrTimeout as well
// when the attempt timed out.
var (
	ErrBadRequest         = errors.New("governance: bad request")           // 400, 405, 413, 415 and other 4xx
	ErrAuthentication     = errors.New("governance: authentication failed") // 401
	ErrPermission         = errors.New("governance: permission denied")     // 403
	ErrNotFound           = errors.New("governance: not found")             // 404
	ErrConflict           = errors.New("governance: conflict")              // 409
	ErrPreconditionFailed = errors.New("governance: precondition failed")   // 412
	ErrValidation         = errors.New("governance: validation failed")     // 422
	ErrRateLimited        = errors.New("governance: rate limited")          // 429
	ErrServer             = errors.New("governance: server error")          // 500 and other 5xx
	ErrUnavailable        = errors.New("governance: service unavailable")   // 502, 503, 504
	ErrConnection         = errors.New("governance: connection failed")
	ErrTimeout            = errors.New("governance: timed out")
)

// Kind classifies an [*Error] by its HTTP status. Its values are the kinds
// named in clients/contract/vectors.json.
type Kind string

const (
	KindBadRequest         Kind = "bad_request"
	KindAuthentication     Kind = "authentication"
	KindPermission         Kind = "permission"
	KindNotFound           Kind = "not_found"
	KindConflict           Kind = "conflict"
	KindPreconditionFailed Kind = "precondition_failed"
	KindValidation         Kind = "validation"
	KindRateLimited        Kind = "rate_limited"
	KindServer             Kind = "server"
	KindUnavailable        Kind = "unavailable"
)

var sentinels = map[Kind]error{
	KindBadRequest:         ErrBadRequest,
	KindAuthentication:     ErrAuthentication,
	KindPermission:         ErrPermission,
	KindNotFound:           ErrNotFound,
	KindConflict:           ErrConflict,
	KindPreconditionFailed: ErrPreconditionFailed,
	KindValidation:         ErrValidation,
	KindRateLimited:        ErrRateLimited,
	KindServer:             ErrServer,
	KindUnavailable:        ErrUnavailable,
}

// kindOf maps an error answer to its kind. The status decides; the code is
// taken for future refinements and is not needed by any kind today.
func kindOf(status int, code string) Kind {
	_ = code
	switch {
	case status == 401:
		return KindAuthentication
	case status == 403:
		return KindPermission
	case status == 404:
		return KindNotFound
	case status == 409:
		return KindConflict
	case status == 412:
		return KindPreconditionFailed
	case status == 422:
		return KindValidation
	case status == 429:
		return KindRateLimited
	case status == 502 || status == 503 || status == 504:
		return KindUnavailable
	case status >= 500:
		return KindServer
	default:
		return KindBadRequest
	}
}

// Problem is an RFC 9457 problem details body as the service writes it.
type Problem struct {
	Type      string `json:"type"`
	Title     string `json:"title"`
	Status    int    `json:"status"`
	Detail    string `json:"detail"`
	Instance  string `json:"instance"`
	Code      string `json:"code"`
	RequestID string `json:"request_id"`
	// FieldErrors lists field problems (the "errors" member), e.g. for 422.
	FieldErrors []FieldError `json:"errors,omitempty"`
	// Extensions holds any other members, e.g. "unknown_assets" on a 422
	// unknown_assets answer.
	Extensions map[string]json.RawMessage `json:"-"`
}

var problemMembers = map[string]bool{
	"type": true, "title": true, "status": true, "detail": true, "instance": true,
	"code": true, "request_id": true, "errors": true,
}

// UnmarshalJSON decodes the known members and keeps the rest in Extensions.
func (p *Problem) UnmarshalJSON(data []byte) error {
	type plain Problem
	var known plain
	if err := json.Unmarshal(data, &known); err != nil {
		return err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return err
	}
	for name, value := range all {
		if !problemMembers[name] {
			if known.Extensions == nil {
				known.Extensions = map[string]json.RawMessage{}
			}
			known.Extensions[name] = value
		}
	}
	*p = Problem(known)
	return nil
}

// FieldError is one entry of a problem's "errors" list.
type FieldError struct {
	// Loc is where the problem is, e.g. ["body", 3, "target"]; numbers are
	// decoded as float64.
	Loc  []any  `json:"loc"`
	Msg  string `json:"msg"`
	Type string `json:"type"`
}

// Field joins Loc with dots: "body.3.target".
func (f FieldError) Field() string {
	parts := make([]string, len(f.Loc))
	for i, p := range f.Loc {
		switch v := p.(type) {
		case float64:
			parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
		default:
			parts[i] = fmt.Sprint(v)
		}
	}
	return strings.Join(parts, ".")
}

// Error is an error answer from the service. Status, Code and RequestID are
// always filled in (RequestID from the X-Request-ID header when the body has
// none); the other Problem fields when the body was problem+json.
// Check its kind with errors.Is(err, ErrNotFound) and so on, or with Kind.
type Error struct {
	Problem
	// Method and URL of the request that failed.
	Method string
	URL    string
	// RetryAfter is the delay the Retry-After header asked for (429, 503), if any.
	RetryAfter    time.Duration
	HasRetryAfter bool
	// Body is the raw response body.
	Body []byte
}

// Kind classifies the error by its status.
func (e *Error) Kind() Kind { return kindOf(e.Status, e.Code) }

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "governance: %s %s: %d", e.Method, e.URL, e.Status)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	if e.Detail != "" {
		b.WriteString(": " + e.Detail)
	}
	for i, f := range e.FieldErrors {
		if i == 5 {
			fmt.Fprintf(&b, "; and %d more", len(e.FieldErrors)-i)
			break
		}
		fmt.Fprintf(&b, "; %s: %s", f.Field(), f.Msg)
	}
	if e.RequestID != "" {
		b.WriteString(" (request_id " + e.RequestID + ")")
	}
	return b.String()
}

// Is reports whether target is the sentinel of this error's kind.
func (e *Error) Is(target error) bool {
	return target != nil && sentinels[e.Kind()] == target
}

// ConnectionError is a request that got no answer: the connection could not
// be made or broke, or the attempt timed out. It wraps the underlying error,
// so errors.Is(err, context.DeadlineExceeded) and errors.As(err, *net.OpError)
// work through it.
type ConnectionError struct {
	Method string
	URL    string
	Err    error
}

func (e *ConnectionError) Error() string {
	return fmt.Sprintf("governance: %s %s: %v", e.Method, e.URL, e.Err)
}

func (e *ConnectionError) Unwrap() error { return e.Err }

// Timeout reports whether the attempt timed out.
func (e *ConnectionError) Timeout() bool {
	var ne net.Error
	return errors.As(e.Err, &ne) && ne.Timeout()
}

// Is matches ErrConnection always and ErrTimeout when the attempt timed out.
func (e *ConnectionError) Is(target error) bool {
	return target == ErrConnection || target == ErrTimeout && e.Timeout()
}
