package governance

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// MaxBulkEdges is the most edges the service takes in one bulk request.
const MaxBulkEdges = 10_000

// EdgeInput is an edge to write: data flows from its source into its
// target. Each end is an asset id (Source, Target; a former id names the
// asset it was merged into) or a physical dataset (SourceDataset,
// TargetDataset), which names the asset holding it; a dataset nobody holds
// gets a placeholder asset "<namespace>/<name>" (normalised) holding it,
// unless [Strict] is given. Give one of the two for each end.
type EdgeInput struct {
	Source        string
	SourceDataset *Dataset
	Target        string
	TargetDataset *Dataset
	// Transformation is SQL or free text; empty leaves an existing one as is.
	Transformation string
	// Columns are column mappings along the edge, added to those it has
	// (up to 10,000 per edge).
	Columns []ColumnMappingInput
}

// edgeWire is an [EdgeInput] as it is sent: each end is an id string or a
// *Dataset. Ends held as any are encoded by reflection, not by a MarshalJSON
// whose output encoding/json would parse again: a bulk of 1,000 edges
// encodes several times faster this way.
type edgeWire struct {
	Source         any                  `json:"source"`
	Target         any                  `json:"target"`
	Transformation string               `json:"transformation,omitempty"`
	Columns        []ColumnMappingInput `json:"columns,omitempty"`
}

// edgeJSON is an edge as it is read: each end is an id string or a dataset
// object.
type edgeJSON struct {
	Source         json.RawMessage      `json:"source"`
	Target         json.RawMessage      `json:"target"`
	Transformation string               `json:"transformation,omitempty"`
	Columns        []ColumnMappingInput `json:"columns,omitempty"`
}

// MarshalJSON writes each end as the service takes it: the id as a string,
// or the dataset as {"namespace", "name"}. An end given both ways is an
// error.
func (e EdgeInput) MarshalJSON() ([]byte, error) {
	w, err := e.wire()
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

func (e EdgeInput) wire() (edgeWire, error) {
	source, err := wireEnd("source", e.Source, e.SourceDataset)
	if err != nil {
		return edgeWire{}, err
	}
	target, err := wireEnd("target", e.Target, e.TargetDataset)
	if err != nil {
		return edgeWire{}, err
	}
	return edgeWire{Source: source, Target: target, Transformation: e.Transformation, Columns: e.Columns}, nil
}

// wireEdges is edges as they are sent.
func wireEdges(edges []EdgeInput) ([]edgeWire, error) {
	out := make([]edgeWire, len(edges))
	for i, e := range edges {
		w, err := e.wire()
		if err != nil {
			return nil, fmt.Errorf("governance: edge %d: %w", i, err)
		}
		out[i] = w
	}
	return out, nil
}

// UnmarshalJSON reads an edge as the service takes it (each end an id
// string or a dataset object), such as an edge list kept in a file.
func (e *EdgeInput) UnmarshalJSON(data []byte) error {
	var w edgeJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	out := EdgeInput{Transformation: w.Transformation, Columns: w.Columns}
	if err := decodeEnd("source", w.Source, &out.Source, &out.SourceDataset); err != nil {
		return err
	}
	if err := decodeEnd("target", w.Target, &out.Target, &out.TargetDataset); err != nil {
		return err
	}
	*e = out
	return nil
}

func wireEnd(end, id string, dataset *Dataset) (any, error) {
	if dataset != nil {
		if id != "" {
			return nil, fmt.Errorf("governance: the edge's %s is given both as an id and as a dataset", end)
		}
		return dataset, nil
	}
	return id, nil
}

func decodeEnd(end string, raw json.RawMessage, id *string, dataset **Dataset) error {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		*dataset = new(Dataset)
		if err := json.Unmarshal(trimmed, *dataset); err != nil {
			return fmt.Errorf("governance: the edge's %s: %w", end, err)
		}
		return nil
	}
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return nil
	}
	if err := json.Unmarshal(trimmed, id); err != nil {
		return fmt.Errorf("governance: the edge's %s: %w", end, err)
	}
	return nil
}

