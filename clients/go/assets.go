package governance

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// Asset is a data asset: a table, view, model, file, topic, dashboard, ...
// The same type is sent and received; the read-only fields (Aliases,
// Placeholder, CreatedAt, UpdatedAt, Version) are ignored by the service when
// sent, so an asset read with Get can be edited and sent back with Put.
type Asset struct {
	// ID is chosen by the client: 1-512 characters, no whitespace; may hold
	// "/", ":", "@", "(", ")", ",", "$", "#" and any Unicode letter.
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Type is an open vocabulary: table, view, model, source, seed, snapshot,
	// file, topic, dashboard, report, ml_model, job, pipeline, exposure, unknown.
	Type        string   `json:"type"`
	Platform    string   `json:"platform,omitempty"`
	Description string   `json:"description,omitempty"`
	Owners      []string `json:"owners,omitempty"`
	// Tags are stored lower-case, duplicates dropped.
	Tags    []string `json:"tags,omitempty"`
	Columns []Column `json:"columns,omitempty"`
	// Properties values are strings, numbers (float64 when read) or booleans.
	Properties map[string]any `json:"properties,omitempty"`
	// Dataset is the physical dataset this asset is, if any; at most one
	// asset holds a dataset, across every tool that names it. It is read
	// back normalised by the platform's naming rules. Claiming a dataset a
	// placeholder (or another weak holder) holds merges that asset into this
	// one; one that another explicitly created asset holds fails with
	// [ErrConflict], code dataset_taken (Extensions["holder"] names it).
	Dataset *Dataset `json:"dataset,omitempty"`

	// Aliases are the former ids of assets merged into this one; each still
	// names this asset wherever an id is taken.
	Aliases []string `json:"aliases,omitempty"`
	// Placeholder is true for an asset made by lineage that names an unknown id.
	Placeholder bool      `json:"placeholder,omitempty"`
	CreatedAt   time.Time `json:"created_at,omitzero"`
	UpdatedAt   time.Time `json:"updated_at,omitzero"`
	// Version starts at 1 and rises with each change; see [IfMatch].
	Version int `json:"version,omitempty"`
	// Domain is the domain the asset is in (empty: none). Read-only: the
	// domains' rules decide, and the service ignores it in a write.
	Domain string `json:"domain,omitempty"`
}

// Dataset is a physical dataset as OpenLineage names it: a Namespace such as
// "snowflake://acme-prod" or "postgres://db:5432" and a Name such as
// "ANALYTICS.PUBLIC.ORDERS". The service normalises both by the platform's
// rules (Snowflake upper-cases unquoted names, Postgres lower-cases them,
// default ports are added), so any spelling the platform takes as the same
// table names the same dataset.
type Dataset struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

// Column is one column of an asset.
type Column struct {
	Name        string   `json:"name"`
	Type        string   `json:"type,omitempty"`
	Description string   `json:"description,omitempty"`
	Tags        []string `json:"tags,omitempty"`
}

// AssetListOptions filters GET /assets. Empty fields do not filter.
type AssetListOptions struct {
	Type     string
	Platform string
	// Tags: an asset must carry every one.
	Tags  []string
	Owner string
	// Q is a case-insensitive substring of id, name or description.
	Q           string
	Placeholder *bool
	// DatasetNamespace lists the assets whose dataset lies in this
	// namespace; with DatasetName as well, the one asset holding that
	// dataset (0 or 1 items). Both are normalised first, so any spelling
	// finds it. DatasetName needs DatasetNamespace.
	DatasetNamespace string
	DatasetName      string
	// Domain lists the assets in this domain.
	Domain string
	ListOptions
}

