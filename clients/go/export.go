package governance

import (
	"context"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"time"
)

// ExportFormat is the file format of a lineage export.
type ExportFormat string

const (
	// ExportOpenLineage is a JSON array of COMPLETE run events (decode it
	// into []RunEvent) that [LineageService.IngestOpenLineage] takes back
	// into the same graph.
	ExportOpenLineage ExportFormat = "openlineage"
	// ExportDOT is a GraphViz digraph.
	ExportDOT ExportFormat = "dot"
	// ExportMermaid is a Mermaid flowchart.
	ExportMermaid ExportFormat = "mermaid"
	// ExportCSV is one table of node, edge and column rows.
	ExportCSV ExportFormat = "csv"
)

// exportMediaTypes are what the service answers for each format, sent as
// Accept; a format the client does not know accepts anything.
var exportMediaTypes = map[ExportFormat]string{
	ExportOpenLineage: "application/json",
	ExportDOT:         "text/vnd.graphviz",
	ExportMermaid:     "text/vnd.mermaid",
	ExportCSV:         "text/csv",
}

// ExportOptions bound a lineage export. Zero values take the service
// defaults.
type ExportOptions struct {
	// Direction of the neighbourhood ("" means both).
	Direction Direction
	// Depth is the most hops from the root, 1-50 (default 5).
	Depth int
	// Limit is the most assets in the file, the root included, up to the
	// service's export maximum (also the default); a larger neighbourhood is
	// cut and the export says Truncated.
	Limit int
	// AsOf, when set, exports the lineage as it stood at that moment.
	AsOf time.Time
}

func (o *ExportOptions) query(format ExportFormat) url.Values {
	q := url.Values{"format": {string(format)}}
	if o == nil {
		return q
	}
	set(q, "direction", string(o.Direction))
	if o.Depth != 0 {
		q.Set("depth", strconv.Itoa(o.Depth))
	}
	if o.Limit != 0 {
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	setInstant(q, "as_of", o.AsOf)
	return q
}

// LineageExport is an asset's lineage neighbourhood written as a file.
type LineageExport struct {
	// Text is the file's content as the service wrote it.
	Text []byte
	// Filename is the name the service gives the file, such as
	// "lineage-model.shop.orders.dot": Content-Disposition's filename* (the
	// exact id, "/" as "_") where given, else its ASCII filename.
	Filename string
	// Truncated tells that the neighbourhood was cut at the limit.
	Truncated bool
}

var errNoExportFormat = errors.New("governance: an export needs a format")

// Export writes the lineage around an asset as a file in format: the
// traversal of [LineageService.Graph] (same direction, depth and as-of)
// as OpenLineage events, DOT, Mermaid or CSV. An unknown asset is
// [ErrNotFound]; a bad option is [ErrValidation] naming it.
func (s *LineageService) Export(ctx context.Context, id string, format ExportFormat, opts *ExportOptions, ro ...RequestOption) (*LineageExport, *Response, error) {
	if format == "" {
		return nil, nil, errNoExportFormat
	}
	path, err := idPath("/lineage", id, "/export")
	if err != nil {
		return nil, nil, err
	}
	accept := "*/*"
	if mt, ok := exportMediaTypes[format]; ok {
		accept = mt + ", application/problem+json"
	}
	var text []byte
	k := call{method: http.MethodGet, path: path, query: opts.query(format), accept: accept, out: &text, opts: ro}
	resp, err := s.c.send(ctx, k)
	if err != nil {
		return nil, resp, err
	}
	return &LineageExport{
		Text:      text,
		Filename:  attachmentName(resp.Header.Get("Content-Disposition")),
		Truncated: resp.Header.Get("Lineage-Truncated") == "true",
	}, resp, nil
}

// attachmentName is the filename parameter of a Content-Disposition value,
// empty when there is none.
func attachmentName(disposition string) string {
	_, params, err := mime.ParseMediaType(disposition)
	if err != nil {
		return ""
	}
	return params["filename"]
}
