package governance

import (
	"context"
	"iter"
	"net/http"
	"time"
)

// Scope of an API token. A higher scope includes the lower ones.
type Scope = string

const (
	ScopeRead  Scope = "read"
	ScopeWrite Scope = "write"
	ScopeAdmin Scope = "admin"
)

// Token is an API token's metadata; the secret is never shown again after
// creation.
type Token struct {
	ID         string     `json:"id"`
	Name       string     `json:"name"`
	Scopes     []Scope    `json:"scopes"`
	Prefix     string     `json:"prefix"` // the secret's first 8 characters
	CreatedAt  time.Time  `json:"created_at"`
	ExpiresAt  *time.Time `json:"expires_at"`
	LastUsedAt *time.Time `json:"last_used_at"`
	RevokedAt  *time.Time `json:"revoked_at"`
	CreatedBy  string     `json:"created_by,omitempty"`
	// UserID is the user who made the token (whose role caps what it may
	// do); empty for a token made by the command line.
	UserID string `json:"user_id,omitempty"`
}

// CreatedToken is a new token with its secret, shown this once.
type CreatedToken struct {
	Token
	// Secret is the bearer token ("dgs_...").
	Secret string `json:"token"`
}

// TokenRequest asks for a new token.
type TokenRequest struct {
	Name   string  `json:"name"`
	Scopes []Scope `json:"scopes"`
	// ExpiresInDays is 1-3650; 0 means the token does not expire.
	ExpiresInDays int `json:"expires_in_days,omitempty"`
}

// TokensService covers /tokens; every operation needs the admin scope.
type TokensService struct{ c *Client }

// List returns one page of tokens (metadata only), ordered by id.
func (s *TokensService) List(ctx context.Context, opts *ListOptions, ro ...RequestOption) (*Page[Token], *Response, error) {
	return listPage[Token](ctx, s.c, "/tokens", opts, ro)
}

// All yields every token, following next_cursor.
func (s *TokensService) All(ctx context.Context, opts *ListOptions, ro ...RequestOption) iter.Seq2[Token, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[Token], *Response, error) {
		return s.List(ctx, o, ro...)
	})
}

// Create makes a token for the caller's user (if any); the answer's Secret is
// shown this once. It is not retried: the service never keeps an answer
// holding a secret, so it ignores Idempotency-Key here, and a repeat would
// make a second token.
func (s *TokensService) Create(ctx context.Context, req TokenRequest, ro ...RequestOption) (*CreatedToken, *Response, error) {
	return sendFor[CreatedToken](ctx, s.c, call{method: http.MethodPost, path: "/tokens", body: req, opts: ro, noReplay: true})
}

// Get reads a token's metadata.
func (s *TokensService) Get(ctx context.Context, id string, ro ...RequestOption) (*Token, *Response, error) {
	return sendAt[Token](ctx, s.c, call{method: http.MethodGet, opts: ro}, "/tokens", id)
}

// Revoke revokes a token (DELETE /tokens/{id}); it fails authentication from
// the next request on.
func (s *TokensService) Revoke(ctx context.Context, id string, ro ...RequestOption) (*Response, error) {
	return deleteAt(ctx, s.c, "/tokens", id, ro)
}
