package governance

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// apiPrefix is where the service serves API v1.
const apiPrefix = "/api/v1"

// normalizeBaseURL accepts a service address with or without the trailing
// /api/v1 (and trailing slashes) and returns it ending in /api/v1.
func normalizeBaseURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("governance: invalid base URL %q: %w", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" {
		return "", fmt.Errorf("governance: base URL %q must be http(s)://host[:port][/path]", raw)
	}
	if u.User != nil {
		return "", errors.New("governance: credentials in the base URL are not supported; use WithToken")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("governance: base URL %q must not have a query or fragment", raw)
	}
	path := strings.TrimRight(u.EscapedPath(), "/")
	if !strings.HasSuffix(path, apiPrefix) {
		path += apiPrefix
	}
	return u.Scheme + "://" + u.Host + path, nil
}

// escapeSegment percent-encodes s as one path segment: every byte except the
// unreserved characters A-Z a-z 0-9 - . _ ~ (RFC 3986) becomes %XX, so that
// an id holding "/", "?", "#", "%" or ":" stays one segment.
// url.PathEscape is not enough: it leaves ":", "@", "$", "(", ")", "," and more.
func escapeSegment(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isUnreserved(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(hex[c>>4])
		b.WriteByte(hex[c&0xF])
	}
	return b.String()
}

func isUnreserved(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// idPath joins a collection path and an id encoded as one segment, refusing an
// empty id (which would address the collection instead).
func idPath(collection, id string, rest ...string) (string, error) {
	if id == "" {
		return "", errEmptyID
	}
	return collection + "/" + escapeSegment(id) + strings.Join(rest, ""), nil
}

var errEmptyID = errors.New("governance: id must not be empty")
