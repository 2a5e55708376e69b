package governance

import (
	"context"
	"iter"
	"net/http"
	"time"
)

// Role of a user; it caps what the user's tokens may do: viewer → read,
// editor → write, admin → admin.
type Role = string

const (
	RoleViewer Role = "viewer"
	RoleEditor Role = "editor"
	RoleAdmin  Role = "admin"
)

// User is a dashboard account. Its password is never shown.
type User struct {
	ID string `json:"id"`
	// Username is unique ignoring case.
	Username     string     `json:"username"`
	DisplayName  string     `json:"display_name,omitempty"`
	Role         Role       `json:"role"`
	Disabled     bool       `json:"disabled"`
	CreatedAt    time.Time  `json:"created_at"`
	UpdatedAt    time.Time  `json:"updated_at"`
	LastSignInAt *time.Time `json:"last_sign_in_at"`
}

// UserRequest asks for a new user.
type UserRequest struct {
	// Username is 1-64 of A-Z a-z 0-9 . _ @ -.
	Username string `json:"username"`
	// Password is 12-256 characters, stored only as an Argon2id hash.
	Password    string `json:"password"`
	Role        Role   `json:"role"`
	DisplayName string `json:"display_name,omitempty"`
}

// Me is the answer of [Client.Me]: the calling token and its user.
type Me struct {
	Token Token `json:"token"`
	// User is nil for a token made by the command line.
	User *User `json:"user"`
	// UserID and Username name the token's user (empty for a command-line
	// token).
	UserID   string `json:"user_id,omitempty"`
	Username string `json:"username,omitempty"`
	// Role is the global role: the user's, or for a command-line token the
	// one its scope names.
	Role Role `json:"role,omitempty"`
	// Scopes are what the token may do now: its own scopes capped by the
	// user's best role anywhere (global or in any domain).
	Scopes []Scope `json:"scopes,omitempty"`
	// Teams are the ids of the teams the user belongs to.
	Teams []string `json:"teams,omitempty"`
	// DomainRoles is the user's role in each domain where they have one,
	// by domain id.
	DomainRoles map[string]Role `json:"domain_roles,omitempty"`
}

// UsersService covers /users; every operation needs the admin scope.
type UsersService struct{ c *Client }

// List returns one page of users, ordered by id.
func (s *UsersService) List(ctx context.Context, opts *ListOptions, ro ...RequestOption) (*Page[User], *Response, error) {
	return listPage[User](ctx, s.c, "/users", opts, ro)
}

// All yields every user, following next_cursor.
func (s *UsersService) All(ctx context.Context, opts *ListOptions, ro ...RequestOption) iter.Seq2[User, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[User], *Response, error) {
		return s.List(ctx, o, ro...)
	})
}

// Create makes a user (201). A username taken (ignoring case) is
// [ErrConflict] with code already_exists.
func (s *UsersService) Create(ctx context.Context, req UserRequest, ro ...RequestOption) (*User, *Response, error) {
	return sendFor[User](ctx, s.c, call{method: http.MethodPost, path: "/users", body: req, opts: ro})
}

// Get reads a user; [ErrNotFound] if there is none.
func (s *UsersService) Get(ctx context.Context, id string, ro ...RequestOption) (*User, *Response, error) {
	return sendAt[User](ctx, s.c, call{method: http.MethodGet, opts: ro}, "/users", id)
}

// Patch changes a user with a JSON Merge Patch (RFC 7396) of "role",
// "display_name" (nil removes it), "disabled" and "password", e.g.
// map[string]any{"role": governance.RoleViewer}. A lower role limits the
// user's tokens from their next request; disabling ends the user's sessions
// and makes their tokens fail authentication; a new password ends their
// sessions. The last enabled admin cannot be demoted or disabled
// ([ErrConflict], code last_admin).
func (s *UsersService) Patch(ctx context.Context, id string, patch any, ro ...RequestOption) (*User, *Response, error) {
	k := call{method: http.MethodPatch, body: patch, contentType: mergePatch, opts: ro}
	return sendAt[User](ctx, s.c, k, "/users", id)
}

// Delete removes a user; their sessions end and their tokens stop working.
// The last enabled admin cannot be deleted ([ErrConflict], code last_admin).
func (s *UsersService) Delete(ctx context.Context, id string, ro ...RequestOption) (*Response, error) {
	return deleteAt(ctx, s.c, "/users", id, ro)
}

// Me returns the calling token and its user (GET /me; any valid token).
func (c *Client) Me(ctx context.Context, ro ...RequestOption) (*Me, *Response, error) {
	return sendFor[Me](ctx, c, call{method: http.MethodGet, path: "/me", opts: ro})
}
