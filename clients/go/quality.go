package governance

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"os"
	"time"
)

// RuleType is what a quality rule checks; see [QualityRule.Params].
type RuleType string

const (
	RuleNotNull        RuleType = "not_null"
	RuleUnique         RuleType = "unique"
	RuleAcceptedValues RuleType = "accepted_values" // params {"values": [...]}
	RuleRelationships  RuleType = "relationships"   // params {"to", "field"?}
	RuleRange          RuleType = "range"           // params {"min"?, "max"?}, at least one
	RuleFreshness      RuleType = "freshness"       // params {"max_age_hours"}
	RuleRowCount       RuleType = "row_count"       // params {"min"?, "max"?}, at least one
	RuleCustom         RuleType = "custom"          // params: any object
)

// RuleSeverity of a quality rule.
type RuleSeverity string

const (
	RuleSeverityWarn  RuleSeverity = "warn" // the service default
	RuleSeverityError RuleSeverity = "error"
)

// RuleStatus is a rule's state, following its newest result by run time.
type RuleStatus string

const (
	RuleStatusUnknown RuleStatus = "unknown" // no result yet
	RuleStatusPassing RuleStatus = "passing"
	RuleStatusFailing RuleStatus = "failing"
	RuleStatusError   RuleStatus = "error" // the check could not run
)

// ResultStatus is the outcome of one run of a rule.
type ResultStatus string

const (
	ResultPass  ResultStatus = "pass"
	ResultFail  ResultStatus = "fail"
	ResultError ResultStatus = "error"
)

