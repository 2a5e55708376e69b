package governance

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"time"
)

// instantLayout is how the client sends a moment: RFC 3339 in UTC to the
// millisecond, as the service writes its own.
const instantLayout = "2006-01-02T15:04:05.000Z"

// setInstant sets name to t in UTC, unless t is the zero time.
func setInstant(q url.Values, name string, t time.Time) {
	if !t.IsZero() {
		q.Set(name, t.UTC().Format(instantLayout))
	}
}

// Retired is what an origin let go of when a [Replace] made the request its
// whole edge set.
type Retired struct {
	// Edges it asserted before and not now: its assertion withdrawn.
	Edges int `json:"edges"`
	// EdgesRemoved counts those no other origin asserts: they left the graph.
	EdgesRemoved          int `json:"edges_removed"`
	ColumnMappings        int `json:"column_mappings"`
	ColumnMappingsRemoved int `json:"column_mappings_removed"`
}

func (r *Retired) add(o Retired) {
	r.Edges += o.Edges
	r.EdgesRemoved += o.EdgesRemoved
	r.ColumnMappings += o.ColumnMappings
	r.ColumnMappingsRemoved += o.ColumnMappingsRemoved
}

// Origin names the writer a bulk write asserts its edges for, such as
// "airflow:warehouse_sync" (default "api"). Give it with [Replace] to make the
// request that writer's whole edge set.
func Origin(name string) RequestOption { return func(r *requestOptions) { r.origin = &name } }

// Replace makes a bulk write with [Origin] that origin's whole edge set: the
// edges it asserted before and not in this request are retired
// ([BulkResult.Retired]); an edge another origin still asserts stays in the
// graph. The replacement is one request, so [LineageService.PushBulk] refuses
// more edges than one chunk.
func Replace() RequestOption { return func(r *requestOptions) { r.replace = true } }

var errReplaceWithoutOrigin = errors.New("governance: Replace needs an Origin: the edge set it replaces is that origin's")

// replacing tells whether ro make a bulk write a replacement, refusing
// [Replace] without [Origin] before anything is sent.
func replacing(ro []RequestOption) (bool, error) {
	o := call{opts: ro}.options()
	if o.replace && o.origin == nil {
		return false, errReplaceWithoutOrigin
	}
	return o.replace, nil
}

// DiffOptions bound a lineage diff. Zero values take the service defaults.
type DiffOptions struct {
	// To is the later moment; zero means now.
	To time.Time
	// Direction of both neighbourhoods ("" means both).
	Direction Direction
	// Depth is the most hops from the root, 1-50 (default 5).
	Depth int
	// Limit is the most nodes of each neighbourhood, the root included
	// (default 2,000); when reached the diff says Truncated.
	Limit int
}

// GraphChanges are the nodes and edges one side of a diff has and the other
// lacks, in the shapes of a traversal.
type GraphChanges struct {
	Nodes []GraphNode `json:"nodes"`
	Edges []GraphEdge `json:"edges"`
}

// ChangedEdge is an edge there at both moments whose transformation
// changed: Transformation is the one at To.
type ChangedEdge struct {
	GraphEdge
	PreviousTransformation string `json:"previous_transformation,omitempty"`
}

// LineageDiff is how an asset's lineage changed between two moments, over
// the union of both neighbourhoods.
type LineageDiff struct {
	Root      string    `json:"root"`
	Direction Direction `json:"direction"`
	Depth     int       `json:"depth"`
	From      time.Time `json:"from"`
	To        time.Time `json:"to"`
	// Added holds what is there at To and was not at From (as shown at To);
	// Removed the other way round (as shown at From).
	Added   GraphChanges `json:"added"`
	Removed GraphChanges `json:"removed"`
	// Changed holds the edges there at both whose transformation changed.
	Changed struct {
		Edges []ChangedEdge `json:"edges"`
	} `json:"changed"`
	// Truncated: either neighbourhood was cut at the node limit.
	Truncated bool `json:"truncated"`
}

// Diff compares the lineage around an asset at from with that at opts.To
// (now by default). A root that existed at only one moment has an empty
// neighbourhood at the other; one that existed at neither is [ErrNotFound].
func (s *LineageService) Diff(ctx context.Context, id string, from time.Time, opts *DiffOptions, ro ...RequestOption) (*LineageDiff, *Response, error) {
	if from.IsZero() {
		return nil, nil, errors.New("governance: a diff needs the moment it starts from")
	}
	q := url.Values{}
	setInstant(q, "from", from)
	if opts != nil {
		setInstant(q, "to", opts.To)
		set(q, "direction", string(opts.Direction))
		if opts.Depth != 0 {
			q.Set("depth", strconv.Itoa(opts.Depth))
		}
		if opts.Limit != 0 {
			q.Set("limit", strconv.Itoa(opts.Limit))
		}
	}
	return sendAt[LineageDiff](ctx, s.c, call{method: http.MethodGet, query: q, opts: ro}, "/lineage", id, "/diff")
}

