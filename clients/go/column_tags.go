package governance

import (
	"context"
	"net/http"
	"time"
)

// MappingKind says what a column mapping does to the values it carries,
// which decides whether a column tag goes on downstream across it.
type MappingKind string

const (
	MappingIdentity       MappingKind = "identity"
	MappingTransformation MappingKind = "transformation"
	MappingMasking        MappingKind = "masking"
	MappingAggregation    MappingKind = "aggregation"
	MappingIndirect       MappingKind = "indirect"
	MappingUnknown        MappingKind = "unknown"
)

// AssetColumns is an asset's columns as column classification sees them:
// the declared columns in their order, then the columns known only to
// column lineage that hold or inherit a tag.
type AssetColumns struct {
	Asset   string        `json:"asset"`
	Columns []AssetColumn `json:"columns"`
}

// AssetColumn is one column with the tags set on it and those it inherits
// along column lineage.
type AssetColumn struct {
	Name string `json:"name"`
	// Type is empty where the column declares none.
	Type string `json:"type,omitempty"`
	// Tags are the tags set on the column itself (the asset's Columns).
	Tags []string `json:"tags"`
	// Inherited holds one explanation per inherited tag, by tag.
	Inherited []InheritedTag `json:"inherited"`
}

// InheritedTag says why a column holds Tag: From is the column that holds
// it directly, Path the column lineage it came by, from From to this
// column, over the fewest mappings.
type InheritedTag struct {
	Tag  string     `json:"tag"`
	From ColumnRef  `json:"from"`
	Path []PathStep `json:"path"`
}

// PathStep is one column on an inherited tag's path. Kind is that of the
// mapping into the column; empty for the tagged column the path starts at.
type PathStep struct {
	Asset  string      `json:"asset"`
	Column string      `json:"column"`
	Kind   MappingKind `json:"kind,omitempty"`
}

// ColumnTagRule is the rule of one column tag: the mapping kinds that stop
// it on its way downstream. Default is true while the tag has no rule of its
// own (it then stops at masking, aggregation and indirect mappings), and
// UpdatedAt is then zero.
type ColumnTagRule struct {
	Tag       string        `json:"tag"`
	Stops     []MappingKind `json:"stops"`
	Default   bool          `json:"default"`
	UpdatedAt time.Time     `json:"updated_at"`
}

// Columns returns the asset's columns with their own and inherited tags. An
// unknown asset is [ErrNotFound].
func (s *AssetsService) Columns(ctx context.Context, id string, ro ...RequestOption) (*AssetColumns, *Response, error) {
	return sendAt[AssetColumns](ctx, s.c, call{method: http.MethodGet, opts: ro}, "/assets", id, "/columns")
}

// GetColumnTagRule returns the rule of a column tag; a tag without one of
// its own answers the default rule.
func (s *AssetsService) GetColumnTagRule(ctx context.Context, tag string, ro ...RequestOption) (*ColumnTagRule, *Response, error) {
	return sendAt[ColumnTagRule](ctx, s.c, call{method: http.MethodGet, opts: ro}, "/column-tags", tag)
}

// PutColumnTagRule sets the mapping kinds that stop a column tag (nil or
// empty: none does, the tag goes everywhere downstream). The service
// recomputes where the tag is inherited in the same transaction; the same
// rule again changes nothing, so the call is safely retried.
func (s *AssetsService) PutColumnTagRule(ctx context.Context, tag string, stops []MappingKind, ro ...RequestOption) (*ColumnTagRule, *Response, error) {
	if stops == nil {
		stops = []MappingKind{} // JSON [], which the service reads as "none"; null it refuses
	}
	body := struct {
		Stops []MappingKind `json:"stops"`
	}{stops}
	return sendAt[ColumnTagRule](ctx, s.c, call{method: http.MethodPut, body: body, opts: ro}, "/column-tags", tag)
}
