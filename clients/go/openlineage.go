package governance

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// OpenLineage limits of one request (the service's defaults).
const (
	// MaxOpenLineageEvents is the most run events one request may carry.
	MaxOpenLineageEvents = 10_000
	// maxOpenLineageBody is the largest request body the service reads.
	maxOpenLineageBody = 10 << 20
)

// OpenLineage event types.
const (
	RunStart    = "START"
	RunRunning  = "RUNNING"
	RunComplete = "COMPLETE" // the only type whose inputs and outputs become lineage
	RunAbort    = "ABORT"
	RunFail     = "FAIL"
	RunOther    = "OTHER"
)

// RunEvent is an OpenLineage run event (the RunEvent 2-0-2 schema), as an
// OpenLineage producer sends it; one decoded from a producer's JSON keeps
// every facet. Each input -> output pair of a COMPLETE event becomes an edge
// with origin "openlineage:<job namespace>/<job name>"; each dataset
// resolves to the asset holding it (see [Dataset]), a placeholder
// "<namespace>/<name>" (normalised) when none does. The facets the service
// reads have types here:
// [SQLJobFacet] ("sql", the edges' transformation), [SchemaDatasetFacet]
// ("schema", the asset's columns) and [ColumnLineageDatasetFacet]
// ("columnLineage" on an output, its column mappings).
type RunEvent struct {
	// EventType is one of RunStart ... RunOther; empty reads as OTHER.
	EventType string    `json:"eventType,omitempty"`
	EventTime time.Time `json:"eventTime"`
	// Producer is a URI naming the software that made the event.
	Producer string `json:"producer"`
	// SchemaURL is the URL of the OpenLineage schema the event follows.
	SchemaURL string               `json:"schemaURL"`
	Run       OpenLineageRun       `json:"run"`
	Job       OpenLineageJob       `json:"job"`
	Inputs    []OpenLineageDataset `json:"inputs,omitempty"`
	Outputs   []OpenLineageDataset `json:"outputs,omitempty"`
}

// OpenLineageRun is a run: one execution of a job.
type OpenLineageRun struct {
	// RunID is a UUID.
	RunID  string         `json:"runId"`
	Facets map[string]any `json:"facets,omitempty"`
}

// OpenLineageJob is the job a run executes.
type OpenLineageJob struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Facets by name; "sql" may be a [SQLJobFacet].
	Facets map[string]any `json:"facets,omitempty"`
}

// OpenLineageDataset is a dataset a run reads or writes.
type OpenLineageDataset struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Facets by name; "schema" may be a [SchemaDatasetFacet] and, on an
	// output, "columnLineage" a [ColumnLineageDatasetFacet].
	Facets map[string]any `json:"facets,omitempty"`
	// InputFacets and OutputFacets are kept as sent; the service reads
	// neither.
	InputFacets  map[string]any `json:"inputFacets,omitempty"`
	OutputFacets map[string]any `json:"outputFacets,omitempty"`
}

// FacetInfo is what the OpenLineage schema asks of every facet: who made it
// and which schema it follows. The service does not need it.
type FacetInfo struct {
	Producer  string `json:"_producer,omitempty"`
	SchemaURL string `json:"_schemaURL,omitempty"`
}

// SQLJobFacet is the "sql" job facet: the query becomes the transformation
// of the edges the event makes.
type SQLJobFacet struct {
	FacetInfo
	Query   string `json:"query"`
	Dialect string `json:"dialect,omitempty"`
}

// SchemaDatasetFacet is the "schema" dataset facet: its top-level fields
// replace the asset's columns.
type SchemaDatasetFacet struct {
	FacetInfo
	Fields []SchemaField `json:"fields"`
}

// SchemaField is one field of a [SchemaDatasetFacet].
type SchemaField struct {
	Name        string        `json:"name"`
	Type        string        `json:"type,omitempty"`
	Description string        `json:"description,omitempty"`
	Fields      []SchemaField `json:"fields,omitempty"` // nested fields; not read
}

// ColumnLineageDatasetFacet is the "columnLineage" facet of an output: for
// each of its columns, the input columns it is made from.
type ColumnLineageDatasetFacet struct {
	FacetInfo
	Fields map[string]ColumnLineageField `json:"fields"`
}

// ColumnLineageField lists the input columns one output column comes from.
type ColumnLineageField struct {
	InputFields               []InputField `json:"inputFields"`
	TransformationDescription string       `json:"transformationDescription,omitempty"`
	TransformationType        string       `json:"transformationType,omitempty"`
}

// InputField is one input column: Field of dataset Namespace/Name.
type InputField struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	Field     string `json:"field"`
	// Transformations become the mapping's transformation, such as
	// "DIRECT/IDENTITY".
	Transformations []FieldTransformation `json:"transformations,omitempty"`
}

// FieldTransformation says how an input column becomes the output column.
type FieldTransformation struct {
	Type        string `json:"type"`
	Subtype     string `json:"subtype,omitempty"`
	Description string `json:"description,omitempty"`
	Masking     *bool  `json:"masking,omitempty"`
}

