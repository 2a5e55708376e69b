package governance

import (
	"context"
	"iter"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// MaxBulkEdges is the most edges the service takes in one bulk request.
const MaxBulkEdges = 10_000

// EdgeInput is an edge to write: data flows from Source into Target.
type EdgeInput struct {
	Source string `json:"source"`
	Target string `json:"target"`
	// Transformation is SQL or free text; empty leaves an existing one as is.
	Transformation string `json:"transformation,omitempty"`
}

// Edge is a stored lineage edge.
type Edge struct {
	Source         string `json:"source"`
	Target         string `json:"target"`
	Transformation string `json:"transformation,omitempty"`
	// Origins are the writers that asserted it: "api", "dbt:<project>", ...
	Origins   []string  `json:"origins,omitempty"`
	CreatedAt time.Time `json:"created_at,omitzero"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`
}

// BulkResult is the answer of a bulk write.
type BulkResult struct {
	Received      int `json:"received"`       // items sent
	Created       int `json:"created"`        // edges that did not exist before
	Existing      int `json:"existing"`       // distinct pairs that already existed
	AssetsCreated int `json:"assets_created"` // placeholder assets made for unknown ids
}

func (r *BulkResult) add(o BulkResult) {
	r.Received += o.Received
	r.Created += o.Created
	r.Existing += o.Existing
	r.AssetsCreated += o.AssetsCreated
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
// defaults.
type TraversalOptions struct {
	// Depth is the most hops from the root, 1-50 (default 5).
	Depth int
	// Limit is the most nodes, the root included, 1-10,000 (default 2,000);
	// when reached the graph says Truncated.
	Limit int
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
	return q
}

// Graph is the answer of a traversal.
type Graph struct {
	Root      string      `json:"root"`
	Direction Direction   `json:"direction"`
	Depth     int         `json:"depth"`
	Nodes     []GraphNode `json:"nodes"`
	// Edges are all edges among the nodes that lie in the traversed direction.
	Edges     []GraphEdge `json:"edges"`
	Truncated bool        `json:"truncated"`
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

// Create writes one edge; created is true for a new edge, false when the pair
// existed (its transformation is then replaced if one is given). Unknown ids
// become placeholder assets unless [Strict] is given. A self-loop fails with
// [ErrValidation] (code self_loop).
func (s *LineageService) Create(ctx context.Context, edge EdgeInput, ro ...RequestOption) (out *Edge, created bool, err error) {
	var e Edge
	rep, err := s.c.send(ctx, call{method: http.MethodPost, path: "/lineage", body: edge, out: &e, opts: ro})
	if err != nil {
		return nil, false, err
	}
	return &e, rep.status == http.StatusCreated, nil
}

// Bulk writes 1 to [MaxBulkEdges] edges in one atomic, idempotent request.
// Use [LineageService.PushBulk] for more.
func (s *LineageService) Bulk(ctx context.Context, edges []EdgeInput, ro ...RequestOption) (*BulkResult, error) {
	var r BulkResult
	if edges == nil {
		edges = []EdgeInput{}
	}
	_, err := s.c.send(ctx, call{method: http.MethodPost, path: "/lineage/bulk", body: edges, out: &r, opts: ro})
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// PushBulk writes any number of edges in chunks of chunkSize (at most, and
// by default when chunkSize <= 0, [MaxBulkEdges]) and sums the answers. No
// edges means no request. Each chunk is atomic; on an error the result holds
// the sums of the chunks already written (Received tells how many edges), and
// the error says which chunk failed. A pair repeated in two chunks counts as
// created in the first and existing in the second.
func (s *LineageService) PushBulk(ctx context.Context, edges []EdgeInput, chunkSize int, ro ...RequestOption) (*BulkResult, error) {
	if chunkSize <= 0 || chunkSize > MaxBulkEdges {
		chunkSize = MaxBulkEdges
	}
	total := &BulkResult{}
	for i, chunk := range chunks(edges, chunkSize) {
		r, err := s.Bulk(ctx, chunk, ro...)
		if err != nil {
			return total, &BulkError{Chunk: i, Offset: i * chunkSize, Err: err}
		}
		total.add(*r)
	}
	return total, nil
}

// BulkError is a failed chunk of [LineageService.PushBulk]; edges before
// Offset were written. It wraps the chunk's error, so errors.Is and errors.As
// see the *Error underneath.
type BulkError struct {
	Chunk  int // index of the failed chunk
	Offset int // index in the edges of its first item
	Err    error
}

func (e *BulkError) Error() string {
	return "governance: bulk chunk " + strconv.Itoa(e.Chunk) + " (edges from " +
		strconv.Itoa(e.Offset) + "): " + e.Err.Error()
}

func (e *BulkError) Unwrap() error { return e.Err }

// Edges returns one page of edges, ordered by (source, target).
func (s *LineageService) Edges(ctx context.Context, opts *EdgeListOptions, ro ...RequestOption) (*Page[Edge], error) {
	var page Page[Edge]
	_, err := s.c.send(ctx, call{method: http.MethodGet, path: "/lineage/edges", query: opts.query(), out: &page, opts: ro})
	if err != nil {
		return nil, err
	}
	return &page, nil
}

// AllEdges yields every edge that matches opts, following next_cursor.
func (s *LineageService) AllEdges(ctx context.Context, opts *EdgeListOptions, ro ...RequestOption) iter.Seq2[Edge, error] {
	var base EdgeListOptions
	if opts != nil {
		base = *opts
	}
	return paginate(ctx, base.Cursor, func(ctx context.Context, cursor string) (*Page[Edge], error) {
		o := base
		o.Cursor = cursor
		return s.Edges(ctx, &o, ro...)
	})
}

// DeleteEdge removes the edge source -> target; [ErrNotFound] if there is none.
func (s *LineageService) DeleteEdge(ctx context.Context, source, target string, ro ...RequestOption) error {
	q := url.Values{"source": {source}, "target": {target}}
	_, err := s.c.send(ctx, call{method: http.MethodDelete, path: "/lineage/edges", query: q, opts: ro})
	return err
}

// Graph traverses the lineage of an asset in direction ("" means both).
// An unknown root fails with [ErrNotFound].
func (s *LineageService) Graph(ctx context.Context, id string, direction Direction, opts *TraversalOptions, ro ...RequestOption) (*Graph, error) {
	q := opts.query()
	if direction != "" {
		q.Set("direction", string(direction))
	}
	if id == "edges" {
		// GET /lineage/edges is the edge list, which shadows the traversal of
		// an asset named "edges"; "%65" is an equivalent spelling of "e" that
		// the service routes as an asset id and decodes back to "edges".
		return s.get(ctx, "/lineage/%65dges", q, ro)
	}
	return s.traverse(ctx, id, "", q, ro)
}

// Upstream returns what flows into the asset, nearest first.
func (s *LineageService) Upstream(ctx context.Context, id string, opts *TraversalOptions, ro ...RequestOption) (*Graph, error) {
	return s.traverse(ctx, id, "/upstream", opts.query(), ro)
}

// Downstream returns what the asset flows into, nearest first.
func (s *LineageService) Downstream(ctx context.Context, id string, opts *TraversalOptions, ro ...RequestOption) (*Graph, error) {
	return s.traverse(ctx, id, "/downstream", opts.query(), ro)
}

func (s *LineageService) traverse(ctx context.Context, id, suffix string, q url.Values, ro []RequestOption) (*Graph, error) {
	path, err := idPath("/lineage", id, suffix)
	if err != nil {
		return nil, err
	}
	return s.get(ctx, path, q, ro)
}

func (s *LineageService) get(ctx context.Context, path string, q url.Values, ro []RequestOption) (*Graph, error) {
	var g Graph
	if _, err := s.c.send(ctx, call{method: http.MethodGet, path: path, query: q, out: &g, opts: ro}); err != nil {
		return nil, err
	}
	return &g, nil
}
