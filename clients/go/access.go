package governance

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"
)

// Team is a named group of users, given roles in domains.
type Team struct {
	// ID is a slug: a-z 0-9, then up to 62 of a-z 0-9 _ -.
	ID          string `json:"id"`
	DisplayName string `json:"display_name,omitempty"`
	// IdpGroups are identity-provider groups: at each single sign-on, the
	// user's membership follows them. Empty: members are managed by hand.
	IdpGroups []string `json:"idp_groups"`
	// Members are user ids.
	Members   []string  `json:"members"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// TeamRequest is the body of [TeamsService.Put]; empty fields are left out
// and take the service's defaults.
type TeamRequest struct {
	DisplayName string   `json:"display_name,omitempty"`
	IdpGroups   []string `json:"idp_groups,omitempty"`
}

// DomainRuleKind says which assets a [DomainRule] picks. Between domains an
// asset rule wins over dbt_project, which wins over namespace, then tag;
// within one kind the domain id that sorts first wins.
type DomainRuleKind = string

const (
	// RuleAsset picks the asset with this id.
	RuleAsset DomainRuleKind = "asset"
	// RuleDbtProject picks the assets a dbt upload wrote for this project.
	RuleDbtProject DomainRuleKind = "dbt_project"
	// RuleNamespace picks the assets whose id starts with the value.
	RuleNamespace DomainRuleKind = "namespace"
	// RuleTag picks the assets carrying the tag.
	RuleTag DomainRuleKind = "tag"
)

// DomainRule says which assets belong to a domain.
type DomainRule struct {
	Kind  DomainRuleKind `json:"kind"`
	Value string         `json:"value"`
}

// DomainGrant gives a team's members a role inside a domain.
type DomainGrant struct {
	Team string `json:"team"`
	Role Role   `json:"role"`
}

// Domain is a set of assets owned by a team. An asset is in at most one
// domain ([Asset].Domain names it); inside it, the caller's role there
// decides what they may do.
type Domain struct {
	ID          string `json:"id"`
	DisplayName string `json:"display_name,omitempty"`
	Description string `json:"description,omitempty"`
	// Private hides the domain's assets from callers with no role in it.
	Private bool `json:"private"`
	// OwnerTeam is implicitly admin of the domain.
	OwnerTeam string        `json:"owner_team"`
	Rules     []DomainRule  `json:"rules"`
	Grants    []DomainGrant `json:"grants"`
	// AssetCount is how many assets the rules hold.
	AssetCount int       `json:"asset_count"`
	CreatedAt  time.Time `json:"created_at"`
	UpdatedAt  time.Time `json:"updated_at"`
}

// DomainRequest is the body of [DomainsService.Put]: at most 100 rules and
// 100 grants; an unknown team in OwnerTeam or Grants is [ErrValidation].
type DomainRequest struct {
	DisplayName string        `json:"display_name,omitempty"`
	Description string        `json:"description,omitempty"`
	Private     bool          `json:"private"`
	OwnerTeam   string        `json:"owner_team"`
	Rules       []DomainRule  `json:"rules"`
	Grants      []DomainGrant `json:"grants"`
}

// items is an answer holding a whole collection, with no cursor.
type items[T any] struct {
	Items []T `json:"items"`
}

// TeamsService covers /teams: reads need the read scope, writes the admin
// scope.
type TeamsService struct{ c *Client }

// Put creates the team (201) or replaces it (200; [Response].StatusCode
// tells which).
func (s *TeamsService) Put(ctx context.Context, id string, req TeamRequest, ro ...RequestOption) (*Team, *Response, error) {
	return sendAt[Team](ctx, s.c, call{method: http.MethodPut, body: req, opts: ro}, "/teams", id)
}

// List returns every team, in one answer.
func (s *TeamsService) List(ctx context.Context, ro ...RequestOption) ([]Team, *Response, error) {
	return listWhole[Team](ctx, s.c, "/teams", ro)
}

// Get reads a team with its members; [ErrNotFound] if there is none.
func (s *TeamsService) Get(ctx context.Context, id string, ro ...RequestOption) (*Team, *Response, error) {
	return sendAt[Team](ctx, s.c, call{method: http.MethodGet, opts: ro}, "/teams", id)
}

// Delete removes a team; [ErrConflict] (code team_owns_domains) while it
// owns a domain.
func (s *TeamsService) Delete(ctx context.Context, id string, ro ...RequestOption) (*Response, error) {
	return deleteAt(ctx, s.c, "/teams", id, ro)
}

// AddMember makes the user a member of the team (nothing changes if they
// are one); [ErrNotFound] for an unknown team or user.
func (s *TeamsService) AddMember(ctx context.Context, id, userID string, ro ...RequestOption) (*Response, error) {
	return s.member(ctx, http.MethodPut, id, userID, ro)
}

// RemoveMember takes the user out of the team.
func (s *TeamsService) RemoveMember(ctx context.Context, id, userID string, ro ...RequestOption) (*Response, error) {
	return s.member(ctx, http.MethodDelete, id, userID, ro)
}

func (s *TeamsService) member(ctx context.Context, method, id, userID string, ro []RequestOption) (*Response, error) {
	if userID == "" {
		return nil, errEmptyID
	}
	path, err := idPath("/teams", id, "/members/", escapeSegment(userID))
	if err != nil {
		return nil, err
	}
	return s.c.send(ctx, call{method: method, path: path, opts: ro})
}

// DomainsService covers /domains: reads need the read scope (a private
// domain is listed only to callers with a role in it), writes the admin
// scope or the domain's own admin role.
type DomainsService struct{ c *Client }

// Put creates the domain (201) or replaces it (200), then re-evaluates
// which assets are in it.
func (s *DomainsService) Put(ctx context.Context, id string, req DomainRequest, ro ...RequestOption) (*Domain, *Response, error) {
	if req.Rules == nil {
		req.Rules = []DomainRule{}
	}
	if req.Grants == nil {
		req.Grants = []DomainGrant{}
	}
	return sendAt[Domain](ctx, s.c, call{method: http.MethodPut, body: req, opts: ro}, "/domains", id)
}

// List returns every domain the caller may see, in one answer.
func (s *DomainsService) List(ctx context.Context, ro ...RequestOption) ([]Domain, *Response, error) {
	return listWhole[Domain](ctx, s.c, "/domains", ro)
}

// Get reads a domain with its AssetCount; [ErrNotFound] if there is none
// (or it is private and out of the caller's reach).
func (s *DomainsService) Get(ctx context.Context, id string, ro ...RequestOption) (*Domain, *Response, error) {
	return sendAt[Domain](ctx, s.c, call{method: http.MethodGet, opts: ro}, "/domains", id)
}

// Delete removes a domain; its assets leave it.
func (s *DomainsService) Delete(ctx context.Context, id string, ro ...RequestOption) (*Response, error) {
	return deleteAt(ctx, s.c, "/domains", id, ro)
}

// listWhole reads a collection the service answers whole, with no cursor.
func listWhole[T any](ctx context.Context, c *Client, path string, ro []RequestOption) ([]T, *Response, error) {
	all, resp, err := sendFor[items[T]](ctx, c, call{method: http.MethodGet, path: path, opts: ro})
	if err != nil {
		return nil, resp, err
	}
	return all.Items, resp, nil
}

// ForbiddenAsset is an asset a write was refused on, with its domain (empty
// outside every domain, where the global role decides).
type ForbiddenAsset struct {
	ID     string `json:"id"`
	Domain string `json:"domain"`
}

// ForbiddenAssets reads a 403 domain_forbidden answer: the assets the
// caller may not write (the first 100) and how many there were in all.
// ok is false for any other error. Nothing was written.
func ForbiddenAssets(err error) (assets []ForbiddenAsset, total int, ok bool) {
	var apiErr *Error
	if !errors.As(err, &apiErr) || apiErr.Status != 403 || apiErr.Code != "domain_forbidden" {
		return nil, 0, false
	}
	_ = json.Unmarshal(apiErr.Extensions["assets"], &assets)
	if json.Unmarshal(apiErr.Extensions["assets_count"], &total) != nil || total < len(assets) {
		total = len(assets)
	}
	return assets, total, true
}
