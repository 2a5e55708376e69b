//go:build live

package governance

// Lineage export against a running service: each format names the assets,
// OpenLineage decodes into run events, and a cut neighbourhood says so.

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestLiveExportWritesTheNeighbourhoodInEachFormat(t *testing.T) {
	c, p := live(t)
	a, b := p+"a", p+"b"
	mustCreate(t, c, Asset{ID: a, Name: "A", Type: "table"})
	mustCreate(t, c, Asset{ID: b, Name: "B", Type: "table"})
	if _, _, err := c.Lineage.Create(ctx, EdgeInput{Source: a, Target: b, Transformation: "select * from a"}); err != nil {
		t.Fatal(err)
	}
	for _, format := range []ExportFormat{ExportDOT, ExportMermaid, ExportCSV} {
		got, _, err := c.Lineage.Export(ctx, a, format, &ExportOptions{Direction: DirectionDownstream})
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		text := string(got.Text)
		if got.Truncated || !strings.Contains(text, a) || !strings.Contains(text, b) || !strings.HasPrefix(got.Filename, "lineage-") {
			t.Errorf("%s export = %q, %+v", format, text, got)
		}
	}

	ol, _, err := c.Lineage.Export(ctx, b, ExportOpenLineage, &ExportOptions{Direction: DirectionUpstream})
	if err != nil {
		t.Fatal(err)
	}
	var events []RunEvent
	if err := json.Unmarshal(ol.Text, &events); err != nil {
		t.Fatalf("openlineage export is not run events: %v\n%s", err, ol.Text)
	}
	var jobs []string
	for _, e := range events {
		jobs = append(jobs, e.Job.Name)
		if e.EventType != "COMPLETE" {
			t.Errorf("event type %q", e.EventType)
		}
	}
	if !strings.Contains(strings.Join(jobs, " "), b) || !strings.HasSuffix(ol.Filename, ".json") {
		t.Errorf("jobs %v, file %q", jobs, ol.Filename)
	}

	cut, _, err := c.Lineage.Export(ctx, a, ExportCSV, &ExportOptions{Direction: DirectionDownstream, Limit: 1})
	if err != nil || !cut.Truncated || strings.Contains(string(cut.Text), b) {
		t.Errorf("limit 1: %+v, %v", cut, err)
	}
}

func TestLiveExportRefusesAnUnknownAssetAndFormat(t *testing.T) {
	c, p := live(t)
	_, _, err := c.Lineage.Export(ctx, p+"missing", ExportDOT, nil)
	apiError(t, err, ErrNotFound, "asset_not_found")
	a := p + "a"
	mustCreate(t, c, Asset{ID: a, Name: "A", Type: "table"})
	_, _, err = c.Lineage.Export(ctx, a, "svg", nil)
	apiErr := apiError(t, err, ErrValidation, "")
	if len(apiErr.FieldErrors) != 1 || apiErr.FieldErrors[0].Field() != "query.format" {
		t.Errorf("unknown format: %+v", apiErr.FieldErrors)
	}
}
