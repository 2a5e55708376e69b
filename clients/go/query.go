package governance

import (
	"context"
	"iter"
	"net/http"
)

// ReturnForm is what a [Query] answers.
type ReturnForm string

const (
	ReturnNodes ReturnForm = "nodes" // the default, except for path queries
	ReturnEdges ReturnForm = "edges"
	ReturnGraph ReturnForm = "graph" // a page of nodes and the edges among them
	ReturnPaths ReturnForm = "paths" // path queries only; their default
	ReturnCount ReturnForm = "count"
)

// Query is a question in the service's JSON query language (POST /query):
// Start, optionally with Traverse, or Path, never both. Zero fields take the
// service's defaults.
type Query struct {
	Start    *QueryStart `json:"start,omitempty"`
	Traverse *Traverse   `json:"traverse,omitempty"`
	Path     *PathQuery  `json:"path,omitempty"`
	Return   ReturnForm  `json:"return,omitempty"`
	// Limit is the items (nodes, edges or paths) per page, 1-10,000
	// (default 100).
	Limit int `json:"limit,omitempty"`
	// Cursor is a previous answer's NextCursor, sent with the same query.
	Cursor string `json:"cursor,omitempty"`
}

// QueryStart is where a query starts: IDs or Where, one of the two. Unknown
// ids match nothing.
type QueryStart struct {
	IDs   []string     `json:"ids,omitempty"`
	Where *QueryFilter `json:"where,omitempty"`
}

// Traverse walks lineage from the start assets.
type Traverse struct {
	// Direction is downstream, upstream or both (the default, both sides
	// walked separately).
	Direction Direction `json:"direction,omitempty"`
	// MinDepth is the least distance returned (default 1); Ptr(0) adds the
	// start assets at distance 0.
	MinDepth *int `json:"min_depth,omitempty"`
	// MaxDepth is 1-50 (default 5).
	MaxDepth int `json:"max_depth,omitempty"`
	// Where picks the reached assets that are returned.
	Where *QueryFilter `json:"where,omitempty"`
	// Through picks the assets a path may pass through (its intermediate
	// assets, never the start or the returned one).
	Through *QueryFilter `json:"through,omitempty"`
}

// PathQuery asks for the shortest path(s) From one asset To another.
type PathQuery struct {
	From string `json:"from"`
	To   string `json:"to"`
	// Direction is downstream (From feeds To; the default), upstream or both.
	Direction   Direction    `json:"direction,omitempty"`
	MaxDepth    int          `json:"max_depth,omitempty"` // 1-50, default 10
	AllShortest bool         `json:"all_shortest,omitempty"`
	Through     *QueryFilter `json:"through,omitempty"`
}

// QueryFilter matches assets: every field given must hold, and a list
// means any of its values. The zero QueryFilter matches every asset.
type QueryFilter struct {
	Type     []string `json:"type,omitempty"`
	Platform []string `json:"platform,omitempty"`
	TagsAll  []string `json:"tags_all,omitempty"`
	TagsAny  []string `json:"tags_any,omitempty"`
	Owner    []string `json:"owner,omitempty"`
	IDPrefix []string `json:"id_prefix,omitempty"`
	// NameContains is a case-insensitive substring of the name.
	NameContains string `json:"name_contains,omitempty"`
	Placeholder  *bool  `json:"placeholder,omitempty"`
	// HasUpstream and HasDownstream: whether the asset has an incoming or
	// outgoing lineage edge (both false: an orphan).
	HasUpstream   *bool `json:"has_upstream,omitempty"`
	HasDownstream *bool `json:"has_downstream,omitempty"`
	// Properties: each key must equal the value, or one of a list of values.
	Properties map[string]any `json:"properties,omitempty"`
}

// QueryResult is one page of a query's answer; only the parts the query's
// return form asked for are set.
type QueryResult struct {
	Nodes []QueryNode `json:"nodes,omitempty"`
	Edges []GraphEdge `json:"edges,omitempty"`
	// Paths are each a list of asset ids.
	Paths [][]string `json:"paths,omitempty"`
	Count int        `json:"count,omitempty"`
	// Truncated: a path query found more paths than the service enumerates.
	Truncated  bool   `json:"truncated,omitempty"`
	NextCursor string `json:"next_cursor"`
}

// QueryNode is an asset a query answered, nearest first.
type QueryNode struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Type        string   `json:"type"`
	Platform    string   `json:"platform,omitempty"`
	Tags        []string `json:"tags"`
	Placeholder bool     `json:"placeholder"`
	// Distance is the fewest hops from the start (or along the path).
	Distance int `json:"distance"`
}