// ColumnMappingInput says that column Source of an edge's source asset feeds
// column Target of its target asset.
type ColumnMappingInput struct {
	Source string `json:"source"`
	Target string `json:"target"`
	// Transformation is how, such as "upper(email)"; a given one replaces the
	// mapping's old one, empty leaves it as is.
	Transformation string `json:"transformation,omitempty"`
}

// Edge is a stored lineage edge.
type Edge struct {
	Source         string `json:"source"`
	Target         string `json:"target"`
	Transformation string `json:"transformation,omitempty"`
	// Origins are the writers that asserted it: "api", "dbt:<project>", ...
	Origins []string `json:"origins,omitempty"`
	// Columns are its column mappings, by source then target column (read by
	// [LineageService.ListEdges]; traversals leave them out).
	Columns   []ColumnMapping `json:"columns,omitempty"`
	CreatedAt time.Time       `json:"created_at,omitzero"`
	UpdatedAt time.Time       `json:"updated_at,omitzero"`
}

// ColumnMapping is a stored column mapping of an edge.
type ColumnMapping struct {
	Source         string   `json:"source"`
	Target         string   `json:"target"`
	Transformation string   `json:"transformation,omitempty"`
	Origins        []string `json:"origins,omitempty"`
}

// BulkResult is the answer of a bulk write.
type BulkResult struct {
	Received      int `json:"received"`       // items sent
	Created       int `json:"created"`        // edges that did not exist before
	Existing      int `json:"existing"`       // distinct pairs that already existed
	AssetsCreated int `json:"assets_created"` // placeholder assets made for unknown ids
	// Retired is set for a write with [Replace]: what the origin asserted
	// before and the request left out.
	Retired *Retired `json:"retired,omitempty"`
	// ColumnMappings is set when the request carried column mappings.
	ColumnMappings *Counts `json:"column_mappings,omitempty"`
}

// Counts tells how many things a write made and how many existed already.
type Counts struct {
	Created  int `json:"created"`
	Existing int `json:"existing"`
}

func (c *Counts) add(o Counts) {
	c.Created += o.Created
	c.Existing += o.Existing
}

func (r *BulkResult) add(o BulkResult) {
	r.Received += o.Received
	r.Created += o.Created
	r.Existing += o.Existing
	r.AssetsCreated += o.AssetsCreated
	if o.Retired != nil {
		if r.Retired == nil {
			r.Retired = &Retired{}
		}
		r.Retired.add(*o.Retired)
	}
	if o.ColumnMappings != nil {
		if r.ColumnMappings == nil {
			r.ColumnMappings = &Counts{}
		}
		r.ColumnMappings.add(*o.ColumnMappings)
	}
}

// EdgeListOptions filters GET /lineage/edges. Empty fields do not filter.
type EdgeListOptions struct {
	Source string
	Target string
	// Origin is a writer such as "api" or "dbt:jaffle_shop".
	Origin string
	ListOptions
}

func (o *EdgeListOptions) query() url.Values {
	q := url.Values{}
	if o == nil {
		return q
	}
	set(q, "source", o.Source)
	set(q, "target", o.Target)
	set(q, "origin", o.Origin)
	o.ListOptions.encode(q)
	return q
}

// Direction of a traversal.
type Direction string

const (
	DirectionBoth       Direction = "both"
	DirectionUpstream   Direction = "upstream"
	DirectionDownstream Direction = "downstream"
)

// TraversalOptions bound a lineage traversal. Zero values take the service
// defaults. Cursor, the filters and Fanout page and filter the traversals of
// assets ([LineageService.Graph], Upstream, Downstream, GraphPages); a column
// traversal given any of them fails before anything is sent.
type TraversalOptions struct {
	// Depth is the most hops from the root, 1-50 (default 5).
	Depth int
	// Limit is the most nodes in one page, the root included, 1-10,000
	// (default 2,000); when more are left the graph has a NextCursor.
	Limit int
	// AsOf, when set, reads the graph as it stood at that moment; a root that
	// did not exist then is [ErrNotFound].
	AsOf time.Time
	// Cursor is a previous page's [Graph.NextCursor], asked for with the same
	// other options; empty for the first page.
	Cursor string
	// Types, Platforms, Tags and Owners show only the assets that match: any
	// value of one filter, and every filter given. The walk still goes
	// through the hidden ones, which [Graph.Hidden] counts. Neither
	// the filters nor Fanout go with AsOf: the service refuses the pair
	// ([ErrValidation]).
	Types     []string
	Platforms []string
	Tags      []string
	Owners    []string
	// Fanout is the most neighbours shown of any one node; the nodes that
	// had more are listed in [Graph.Capped]. 0 means no cap.
	Fanout int
}

