package governance

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// PolicyKind names what a policy checks. The service refuses an unknown kind
// with a 422 naming ["body", "kind"].
type PolicyKind string

const (
	// PolicyRequireOwner: a governed asset must have an owner. No params.
	PolicyRequireOwner PolicyKind = "require_owner"
	// PolicyRequireDescription: a governed asset must have a non-blank
	// description. No params.
	PolicyRequireDescription PolicyKind = "require_description"
	// PolicyRequireQualityRule: a governed asset must have an enabled quality
	// rule; params {"types": [...]} narrows the rule types that count.
	PolicyRequireQualityRule PolicyKind = "require_quality_rule"
	// PolicyTagPropagation: every governed asset within max_depth hops
	// downstream of an asset carrying params {"tag"} must carry it too.
	PolicyTagPropagation PolicyKind = "tag_propagation"
	// PolicyRestrictedFlow: no governed asset may flow into an asset picked
	// by params {"to": Selector} within params {"max_depth"} hops.
	PolicyRestrictedFlow PolicyKind = "restricted_flow"
)

// Severity of a policy, carried by its violation alerts.
type Severity string

const (
	SeverityLow      Severity = "low"
	SeverityMedium   Severity = "medium" // the service default
	SeverityHigh     Severity = "high"
	SeverityCritical Severity = "critical"
)

// AnyOf is a list of accepted values (any of them matches). It is sent as a
// JSON list; a single string read from the service decodes as a list of one.
type AnyOf []string

// UnmarshalJSON accepts a string or a list of strings.
func (a *AnyOf) UnmarshalJSON(data []byte) error {
	var one string
	if err := json.Unmarshal(data, &one); err == nil {
		*a = AnyOf{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(data, &many); err != nil {
		return err
	}
	*a = many
	return nil
}

// Selector picks the assets a policy governs; every criterion given must
// hold, and the zero Selector governs every asset. Placeholders are never
// governed.
type Selector struct {
	Type     AnyOf `json:"type,omitempty"`
	Platform AnyOf `json:"platform,omitempty"`
	// Tags must all be present.
	Tags     []string `json:"tags,omitempty"`
	IDPrefix string   `json:"id_prefix,omitempty"`
}

// Policy is a governance rule over the assets its Selector picks. The same
// type is sent and received: Create leaves out the read-only fields (ID,
// Version, CreatedAt, UpdatedAt, EvaluatedAt) and Replace lets the service
// ignore them, so a policy read with Get can be edited and sent back.
type Policy struct {
	// ID is made by the service ("pol_" + ULID).
	ID          string     `json:"id,omitempty"`
	Name        string     `json:"name"`
	Description string     `json:"description,omitempty"`
	Kind        PolicyKind `json:"kind"`
	// Enabled is always set when read; nil when sent means true.
	Enabled *bool `json:"enabled,omitempty"`
	// Severity is empty when sent for the service default, medium.
	Severity Severity `json:"severity,omitempty"`
	Selector Selector `json:"selector,omitzero"`
	// Params depend on Kind; see the PolicyKind constants. A restricted_flow
	// "to" may be a [Selector].
	Params map[string]any `json:"params,omitempty"`

	Version   int       `json:"version,omitempty"`
	CreatedAt time.Time `json:"created_at,omitzero"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
	// EvaluatedAt is when violations were last computed (zero before that).
	EvaluatedAt time.Time `json:"evaluated_at,omitzero"`
}

// writable is the policy without the fields the service makes.
func (p Policy) writable() Policy {
	p.ID, p.Version = "", 0
	p.CreatedAt, p.UpdatedAt, p.EvaluatedAt = time.Time{}, time.Time{}, time.Time{}
	return p
}

// PolicyListOptions filters GET /policies. Empty fields do not filter.
type PolicyListOptions struct {
	Kind    PolicyKind
	Enabled *bool
	ListOptions
}

func (o *PolicyListOptions) query() url.Values {
	q := url.Values{}
	if o == nil {
		return q
	}
	set(q, "kind", string(o.Kind))
	if o.Enabled != nil {
		q.Set("enabled", strconv.FormatBool(*o.Enabled))
	}
	o.ListOptions.encode(q)
	return q
}

// Violation is one asset breaking a policy.
type Violation struct {
	AssetID string `json:"asset_id"`
	Reason  string `json:"reason"`
	// Path is the offending lineage path of asset ids (lineage kinds only).
	Path     []string  `json:"path,omitempty"`
	OpenedAt time.Time `json:"opened_at"`
}

// ViolationPage is one page of a policy's open violations, ordered by asset
// id: a [Page] (Items, NextCursor) that also tells the policy and when it
// was last evaluated.
type ViolationPage struct {
	Page[Violation]
	PolicyID string
	// EvaluatedAt is the latest evaluation's time; zero before the first.
	EvaluatedAt time.Time
}

// UnmarshalJSON reads the service's page, which names its items
// "violations".
func (p *ViolationPage) UnmarshalJSON(data []byte) error {
	var w struct {
		PolicyID    string      `json:"policy_id"`
		EvaluatedAt time.Time   `json:"evaluated_at"`
		Violations  []Violation `json:"violations"`
		NextCursor  string      `json:"next_cursor"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*p = ViolationPage{Page: Page[Violation]{Items: w.Violations, NextCursor: w.NextCursor},
		PolicyID: w.PolicyID, EvaluatedAt: w.EvaluatedAt}
	return nil
}

// EvaluationSummary is the answer of [PoliciesService.Evaluate].
type EvaluationSummary struct {
	EvaluatedAt time.Time          `json:"evaluated_at"`
	Policies    []PolicyEvaluation `json:"policies"`
}

// PolicyEvaluation tells what one evaluation found for one policy.
type PolicyEvaluation struct {
	PolicyID string `json:"policy_id"`
	// Violations open after the evaluation; Opened and Resolved are the
	// changes this evaluation made (a background evaluation may have made
	// them already).
	Violations int `json:"violations"`
	Opened     int `json:"opened"`
	Resolved   int `json:"resolved"`
}

// Policy returns the entry of the policy with this id, or nil.
func (s *EvaluationSummary) Policy(id string) *PolicyEvaluation {
	for i := range s.Policies {
		if s.Policies[i].PolicyID == id {
			return &s.Policies[i]
		}
	}
	return nil
}

// PoliciesService covers /policies.
type PoliciesService struct{ c *Client }

// List returns one page of policies, ordered by id.
func (s *PoliciesService) List(ctx context.Context, opts *PolicyListOptions, ro ...RequestOption) (*Page[Policy], *Response, error) {
	return sendFor[Page[Policy]](ctx, s.c, call{method: http.MethodGet, path: "/policies", query: opts.query(), opts: ro})
}

// All yields every policy that matches opts, following next_cursor.
func (s *PoliciesService) All(ctx context.Context, opts *PolicyListOptions, ro ...RequestOption) iter.Seq2[Policy, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *PolicyListOptions) (*Page[Policy], *Response, error) {
		return s.List(ctx, o, ro...)
	})
}