// AssetVersion is one version of an asset: when it was made, by whom, and
// what it changed from the version before.
type AssetVersion struct {
	Version int       `json:"version"`
	At      time.Time `json:"at"`
	// Actor is who made the change: "token:<id>", "user:<id>", or "system"
	// for an asset that existed before history was kept.
	Actor string `json:"actor"`
	// Deleted is true for the version that says the asset was deleted.
	Deleted bool            `json:"deleted"`
	Changes []VersionChange `json:"changes"`
}

// VersionChange is one difference from the version before: a field
// (Change "set", Column empty) with its old and new value, or, with Field
// "columns", one column "added", "removed", "retyped" or "changed" (From
// and To are then the column as declared). Values are JSON values as
// encoding/json reads them into an any; nil where there is none.
type VersionChange struct {
	Field  string `json:"field"`
	Column string `json:"column,omitempty"`
	Change string `json:"change"`
	From   any    `json:"from"`
	To     any    `json:"to"`
}

// ListHistory returns one page of an asset's versions, newest first.
func (s *AssetsService) ListHistory(ctx context.Context, id string, opts *ListOptions, ro ...RequestOption) (*Page[AssetVersion], *Response, error) {
	return listPageAt[AssetVersion](ctx, s.c, "/assets", id, "/history", opts, ro)
}

// AllHistory yields every version of an asset, newest first, following
// next_cursor.
func (s *AssetsService) AllHistory(ctx context.Context, id string, opts *ListOptions, ro ...RequestOption) iter.Seq2[AssetVersion, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *ListOptions) (*Page[AssetVersion], *Response, error) {
		return s.ListHistory(ctx, id, o, ro...)
	})
}

// ImpactChange is one difference between a candidate manifest and the stored
// project. Kind is model_removed, column_removed, column_type_changed,
// test_removed, model_added, column_added, materialization_changed or
// another the service knows; removals and type changes are Breaking. From
// and To are the stored and the candidate's value (a column's type, a
// materialization, ...), empty where the kind has none.
type ImpactChange struct {
	Kind     string `json:"kind"`
	Asset    string `json:"asset"`
	Column   string `json:"column,omitempty"`
	From     string `json:"from,omitempty"`
	To       string `json:"to,omitempty"`
	Breaking bool   `json:"breaking"`
}

// ImpactedAsset is an asset (or one of its columns, where column lineage
// says) downstream of a breaking change.
type ImpactedAsset struct {
	Asset    string   `json:"asset"`
	Column   string   `json:"column,omitempty"`
	Distance int      `json:"distance"`
	Owners   []string `json:"owners"`
	// Via is the path from the changed asset (first) to this one (last):
	// asset ids, or "asset.column" for a column.
	Via []string `json:"via"`
}

// ImpactReport is what a candidate manifest would change and break.
type ImpactReport struct {
	Project  string          `json:"project"`
	Changes  []ImpactChange  `json:"changes"`
	Impacted []ImpactedAsset `json:"impacted"`
	// Breaking tells whether any change is.
	Breaking bool `json:"breaking"`
	// Depth is how many hops downstream the walk went at most.
	Depth int `json:"depth"`
}

// ImpactDepth bounds how many hops downstream [LineageService.CheckManifest]
// walks (the service's default is its maximum lineage depth).
func ImpactDepth(hops int) RequestOption { return func(r *requestOptions) { r.depth = &hops } }

// CheckManifest sends a candidate dbt manifest.json (plain or gzipped, with
// [Project] and [Namespace] as for [LineageService.UploadManifest], and
// [ImpactDepth]) and answers what uploading it would change and whom that
// would break; the service writes nothing, so the request is retried like a
// read. A project never uploaded is [ErrNotFound] (code unknown_project).
// Each attempt may take up to [ManifestTimeout].
func (s *LineageService) CheckManifest(ctx context.Context, manifest []byte, ro ...RequestOption) (*ImpactReport, *Response, error) {
	body, err := gzipped(manifest, "the manifest")
	if err != nil {
		return nil, nil, err
	}
	return sendFor[ImpactReport](ctx, s.c, call{
		method: http.MethodPost, path: "/impact/manifest", raw: body,
		contentType: "application/json", contentEncoding: "gzip",
		timeout: ManifestTimeout, repeatable: true, opts: ro,
	})
}

// CheckManifestFile reads a manifest file (such as target/manifest.json) and
// checks it with [LineageService.CheckManifest].
func (s *LineageService) CheckManifestFile(ctx context.Context, path string, ro ...RequestOption) (*ImpactReport, *Response, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("governance: reading the manifest: %w", err)
	}
	return s.CheckManifest(ctx, data, ro...)
}