func (o *TraversalOptions) query() url.Values {
	q := url.Values{}
	if o == nil {
		return q
	}
	if o.Depth != 0 {
		q.Set("depth", strconv.Itoa(o.Depth))
	}
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	setInstant(q, "as_of", o.AsOf)
	set(q, "cursor", o.Cursor)
	addAll(q, "type", o.Types)
	addAll(q, "platform", o.Platforms)
	addAll(q, "tag", o.Tags)
	addAll(q, "owner", o.Owners)
	if o.Fanout != 0 {
		q.Set("fanout", strconv.Itoa(o.Fanout))
	}
	return q
}

// addAll repeats name once for each value.
func addAll(q url.Values, name string, values []string) {
	for _, v := range values {
		q.Add(name, v)
	}
}

var errColumnPaging = errors.New("governance: column traversals take no Cursor, filters or Fanout")

// forColumns is the query of a column traversal, which neither pages nor
// filters: such options are refused rather than silently dropped.
func (o *TraversalOptions) forColumns() (url.Values, error) {
	if o != nil && (o.Cursor != "" || o.Fanout != 0 ||
		len(o.Types)+len(o.Platforms)+len(o.Tags)+len(o.Owners) > 0) {
		return nil, errColumnPaging
	}
	return o.query(), nil
}

// Graph is the answer of a traversal: one page of it.
type Graph struct {
	Root      string      `json:"root"`
	Direction Direction   `json:"direction"`
	Depth     int         `json:"depth"`
	Nodes     []GraphNode `json:"nodes"`
	// Edges are the edges in the traversed direction that join a node of
	// this page to one of this or an earlier page, so each edge comes in
	// exactly one page (that of its later end).
	Edges []GraphEdge `json:"edges"`
	// Truncated tells that more nodes are left: NextCursor is not empty.
	Truncated bool `json:"truncated"`
	// NextCursor asks for the next page (as [TraversalOptions.Cursor], with
	// the same other options); empty on the last page.
	NextCursor string `json:"next_cursor"`
	// Remaining counts the nodes on each side not returned yet.
	Remaining SideCounts `json:"remaining"`
	// Hidden counts the nodes on each side that the walk went through but
	// the filters hide.
	Hidden SideCounts `json:"hidden"`
	// Capped lists the nodes that had more neighbours than the fanout shows.
	Capped []CappedNode `json:"capped"`
	// Redacted counts the nodes of Nodes that are stand-ins for nodes the
	// caller may not read.
	Redacted int `json:"redacted"`
}

// SideCounts counts nodes upstream and downstream of a traversal's root; a
// side the traversal does not walk counts 0.
type SideCounts struct {
	Upstream   int `json:"upstream"`
	Downstream int `json:"downstream"`
}

// CappedNode is a node of which the fanout showed Shown of its Total
// neighbours in Direction.
type CappedNode struct {
	ID        string    `json:"id"`
	Direction Direction `json:"direction"`
	Shown     int       `json:"shown"`
	Total     int       `json:"total"`
}

// GraphNode is an asset reached by a traversal.
type GraphNode struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Platform    string   `json:"platform,omitempty"`
	Tags        []string `json:"tags"`
	Placeholder bool     `json:"placeholder"`
	// Distance is the fewest hops from the root (0 for the root).
	Distance int `json:"distance"`
	// Direction is "root", "upstream" or "downstream".
	Direction string `json:"direction"`
	// Redacted marks a stand-in for a node the caller may not read (in a
	// private domain): only ID ("redacted:<n>", numbering stand-ins within
	// one answer; edges use it too), Team and Distance are set.
	Redacted bool `json:"redacted,omitempty"`
	// Team owns a redacted node's domain: whom to ask for access.
	Team string `json:"team,omitempty"`
}