// QualityRule is a data quality check on one asset (and optionally one
// column). The same type is sent and received: Create leaves out the
// read-only fields (ID, Status, LastResult, Origin, Version, CreatedAt,
// UpdatedAt) and Replace lets the service ignore them.
type QualityRule struct {
	// ID is made by the service ("qr_" + ULID), or is a dbt test's unique_id.
	ID string `json:"id,omitempty"`
	// AssetID must name an existing asset.
	AssetID string   `json:"asset_id"`
	Column  string   `json:"column,omitempty"`
	Name    string   `json:"name"`
	Type    RuleType `json:"type"`
	// Params depend on Type; see the RuleType constants.
	Params map[string]any `json:"params,omitempty"`
	// Severity is empty when sent for the service default, warn.
	Severity RuleSeverity `json:"severity,omitempty"`
	// Enabled is always set when read; nil when sent means true. A disabled
	// rule records results but raises no alerts.
	Enabled *bool `json:"enabled,omitempty"`

	Status     RuleStatus  `json:"status,omitempty"`
	LastResult *LastResult `json:"last_result,omitempty"`
	// Origin is "api", or "dbt:<project>" for rules made from dbt tests.
	Origin    string    `json:"origin,omitempty"`
	Version   int       `json:"version,omitempty"`
	CreatedAt time.Time `json:"created_at,omitzero"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

func (r QualityRule) writable() QualityRule {
	r.ID, r.Status, r.LastResult, r.Origin, r.Version = "", "", nil, "", 0
	r.CreatedAt, r.UpdatedAt = time.Time{}, time.Time{}
	return r
}

// LastResult is the result a rule's status follows.
type LastResult struct {
	Status        ResultStatus `json:"status"`
	ObservedValue any          `json:"observed_value,omitempty"`
	Message       string       `json:"message,omitempty"`
	RunAt         time.Time    `json:"run_at,omitzero"`
	Source        string       `json:"source,omitempty"`
}

// RuleListOptions filters GET /quality/rules. Empty fields do not filter.
type RuleListOptions struct {
	AssetID string
	Status  RuleStatus
	Type    RuleType
	ListOptions
}

func (o *RuleListOptions) query() url.Values {
	q := url.Values{}
	if o == nil {
		return q
	}
	set(q, "asset_id", o.AssetID)
	set(q, "status", string(o.Status))
	set(q, "type", string(o.Type))
	o.ListOptions.encode(q)
	return q
}

// ResultInput is one run of a rule to record.
type ResultInput struct {
	Status ResultStatus
	// ObservedValue is any JSON value, e.g. a failing-row count; nil sends none.
	ObservedValue any
	Message       string
	// RunAt is when the check ran; zero means now (the service's clock).
	RunAt time.Time
}

// MarshalJSON writes RunAt in the service's form (UTC, milliseconds, Z).
func (r ResultInput) MarshalJSON() ([]byte, error) {
	wire := struct {
		Status        ResultStatus `json:"status"`
		ObservedValue any          `json:"observed_value,omitempty"`
		Message       string       `json:"message,omitempty"`
		RunAt         string       `json:"run_at,omitempty"`
	}{Status: r.Status, ObservedValue: r.ObservedValue, Message: r.Message}
	if !r.RunAt.IsZero() {
		wire.RunAt = r.RunAt.UTC().Format("2006-01-02T15:04:05.000Z07:00")
	}
	return json.Marshal(wire)
}

// QualityResult is a recorded run of a rule.
type QualityResult struct {
	ID            string       `json:"id"`
	RuleID        string       `json:"rule_id"`
	Status        ResultStatus `json:"status"`
	ObservedValue any          `json:"observed_value,omitempty"`
	Message       string       `json:"message,omitempty"`
	RunAt         time.Time    `json:"run_at"`
	RecordedAt    time.Time    `json:"recorded_at"`
	// Source is "api", or "dbt:<invocation_id>" for dbt run results.
	Source string `json:"source"`
}

// DbtResultsSummary is the answer of a dbt run_results.json upload.
type DbtResultsSummary struct {
	Received int `json:"received"` // results in the file
	Recorded int `json:"recorded"` // test results recorded against a rule
	// Unmatched are test unique_ids with no rule (upload the manifest first).
	Unmatched []string `json:"unmatched"`
	Skipped   int      `json:"skipped"` // tests dbt skipped
	Ignored   int      `json:"ignored"` // results of models, seeds, snapshots
	// Stale results are older than their rule's newest: kept in its history,
	// its status unchanged.
	Stale int `json:"stale"`
	// Duplicates this dbt invocation had already recorded.
	Duplicates int `json:"duplicates"`
	// Failed and Recovered are the rules that turned failing or passing.
	Failed    []string `json:"failed"`
	Recovered []string `json:"recovered"`
}

// QualityService covers /quality: rules, their results, and dbt run results.
type QualityService struct{ c *Client }

const rulesPath = "/quality/rules"

// ListRules returns one page of quality rules, ordered by id.
func (s *QualityService) ListRules(ctx context.Context, opts *RuleListOptions, ro ...RequestOption) (*Page[QualityRule], *Response, error) {
	return sendFor[Page[QualityRule]](ctx, s.c, call{method: http.MethodGet, path: rulesPath, query: opts.query(), opts: ro})
}

// AllRules yields every rule that matches opts, following next_cursor.
func (s *QualityService) AllRules(ctx context.Context, opts *RuleListOptions, ro ...RequestOption) iter.Seq2[QualityRule, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *RuleListOptions) (*Page[QualityRule], *Response, error) {
		return s.ListRules(ctx, o, ro...)
	})
}

// CreateRule makes a rule (201); the service chooses its id. An unknown
// asset, or params that do not fit the type, is an [ErrValidation] naming
// the field.
func (s *QualityService) CreateRule(ctx context.Context, rule QualityRule, ro ...RequestOption) (*QualityRule, *Response, error) {
	return sendFor[QualityRule](ctx, s.c, call{method: http.MethodPost, path: rulesPath, body: rule.writable(), opts: ro})
}

// GetRule reads a rule; [ErrNotFound] if there is none.
func (s *QualityService) GetRule(ctx context.Context, id string, ro ...RequestOption) (*QualityRule, *Response, error) {
	return sendAt[QualityRule](ctx, s.c, call{method: http.MethodGet, opts: ro}, rulesPath, id)
}

// ReplaceRule replaces a rule's definition (PUT; it never creates: an
// unknown id is [ErrNotFound]). Status and history are kept. With
// [IfMatch], a version mismatch fails with [ErrPreconditionFailed].
func (s *QualityService) ReplaceRule(ctx context.Context, id string, rule QualityRule, ro ...RequestOption) (*QualityRule, *Response, error) {
	return sendAt[QualityRule](ctx, s.c, call{method: http.MethodPut, body: rule, opts: ro}, rulesPath, id)
}

// PatchRule changes a rule's definition with a JSON Merge Patch (RFC 7396),
// e.g. map[string]any{"severity": "error", "column": nil}.
func (s *QualityService) PatchRule(ctx context.Context, id string, patch any, ro ...RequestOption) (*QualityRule, *Response, error) {
	k := call{method: http.MethodPatch, body: patch, contentType: mergePatch, opts: ro}
	return sendAt[QualityRule](ctx, s.c, k, rulesPath, id)
}

// DeleteRule removes a rule and its results.
func (s *QualityService) DeleteRule(ctx context.Context, id string, ro ...RequestOption) (*Response, error) {
	return deleteAt(ctx, s.c, rulesPath, id, ro)
}

// RecordResult records one run of a rule (201). The rule's status follows
// its newest result by RunAt; turning failing raises a quality.rule.failed
// alert.
func (s *QualityService) RecordResult(ctx context.Context, ruleID string, result ResultInput, ro ...RequestOption) (*QualityResult, *Response, error) {
	return sendAt[QualityResult](ctx, s.c, call{method: http.MethodPost, body: result, opts: ro}, rulesPath, ruleID, "/results")
}

// ListResults returns one page of a rule's results, newest first.
func (s *QualityService) ListResults(ctx context.Context, ruleID string, opts *ListOptions, ro ...RequestOption) (*Page[QualityResult], *Response, error) {
	return listPageAt[QualityResult](ctx, s.c, rulesPath, ruleID, "/results", opts, ro)
}

// AllResults yields a rule's results, newest first, following next_cursor.
func (s *QualityService) AllResults(ctx context.Context, ruleID string, opts *ListOptions, ro ...RequestOption) iter.Seq2[QualityResult, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[QualityResult], *Response, error) {
		return s.ListResults(ctx, ruleID, o, ro...)
	})
}

// UploadRunResults records a dbt run_results.json (schema v4 and later):
// each data test's result goes to the rule whose id is the test's unique_id,
// as made by a manifest upload ([LineageService.UploadManifest]), so upload
// the manifest first. The bytes are gzipped on the way unless they already
// are. Uploading the same dbt invocation again records nothing (Duplicates),
// so the upload is retried like other POSTs. Each attempt may take up to
// [ManifestTimeout].
func (s *QualityService) UploadRunResults(ctx context.Context, runResults []byte, ro ...RequestOption) (*DbtResultsSummary, *Response, error) {
	return uploadGzipped[DbtResultsSummary](ctx, s.c, "/quality/results/dbt", runResults, "the run results", ro)
}

// UploadRunResultsFile reads a run results file (plain or gzipped, such as
// target/run_results.json) and uploads it with [QualityService.UploadRunResults].
func (s *QualityService) UploadRunResultsFile(ctx context.Context, path string, ro ...RequestOption) (*DbtResultsSummary, *Response, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("governance: reading the run results: %w", err)
	}
	return s.UploadRunResults(ctx, data, ro...)
}
