package governance

import (
	"context"
	"net/http"
)

// ColumnRef names one column of one asset.
type ColumnRef struct {
	Asset  string `json:"asset"`
	Column string `json:"column"`
}

// ColumnNode is a column reached by a column lineage traversal.
type ColumnNode struct {
	Asset  string `json:"asset"`
	Column string `json:"column"`
	// Distance is the fewest hops from the root column (0 for the root).
	Distance int `json:"distance"`
}

// ColumnEdge is a column mapping among the reached columns, in data-flow
// direction (Source feeds Target).
type ColumnEdge struct {
	Source         ColumnRef `json:"source"`
	Target         ColumnRef `json:"target"`
	Transformation string    `json:"transformation,omitempty"`
}

// ColumnGraph is the answer of a column lineage traversal: each reached
// column once, nearest first, the root included at distance 0.
type ColumnGraph struct {
	Root      ColumnRef    `json:"root"`
	Direction Direction    `json:"direction"`
	Depth     int          `json:"depth"`
	Nodes     []ColumnNode `json:"nodes"`
	Edges     []ColumnEdge `json:"edges"`
	Truncated bool         `json:"truncated"`
}

// ColumnUpstream returns the columns that feed column of the asset, nearest
// first. An unknown asset is [ErrNotFound] with code asset_not_found; a
// column that is neither declared on the asset nor in any column lineage,
// code column_not_found. A declared column without lineage answers just the
// root.
func (s *LineageService) ColumnUpstream(ctx context.Context, assetID, column string, opts *TraversalOptions, ro ...RequestOption) (*ColumnGraph, *Response, error) {
	return s.columns(ctx, assetID, column, "/upstream", opts, ro)
}

// ColumnDownstream returns the columns that column of the asset feeds,
// nearest first; errors as for [LineageService.ColumnUpstream].
func (s *LineageService) ColumnDownstream(ctx context.Context, assetID, column string, opts *TraversalOptions, ro ...RequestOption) (*ColumnGraph, *Response, error) {
	return s.columns(ctx, assetID, column, "/downstream", opts, ro)
}

func (s *LineageService) columns(ctx context.Context, assetID, column, suffix string, opts *TraversalOptions,
	ro []RequestOption) (*ColumnGraph, *Response, error) {
	if column == "" {
		return nil, nil, errEmptyID
	}
	q, err := opts.forColumns()
	if err != nil {
		return nil, nil, err
	}
	k := call{method: http.MethodGet, query: q, opts: ro}
	return sendAt[ColumnGraph](ctx, s.c, k, "/lineage", assetID, "/columns/", escapeSegment(column), suffix)
}