// GraphEdge is an edge in a traversal's answer.
type GraphEdge struct {
	Source         string `json:"source"`
	Target         string `json:"target"`
	Transformation string `json:"transformation,omitempty"`
}

// Node returns the node with this id, or nil.
func (g *Graph) Node(id string) *GraphNode {
	for i := range g.Nodes {
		if g.Nodes[i].ID == id {
			return &g.Nodes[i]
		}
	}
	return nil
}

// LineageService covers /lineage.
type LineageService struct{ c *Client }

// Create writes one edge; [Response.Created] is true for a new edge, false
// when the pair existed (its transformation is then replaced if one is
// given, and its column mappings are added to). The answer names each end by
// the id of the asset it resolved to. Unknown ids, and datasets nobody
// holds, become placeholder assets unless [Strict] is given. A self-loop
// fails with [ErrValidation] (code self_loop).
func (s *LineageService) Create(ctx context.Context, edge EdgeInput, ro ...RequestOption) (*Edge, *Response, error) {
	return sendFor[Edge](ctx, s.c, call{method: http.MethodPost, path: "/lineage", body: edge, opts: ro})
}

// Bulk writes 1 to [MaxBulkEdges] edges in one atomic, idempotent request:
// edges and column mappings are merged, so a repeat changes nothing, and the
// request is retried without an automatic Idempotency-Key (a repeat answers
// the edges it wrote as Existing). [Origin] names the writer the edges are
// asserted by, and [Replace] makes them its whole edge set. Use
// [LineageService.PushBulk] for more.
func (s *LineageService) Bulk(ctx context.Context, edges []EdgeInput, ro ...RequestOption) (*BulkResult, *Response, error) {
	if _, err := replacing(ro); err != nil {
		return nil, nil, err
	}
	body, err := wireEdges(edges)
	if err != nil {
		return nil, nil, err
	}
	k := call{method: http.MethodPost, path: "/lineage/bulk", body: body, repeatable: true, opts: ro}
	return sendFor[BulkResult](ctx, s.c, k)
}

// PushBulk writes any number of edges in chunks of chunkSize (at most, and
// by default when chunkSize <= 0, [MaxBulkEdges]) and sums the answers. No
// edges means no request. Each chunk is atomic; on an error the result holds
// the sums of the chunks already written (Received tells how many edges), and
// the error, a [*BulkError], says which chunk failed. A pair repeated in two
// chunks counts as created in the first and existing in the second. A
// replacement ([Replace]) is one request, sent even with no edges (the
// origin then asserts none): more edges than one chunk fail before anything
// is sent.
func (s *LineageService) PushBulk(ctx context.Context, edges []EdgeInput, chunkSize int, ro ...RequestOption) (*BulkResult, error) {
	if chunkSize <= 0 || chunkSize > MaxBulkEdges {
		chunkSize = MaxBulkEdges
	}
	replace, err := replacing(ro)
	if err != nil {
		return nil, err
	}
	if replace {
		if len(edges) > chunkSize {
			return nil, fmt.Errorf("governance: a replacement is one request: at most %d edges, not %d", chunkSize, len(edges))
		}
		r, _, err := s.Bulk(ctx, edges, ro...)
		if err != nil {
			return &BulkResult{}, &BulkError{Err: err}
		}
		return r, nil
	}
	total := &BulkResult{}
	for i, chunk := range chunks(edges, chunkSize) {
		r, _, err := s.Bulk(ctx, chunk, ro...)
		if err != nil {
			return total, &BulkError{Chunk: i, Offset: i * chunkSize, Err: err}
		}
		total.add(*r)
	}
	return total, nil
}

// BulkError is a failed chunk of [LineageService.PushBulk] or
// [LineageService.PushOpenLineage]; the items before Offset were written. It
// wraps the chunk's error, so errors.Is and errors.As see the *Error
// underneath.
type BulkError struct {
	Chunk  int // index of the failed chunk
	Offset int // index in the items of its first one
	Err    error
}