// CypherResult is the answer of [QueryService.Cypher].
type CypherResult struct {
	Columns []string `json:"columns"`
	// Rows are lists of values in column order (numbers as float64, nodes as
	// {element_id, labels, properties}).
	Rows [][]any `json:"rows"`
	// Truncated: more rows than the limit exist.
	Truncated bool `json:"truncated"`
}

// Records returns each row as a map from column name to value.
func (r *CypherResult) Records() []map[string]any {
	out := make([]map[string]any, len(r.Rows))
	for i, row := range r.Rows {
		rec := make(map[string]any, len(r.Columns))
		for j, col := range r.Columns {
			if j < len(row) {
				rec[col] = row[j]
			}
		}
		out[i] = rec
	}
	return out
}

// QueryService covers /query.
type QueryService struct{ c *Client }

// Run sends one query and returns one page of its answer. A malformed query
// is an [ErrValidation] naming the field in FieldErrors; one running past
// the service's query timeout is an [ErrValidation] with code query_timeout.
//
// A query only reads, so it is retried like a GET and sends no
// Idempotency-Key.
func (s *QueryService) Run(ctx context.Context, q Query, ro ...RequestOption) (*QueryResult, *Response, error) {
	return sendFor[QueryResult](ctx, s.c, call{method: http.MethodPost, path: "/query", body: q, repeatable: true, opts: ro})
}

// Pages yields every page of a query's answer, from q.Cursor on, sending the
// same query again with each NextCursor. An error ends the sequence.
func (s *QueryService) Pages(ctx context.Context, q Query, ro ...RequestOption) iter.Seq2[*QueryResult, error] {
	return func(yield func(*QueryResult, error) bool) {
		for {
			page, _, err := s.Run(ctx, q, ro...)
			if err != nil {
				yield(nil, err)
				return
			}
			if !yield(page, nil) || page.NextCursor == "" || page.NextCursor == q.Cursor {
				return
			}
			q.Cursor = page.NextCursor
		}
	}
}

// Nodes yields every node of a query's answer, page by page (q.Return is
// set to nodes when empty).
func (s *QueryService) Nodes(ctx context.Context, q Query, ro ...RequestOption) iter.Seq2[QueryNode, error] {
	return queryItems(ctx, s, q, ReturnNodes, func(r *QueryResult) []QueryNode { return r.Nodes }, ro)
}

// Edges yields every edge of a query's answer, page by page (q.Return is
// set to edges when empty).
func (s *QueryService) Edges(ctx context.Context, q Query, ro ...RequestOption) iter.Seq2[GraphEdge, error] {
	return queryItems(ctx, s, q, ReturnEdges, func(r *QueryResult) []GraphEdge { return r.Edges }, ro)
}

// Paths yields every path of a path query's answer, page by page (q.Return
// is set to paths when empty).
func (s *QueryService) Paths(ctx context.Context, q Query, ro ...RequestOption) iter.Seq2[[]string, error] {
	return queryItems(ctx, s, q, ReturnPaths, func(r *QueryResult) [][]string { return r.Paths }, ro)
}

func queryItems[T any](ctx context.Context, s *QueryService, q Query, form ReturnForm,
	pick func(*QueryResult) []T, ro []RequestOption) iter.Seq2[T, error] {
	if q.Return == "" {
		q.Return = form
	}
	return paginate(ctx, q.Cursor, func(ctx context.Context, cursor string) (*Page[T], error) {
		page := q
		page.Cursor = cursor
		r, _, err := s.Run(ctx, page, ro...)
		if err != nil {
			return nil, err
		}
		return &Page[T]{Items: pick(r), NextCursor: r.NextCursor}, nil
	})
}

// Cypher runs a read-only Cypher statement (POST /query/cypher; admin
// scope) with parameters, keeping at most limit rows (0: the service
// default, 1,000). A write, LOAD CSV or an administrative procedure is an
// [ErrValidation] with code forbidden_query, and nothing runs; text Neo4j
// cannot run is code invalid_query. Like [QueryService.Run] it is retried
// as a read.
func (s *QueryService) Cypher(ctx context.Context, query string, parameters map[string]any, limit int, ro ...RequestOption) (*CypherResult, *Response, error) {
	body := struct {
		Query      string         `json:"query"`
		Parameters map[string]any `json:"parameters,omitempty"`
		Limit      int            `json:"limit,omitempty"`
	}{query, parameters, limit}
	return sendFor[CypherResult](ctx, s.c, call{method: http.MethodPost, path: "/query/cypher", body: body, repeatable: true, opts: ro})
}