// Create makes a policy (201); the service chooses its id. An unknown kind,
// selector key or param is an [ErrValidation] naming the field, e.g.
// ["body", "params", "tag"]. Policies are re-evaluated in the background
// after changes; [PoliciesService.Evaluate] does it at once.
func (s *PoliciesService) Create(ctx context.Context, policy Policy, ro ...RequestOption) (*Policy, *Response, error) {
	return sendFor[Policy](ctx, s.c, call{method: http.MethodPost, path: "/policies", body: policy.writable(), opts: ro})
}

// Get reads a policy; [ErrNotFound] if there is none.
func (s *PoliciesService) Get(ctx context.Context, id string, ro ...RequestOption) (*Policy, *Response, error) {
	return sendAt[Policy](ctx, s.c, call{method: http.MethodGet, opts: ro}, "/policies", id)
}

// Replace replaces a policy's definition (PUT; it never creates: an unknown
// id is [ErrNotFound]). policy.ID may be empty; if set it must equal id. With
// [IfMatch], a version mismatch fails with [ErrPreconditionFailed]. An
// unchanged policy keeps its version.
func (s *PoliciesService) Replace(ctx context.Context, id string, policy Policy, ro ...RequestOption) (*Policy, *Response, error) {
	return sendAt[Policy](ctx, s.c, call{method: http.MethodPut, body: policy, opts: ro}, "/policies", id)
}

// Patch changes a policy with a JSON Merge Patch (RFC 7396), e.g.
// map[string]any{"enabled": false}; the result is validated whole.
func (s *PoliciesService) Patch(ctx context.Context, id string, patch any, ro ...RequestOption) (*Policy, *Response, error) {
	k := call{method: http.MethodPatch, body: patch, contentType: mergePatch, opts: ro}
	return sendAt[Policy](ctx, s.c, k, "/policies", id)
}

// Delete removes a policy; its open violations are announced resolved.
func (s *PoliciesService) Delete(ctx context.Context, id string, ro ...RequestOption) (*Response, error) {
	return deleteAt(ctx, s.c, "/policies", id, ro)
}

// ListViolations returns one page of a policy's open violations, as the
// latest evaluation stored them.
func (s *PoliciesService) ListViolations(ctx context.Context, policyID string, opts *ListOptions, ro ...RequestOption) (*ViolationPage, *Response, error) {
	q := url.Values{}
	if opts != nil {
		opts.encode(q)
	}
	return sendAt[ViolationPage](ctx, s.c, call{method: http.MethodGet, query: q, opts: ro}, "/policies", policyID, "/violations")
}

// AllViolations yields every open violation of a policy, following
// next_cursor.
func (s *PoliciesService) AllViolations(ctx context.Context, policyID string, opts *ListOptions, ro ...RequestOption) iter.Seq2[Violation, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[Violation], *Response, error) {
		page, resp, err := s.ListViolations(ctx, policyID, o, ro...)
		if err != nil {
			return nil, resp, err
		}
		return &page.Page, resp, nil
	})
}

// Evaluate evaluates every policy now (POST /policies/evaluate) and tells
// what each found; a disabled policy's violations resolve.
func (s *PoliciesService) Evaluate(ctx context.Context, ro ...RequestOption) (*EvaluationSummary, *Response, error) {
	return sendFor[EvaluationSummary](ctx, s.c, call{method: http.MethodPost, path: "/policies/evaluate", opts: ro})
}