func (e *BulkError) Error() string {
	return "governance: bulk chunk " + strconv.Itoa(e.Chunk) + " (items from " +
		strconv.Itoa(e.Offset) + "): " + e.Err.Error()
}

func (e *BulkError) Unwrap() error { return e.Err }

// ListEdges returns one page of edges with their column mappings, ordered by
// (source, target).
func (s *LineageService) ListEdges(ctx context.Context, opts *EdgeListOptions, ro ...RequestOption) (*Page[Edge], *Response, error) {
	return sendFor[Page[Edge]](ctx, s.c, call{method: http.MethodGet, path: "/lineage/edges", query: opts.query(), opts: ro})
}

// AllEdges yields every edge that matches opts, following next_cursor.
func (s *LineageService) AllEdges(ctx context.Context, opts *EdgeListOptions, ro ...RequestOption) iter.Seq2[Edge, error] {
	return listAll(ctx, opts, func(ctx context.Context, o *EdgeListOptions) (*Page[Edge], *Response, error) {
		return s.ListEdges(ctx, o, ro...)
	})
}

// DeleteEdge removes the edge source -> target and its column mappings;
// [ErrNotFound] if there is none.
func (s *LineageService) DeleteEdge(ctx context.Context, source, target string, ro ...RequestOption) (*Response, error) {
	q := url.Values{"source": {source}, "target": {target}}
	return s.c.send(ctx, call{method: http.MethodDelete, path: "/lineage/edges", query: q, opts: ro})
}

// Graph traverses the lineage of an asset in direction ("" means both).
// An unknown root fails with [ErrNotFound].
func (s *LineageService) Graph(ctx context.Context, id string, direction Direction, opts *TraversalOptions, ro ...RequestOption) (*Graph, *Response, error) {
	q := opts.query()
	if direction != "" {
		q.Set("direction", string(direction))
	}
	if id == "edges" {
		// GET /lineage/edges is the edge list, which shadows the traversal of
		// an asset named "edges"; "%65" is an equivalent spelling of "e" that
		// the service routes as an asset id and decodes back to "edges".
		return sendFor[Graph](ctx, s.c, call{method: http.MethodGet, path: "/lineage/%65dges", query: q, opts: ro})
	}
	return s.traverse(ctx, id, "", q, ro)
}

// GraphPages yields every page of a traversal in direction ("" means
// both), from opts.Cursor on, asking again with each NextCursor and the same
// other options: each node comes in exactly one page, the root in the first.
// opts.Limit is the page size. An error ends the sequence.
func (s *LineageService) GraphPages(ctx context.Context, id string, direction Direction, opts *TraversalOptions, ro ...RequestOption) iter.Seq2[*Graph, error] {
	var o TraversalOptions
	if opts != nil {
		o = *opts
	}
	return func(yield func(*Graph, error) bool) {
		for {
			page, _, err := s.Graph(ctx, id, direction, &o, ro...)
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(page, nil) || page.NextCursor == "" || page.NextCursor == o.Cursor {
				return
			}
			o.Cursor = page.NextCursor
		}
	}
}

// Upstream returns what flows into the asset, nearest first.
func (s *LineageService) Upstream(ctx context.Context, id string, opts *TraversalOptions, ro ...RequestOption) (*Graph, *Response, error) {
	return s.traverse(ctx, id, "/upstream", opts.query(), ro)
}

// Downstream returns what the asset flows into, nearest first.
func (s *LineageService) Downstream(ctx context.Context, id string, opts *TraversalOptions, ro ...RequestOption) (*Graph, *Response, error) {
	return s.traverse(ctx, id, "/downstream", opts.query(), ro)
}

func (s *LineageService) traverse(ctx context.Context, id, suffix string, q url.Values, ro []RequestOption) (*Graph, *Response, error) {
	return sendAt[Graph](ctx, s.c, call{method: http.MethodGet, query: q, opts: ro}, "/lineage", id, suffix)
}
