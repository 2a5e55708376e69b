package governance

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"os"
	"time"
)

// ManifestTimeout bounds each attempt of a manifest upload (when the client
// has a per-attempt timeout at all): large manifests take a while to ingest.
const ManifestTimeout = 10 * time.Minute

// ManifestSummary is the answer of a dbt manifest upload.
type ManifestSummary struct {
	// Project is the dbt project the upload was recorded under.
	Project string `json:"project"`
	// DbtVersion and DbtSchemaVersion come from the manifest's metadata
	// (empty when it has none).
	DbtVersion       string `json:"dbt_version"`
	DbtSchemaVersion string `json:"dbt_schema_version"`
	Assets           struct {
		Created int `json:"created"`
		Updated int `json:"updated"`
		// Merged counts placeholders (and other projects' sources) that held
		// a dataset of this manifest, merged into the node that defines it.
		Merged int `json:"merged"`
	} `json:"assets"`
	Edges struct {
		Created  int `json:"created"`
		Existing int `json:"existing"`
		Removed  int `json:"removed"` // pruned: an earlier upload had them, this one does not
	} `json:"edges"`
	QualityRules struct {
		Created int `json:"created"`
		Updated int `json:"updated"`
		Removed int `json:"removed"`
	} `json:"quality_rules"`
	// Skipped counts manifest entries deliberately left out.
	Skipped  int      `json:"skipped"`
	Warnings []string `json:"warnings"`
}

// Project sets the project a manifest upload is recorded under (edges get
// origin "dbt:<project>"); the default is the manifest's own project name.
func Project(name string) RequestOption { return func(r *requestOptions) { r.project = &name } }

// Namespace sets where a manifest's tables live, as OpenLineage names it
// (such as "snowflake://acme-prod"): every model, seed, snapshot and source
// then holds the dataset (namespace, database.schema.identifier), so
// OpenLineage events, SQL and edges naming that table meet the dbt node.
// Placeholders holding those datasets are merged in (counted in
// ManifestSummary.Assets.Merged); a model claiming a dataset another model
// or an API asset holds fails with [ErrConflict], code dataset_taken. The
// default is the namespace the service is configured with for the
// manifest's adapter, else none.
func Namespace(namespace string) RequestOption {
	return func(r *requestOptions) { r.namespace = &namespace }
}

// Prune sets whether a manifest upload removes the edges and quality rules an
// earlier upload of the same project made and this one lacks (the service
// default is true).
func Prune(prune bool) RequestOption { return func(r *requestOptions) { r.prune = &prune } }

// UploadManifest ingests a dbt manifest.json (schema v4 to v12): its nodes
// become assets, its dependencies edges and its data tests quality rules.
// The bytes are gzipped on the way unless they already are (they start with
// the gzip magic 0x1f 0x8b). Uploading the same manifest twice changes
// nothing, so the upload is retried like other POSTs. Options: [Project],
// [Prune], [Namespace] and the usual request options. Each attempt may take up to
// [ManifestTimeout].
func (s *LineageService) UploadManifest(ctx context.Context, manifest []byte, ro ...RequestOption) (*ManifestSummary, *Response, error) {
	return uploadGzipped[ManifestSummary](ctx, s.c, "/lineage/manifest", manifest, "the manifest", ro)
}

// UploadManifestFile reads a manifest file (plain or gzipped, such as
// target/manifest.json) and uploads it with [LineageService.UploadManifest].
func (s *LineageService) UploadManifestFile(ctx context.Context, path string, ro ...RequestOption) (*ManifestSummary, *Response, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, fmt.Errorf("governance: reading the manifest: %w", err)
	}
	return s.UploadManifest(ctx, data, ro...)
}

// uploadGzipped posts a dbt artifact gzipped, allowing [ManifestTimeout] per
// attempt; what names it in an error.
func uploadGzipped[T any](ctx context.Context, c *Client, path string, data []byte, what string,
	ro []RequestOption) (*T, *Response, error) {
	body, err := gzipped(data, what)
	if err != nil {
		return nil, nil, err
	}
	return sendFor[T](ctx, c, call{
		method: http.MethodPost, path: path, raw: body,
		contentType: "application/json", contentEncoding: "gzip",
		timeout: ManifestTimeout, opts: ro,
	})
}

func isGzip(b []byte) bool { return len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b }

// gzipped returns data gzipped, or as it is when it already is gzip; what
// names the data in an error.
func gzipped(data []byte, what string) ([]byte, error) {
	if isGzip(data) {
		return data, nil
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(data); err != nil {
		return nil, fmt.Errorf("governance: compressing %s: %w", what, err)
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("governance: compressing %s: %w", what, err)
	}
	return buf.Bytes(), nil
}