func (o *AssetListOptions) query() url.Values {
	q := url.Values{}
	if o == nil {
		return q
	}
	set(q, "type", o.Type)
	set(q, "platform", o.Platform)
	set(q, "owner", o.Owner)
	set(q, "q", o.Q)
	set(q, "dataset_namespace", o.DatasetNamespace)
	set(q, "dataset_name", o.DatasetName)
	set(q, "domain", o.Domain)
	for _, t := range o.Tags {
		q.Add("tag", t)
	}
	if o.Placeholder != nil {
		q.Set("placeholder", strconv.FormatBool(*o.Placeholder))
	}
	o.ListOptions.encode(q)
	return q
}

func set(q url.Values, name, value string) {
	if value != "" {
		q.Set(name, value)
	}
}

// AssetsService covers /assets.
type AssetsService struct{ c *Client }

// List returns one page of assets, ordered by id.
func (s *AssetsService) List(ctx context.Context, opts *AssetListOptions, ro ...RequestOption) (*Page[Asset], *Response, error) {
	return sendFor[Page[Asset]](ctx, s.c, call{method: http.MethodGet, path: "/assets", query: opts.query(), opts: ro})
}

// All yields every asset that matches opts, from opts.Cursor on, fetching
// pages of opts.Limit as the loop goes. An error ends the sequence.
func (s *AssetsService) All(ctx context.Context, opts *AssetListOptions, ro ...RequestOption) iter.Seq2[Asset, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *AssetListOptions) (*Page[Asset], *Response, error) {
		return s.List(ctx, o, ro...)
	})
}

// Create makes an asset (201). It fails with [ErrConflict] if a real asset
// has the id (or had it: a former id); a placeholder with the id is claimed
// and keeps its edges. With asset.Dataset, a placeholder holding the dataset
// is merged in (its id becomes one of the Aliases); a dataset another
// explicitly created asset holds fails with [ErrConflict], code
// dataset_taken.
func (s *AssetsService) Create(ctx context.Context, asset Asset, ro ...RequestOption) (*Asset, *Response, error) {
	return sendFor[Asset](ctx, s.c, call{method: http.MethodPost, path: "/assets", body: asset, opts: ro})
}

// Get reads an asset; [ErrNotFound] if there is none. id may be a former id
// (one of an asset's Aliases): the answer is the asset it names now, with its
// current ID. The answer's ETag is the version (see [Response.ETag]).
func (s *AssetsService) Get(ctx context.Context, id string, ro ...RequestOption) (*Asset, *Response, error) {
	return sendAt[Asset](ctx, s.c, call{method: http.MethodGet, opts: ro}, "/assets", id)
}

// Put creates or replaces the asset with this id (an idempotent upsert for
// sync jobs); [Response.Created] tells which. asset.ID may be empty; if set
// it must equal id. A former id replaces the asset it names now. A Dataset
// is claimed as by [AssetsService.Create]; none leaves the asset holding no
// dataset. With [IfMatch], a version mismatch fails with
// [ErrPreconditionFailed].
func (s *AssetsService) Put(ctx context.Context, id string, asset Asset, ro ...RequestOption) (*Asset, *Response, error) {
	return sendAt[Asset](ctx, s.c, call{method: http.MethodPut, body: asset, opts: ro}, "/assets", id)
}

// Patch changes an asset with a JSON Merge Patch (RFC 7396): the members of
// patch replace the asset's, a nil value removes a field, e.g.
// map[string]any{"description": "...", "platform": nil}. patch may also be
// a struct or json.RawMessage. The id cannot change; "dataset" takes a
// [Dataset] (a claim, as in [AssetsService.Create]) or nil (the asset no
// longer holds one).
func (s *AssetsService) Patch(ctx context.Context, id string, patch any, ro ...RequestOption) (*Asset, *Response, error) {
	k := call{method: http.MethodPatch, body: patch, contentType: mergePatch, opts: ro}
	return sendAt[Asset](ctx, s.c, k, "/assets", id)
}

// Delete removes an asset and its lineage edges.
func (s *AssetsService) Delete(ctx context.Context, id string, ro ...RequestOption) (*Response, error) {
	return deleteAt(ctx, s.c, "/assets", id, ro)
}