// OpenLineageResult is the answer of an OpenLineage ingestion.
type OpenLineageResult struct {
	Received int `json:"received"` // run events sent
	Complete int `json:"complete"` // COMPLETE events: the ones that carry lineage
	Runs     int `json:"runs"`     // distinct runs whose state was recorded
	// Edges and ColumnMappings count what was new and what existed.
	Edges          Counts `json:"edges"`
	ColumnMappings Counts `json:"column_mappings"`
	Assets         struct {
		Created int `json:"created"` // placeholders for datasets not known before
		Updated int `json:"updated"` // assets whose columns a schema facet changed
	} `json:"assets"`
	Warnings []string `json:"warnings"`
}

func (r *OpenLineageResult) add(o OpenLineageResult) {
	r.Received += o.Received
	r.Complete += o.Complete
	r.Runs += o.Runs
	r.Edges.add(o.Edges)
	r.ColumnMappings.add(o.ColumnMappings)
	r.Assets.Created += o.Assets.Created
	r.Assets.Updated += o.Assets.Updated
	r.Warnings = append(r.Warnings, o.Warnings...)
}

// IngestOpenLineage sends 1 to [MaxOpenLineageEvents] run events in one
// request (POST /lineage/openlineage), validated whole (a 422 names each bad
// field and nothing is written) and written in one transaction. Events that
// arrive twice or out of order converge (edges are merged), so the request
// is retried without an automatic Idempotency-Key. Use
// [LineageService.PushOpenLineage] for more.
func (s *LineageService) IngestOpenLineage(ctx context.Context, events []RunEvent, ro ...RequestOption) (*OpenLineageResult, *Response, error) {
	encoded, err := encodeEach(events)
	if err != nil {
		return nil, nil, err
	}
	return s.ingestEncoded(ctx, encoded, ro)
}

// PushOpenLineage sends any number of run events in requests of at most
// chunkSize events (at most, and by default when chunkSize <= 0,
// [MaxOpenLineageEvents]), also keeping each request under the service's
// limits of 10,000 edges (counted as inputs x outputs of COMPLETE events)
// and 10 MiB, and sums the answers. No events means no request. On an error
// the result holds the sums of the requests already made, and the error, a
// [*BulkError], says where the failed one started. Runs seen in two requests
// count in both.
func (s *LineageService) PushOpenLineage(ctx context.Context, events []RunEvent, chunkSize int, ro ...RequestOption) (*OpenLineageResult, error) {
	if chunkSize <= 0 || chunkSize > MaxOpenLineageEvents {
		chunkSize = MaxOpenLineageEvents
	}
	encoded, err := encodeEach(events)
	if err != nil {
		return nil, err
	}
	edges := make([]int, len(events))
	for i, ev := range events {
		if ev.EventType == RunComplete {
			edges[i] = len(ev.Inputs) * len(ev.Outputs)
		}
	}
	total := &OpenLineageResult{}
	for i, span := range pack(encoded, edges, chunkSize, MaxBulkEdges, maxOpenLineageBody) {
		r, _, err := s.ingestEncoded(ctx, encoded[span[0]:span[1]], ro)
		if err != nil {
			return total, &BulkError{Chunk: i, Offset: span[0], Err: err}
		}
		total.add(*r)
	}
	return total, nil
}

func (s *LineageService) ingestEncoded(ctx context.Context, events []json.RawMessage, ro []RequestOption) (*OpenLineageResult, *Response, error) {
	body := []byte{'['}
	for i, ev := range events {
		if i > 0 {
			body = append(body, ',')
		}
		body = append(body, ev...)
	}
	body = append(body, ']')
	k := call{method: http.MethodPost, path: "/lineage/openlineage", raw: body, repeatable: true, opts: ro}
	return sendFor[OpenLineageResult](ctx, s.c, k)
}

func encodeEach[T any](items []T) ([]json.RawMessage, error) {
	out := make([]json.RawMessage, len(items))
	for i, item := range items {
		data, err := json.Marshal(item)
		if err != nil {
			return nil, fmt.Errorf("governance: encoding item %d: %w", i, err)
		}
		out[i] = data
	}
	return out, nil
}

// pack splits encoded items into consecutive spans [start, end) of at most
// maxItems items, maxWeight summed weight and maxBytes as a JSON array. An
// item too large or too heavy alone gets a span of its own (and the service
// says what is wrong with it).
func pack(items []json.RawMessage, weights []int, maxItems, maxWeight, maxBytes int) [][2]int {
	var spans [][2]int
	start, weight, size := 0, 0, 1 // size counts "[" and, per item, the item and "," or "]"
	for i, item := range items {
		if i > start && (i-start >= maxItems || weight+weights[i] > maxWeight || size+len(item)+1 > maxBytes) {
			spans = append(spans, [2]int{start, i})
			start, weight, size = i, 0, 1
		}
		weight += weights[i]
		size += len(item) + 1
	}
	if start < len(items) {
		spans = append(spans, [2]int{start, len(items)})
	}
	return spans
}
