package governance

// Unit tests of lineage export against local fake servers: what is asked
// for, and the file, its name and the truncation flag read back.

import (
	"errors"
	"net/http"
	"testing"
)

func TestExportAsksForTheFormatAndReadsTheFileBack(t *testing.T) {
	const dot = "digraph lineage {\n  // truncated at 2 assets\n}\n"
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/vnd.graphviz; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="lineage-s3_lake_x.dot"; filename*=UTF-8''lineage-s3%3A__lake_x.dot`)
		w.Header().Set("Lineage-Truncated", "true")
		_, _ = w.Write([]byte(dot))
	})
	opts := &ExportOptions{Direction: DirectionUpstream, Depth: 3, Limit: 2, AsOf: moment}
	got, resp, err := c.Lineage.Export(ctx, "s3://lake/x", ExportDOT, opts)
	if err != nil {
		t.Fatal(err)
	}
	if string(got.Text) != dot || got.Filename != "lineage-s3:__lake_x.dot" || !got.Truncated || resp.StatusCode != 200 {
		t.Errorf("export = %+v (%q)", got, got.Text)
	}
	r := f.requests[0]
	if r.URL.EscapedPath() != "/api/v1/lineage/s3%3A%2F%2Flake%2Fx/export" {
		t.Errorf("path %s", r.URL.EscapedPath())
	}
	want := map[string]string{"format": "dot", "direction": "upstream", "depth": "3", "limit": "2", "as_of": momentWire}
	for name, value := range want {
		if got := r.URL.Query().Get(name); got != value {
			t.Errorf("%s = %q; want %q", name, got, value)
		}
	}
	if accept := r.Header.Get("Accept"); accept != "text/vnd.graphviz, application/problem+json" {
		t.Errorf("Accept %q", accept)
	}
}

func TestExportWithoutOptionsSendsOnlyTheFormat(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Lineage-Truncated", "false")
		w.Header().Set("Content-Disposition", `attachment; filename="lineage-a.json"`)
		writeJSON(w, 200, []any{})
	})
	got, _, err := c.Lineage.Export(ctx, "a", ExportOpenLineage, nil)
	if err != nil || got.Truncated || string(got.Text) != "[]\n" || got.Filename != "lineage-a.json" {
		t.Fatalf("export = %+v, %v", got, err)
	}
	if q := f.requests[0].URL.RawQuery; q != "format=openlineage" {
		t.Errorf("query %q", q)
	}
}

func TestExportRefusesAMissingFormatOrIDBeforeSending(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
	if _, _, err := c.Lineage.Export(ctx, "a", "", nil); !errors.Is(err, errNoExportFormat) {
		t.Errorf("no format: %v", err)
	}
	if _, _, err := c.Lineage.Export(ctx, "", ExportCSV, nil); !errors.Is(err, errEmptyID) {
		t.Errorf("no id: %v", err)
	}
	if len(f.requests) != 0 {
		t.Errorf("%d requests sent", len(f.requests))
	}
}

func TestExportErrorsAreTheServicesProblems(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("format") == "svg" {
			writeProblem(w, 422, "validation_error", nil)
			return
		}
		writeProblem(w, 404, "asset_not_found", nil)
	})
	if _, _, err := c.Lineage.Export(ctx, "gone", ExportMermaid, nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown asset: %v; want ErrNotFound", err)
	}
	if _, _, err := c.Lineage.Export(ctx, "a", "svg", nil); !errors.Is(err, ErrValidation) {
		t.Errorf("unknown format: %v; want ErrValidation", err)
	}
}
