package governance

// Unit tests of webhook verification, manifest upload and the event log
// against local fake servers. No service needed.

import (
	"bytes"
	"compress/gzip"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

const testSecret = "whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

func signedHeader(id string, ts int64, body string) http.Header {
	key, _ := base64.StdEncoding.DecodeString(testSecret[len("whsec_"):])
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + strconv.FormatInt(ts, 10) + "." + body))
	h := http.Header{}
	h.Set("webhook-id", id)
	h.Set("webhook-timestamp", strconv.FormatInt(ts, 10))
	h.Set("webhook-signature", "v1,"+base64.StdEncoding.EncodeToString(mac.Sum(nil)))
	return h
}

func TestVerifyWebhookDecodesTheEnvelope(t *testing.T) {
	body := `{"id":"evt_1","seq":7,"type":"alert.quality","occurred_at":"2026-11-21T12:00:00.000Z",` +
		`"actor":"system","data":{"rule":"r1"},"alert":true,"severity":"high"}`
	now := time.Unix(1795262400, 0)
	ev, err := VerifyWebhook(testSecret, signedHeader("evt_1", now.Unix(), body), []byte(body), WithNow(now))
	if err != nil {
		t.Fatal(err)
	}
	if ev.ID != "evt_1" || ev.Seq != 7 || ev.Type != "alert.quality" || ev.Actor != "system" ||
		!ev.Alert || ev.Severity != "high" || string(ev.Data) != `{"rule":"r1"}` ||
		!ev.OccurredAt.Equal(time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("event = %+v", ev)
	}
}

func TestVerifyWebhookRefusesStaleAndBrokenDeliveries(t *testing.T) {
	body := `{"id":"evt_1","seq":1,"type":"asset.created","occurred_at":"2026-11-21T12:00:00Z","actor":"a","data":{}}`
	ts := int64(1795262400)
	at := time.Unix(ts, 0)
	good := signedHeader("evt_1", ts, body)
	if _, err := VerifyWebhook(testSecret, good, []byte(body), WithNow(at.Add(4*time.Minute))); err != nil {
		t.Errorf("within the default tolerance: %v", err)
	}
	if _, err := VerifyWebhook(testSecret, good, []byte(body), WithNow(at.Add(-4*time.Minute))); err != nil {
		t.Errorf("slightly in the future: %v", err)
	}
	// The secret without its prefix works too.
	if _, err := VerifyWebhook(testSecret[len("whsec_"):], good, []byte(body), WithNow(at)); err != nil {
		t.Errorf("secret without whsec_: %v", err)
	}
	cases := map[string]struct {
		secret string
		header http.Header
		body   string
		opts   []VerifyOption
	}{
		"too old":             {testSecret, good, body, []VerifyOption{WithNow(at.Add(6 * time.Minute))}},
		"too new":             {testSecret, good, body, []VerifyOption{WithNow(at.Add(-6 * time.Minute))}},
		"tighter tolerance":   {testSecret, good, body, []VerifyOption{WithNow(at.Add(time.Minute)), WithTolerance(30 * time.Second)}},
		"tampered body":       {testSecret, good, body + " ", []VerifyOption{WithNow(at)}},
		"other secret":        {"whsec_" + base64.StdEncoding.EncodeToString([]byte("other")), good, body, []VerifyOption{WithNow(at)}},
		"bad secret":          {"whsec_!!!", good, body, []VerifyOption{WithNow(at)}},
		"no signature header": {testSecret, http.Header{"Webhook-Id": {"evt_1"}, "Webhook-Timestamp": {"1795262400"}}, body, []VerifyOption{WithNow(at)}},
		"bad timestamp":       {testSecret, http.Header{"Webhook-Id": {"evt_1"}, "Webhook-Timestamp": {"x"}, "Webhook-Signature": good["Webhook-Signature"]}, body, []VerifyOption{WithNow(at)}},
		"other version":       {testSecret, http.Header{"Webhook-Id": {"evt_1"}, "Webhook-Timestamp": {"1795262400"}, "Webhook-Signature": {"v2" + good.Get("webhook-signature")[2:]}}, body, []VerifyOption{WithNow(at)}},
	}
	for name, c := range cases {
		if _, err := VerifyWebhook(c.secret, c.header, []byte(c.body), c.opts...); !errors.Is(err, ErrWebhookVerification) {
			t.Errorf("%s: err = %v; want ErrWebhookVerification", name, err)
		}
	}
}

func gunzipString(t *testing.T, s string) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader([]byte(s)))
	if err != nil {
		t.Fatalf("body is not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestUploadManifestGzipsOnceAndIsRetried(t *testing.T) {
	summary := map[string]any{
		"project": "shop", "dbt_version": "1.8.10", "dbt_schema_version": "https://schemas.getdbt.com/dbt/manifest/v12.json",
		"assets": map[string]any{"created": 8, "updated": 0}, "edges": map[string]any{"created": 8, "existing": 0, "removed": 0},
		"quality_rules": map[string]any{"created": 3, "updated": 0, "removed": 0}, "skipped": 1, "warnings": []string{"w"},
	}
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			writeProblem(w, 503, "unavailable", nil)
			return
		}
		writeJSON(w, 200, summary)
	})
	manifest := []byte(`{"metadata":{"dbt_version":"1.8.10"}}`)
	got, _, err := c.Lineage.UploadManifest(ctx, manifest, Project("shop"), Prune(false))
	if err != nil {
		t.Fatal(err)
	}
	if got.Project != "shop" || got.DbtVersion != "1.8.10" || got.Assets.Created != 8 || got.Edges.Created != 8 ||
		got.QualityRules.Created != 3 || got.Skipped != 1 || len(got.Warnings) != 1 {
		t.Errorf("summary = %+v", got)
	}
	if f.count() != 2 {
		t.Fatalf("%d requests; want 2 (one retry)", f.count())
	}
	for i, r := range f.requests {
		if r.Method != "POST" || r.URL.Path != "/api/v1/lineage/manifest" ||
			r.URL.Query().Get("project") != "shop" || r.URL.Query().Get("prune") != "false" ||
			r.Header.Get("Content-Type") != "application/json" || r.Header.Get("Content-Encoding") != "gzip" {
			t.Errorf("request %d: %s %s %v", i, r.Method, r.URL, r.Header)
		}
		if gunzipString(t, f.bodies[i]) != string(manifest) {
			t.Errorf("request %d: body does not gunzip to the manifest", i)
		}
	}
	if k := f.requests[0].Header.Get("Idempotency-Key"); k == "" || k != f.requests[1].Header.Get("Idempotency-Key") {
		t.Errorf("Idempotency-Keys %q, %q; want one, the same", k, f.requests[1].Header.Get("Idempotency-Key"))
	}

	// Already gzipped bytes (from a file) go as they are, without project/prune by default.
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(manifest)
	zw.Close()
	path := filepath.Join(t.TempDir(), "manifest.json.gz")
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Lineage.UploadManifestFile(ctx, path); err != nil {
		t.Fatal(err)
	}
	last := f.requests[2]
	if f.bodies[2] != buf.String() || last.URL.RawQuery != "" || last.Header.Get("Content-Encoding") != "gzip" {
		t.Errorf("gzipped upload: query %q, encoding %q, body re-compressed: %v",
			last.URL.RawQuery, last.Header.Get("Content-Encoding"), f.bodies[2] != buf.String())
	}
	if _, _, err := c.Lineage.UploadManifestFile(ctx, filepath.Join(t.TempDir(), "missing.json")); err == nil || f.count() != 3 {
		t.Errorf("missing file: %v, %d requests", err, f.count())
	}
}

func TestEventsAllJoinsTypesAndFollowsCursors(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("cursor") {
		case "":
			writeJSON(w, 200, map[string]any{"items": []map[string]any{
				{"id": "e1", "seq": 11, "type": "asset.created", "occurred_at": "2026-11-21T12:00:00Z", "actor": "a", "data": map[string]any{"id": "x"}},
			}, "next_cursor": "c2"})
		default:
			writeJSON(w, 200, map[string]any{"items": []map[string]any{
				{"id": "e2", "seq": 12, "type": "lineage.manifest.ingested", "occurred_at": "2026-11-21T12:00:01Z", "actor": "a", "data": map[string]any{"project": "p"}},
			}, "next_cursor": nil})
		}
	})
	var seqs []int64
	for ev, err := range c.Events.All(ctx, &EventListOptions{After: 10, Types: []string{"asset.*", "lineage.manifest.ingested"},
		ListOptions: ListOptions{Limit: 1}}) {
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, ev.Seq)
	}
	if len(seqs) != 2 || seqs[0] != 11 || seqs[1] != 12 {
		t.Errorf("seqs = %v", seqs)
	}
	q := f.requests[0].URL.Query()
	if f.requests[0].URL.Path != "/api/v1/events" || q.Get("after") != "10" ||
		q.Get("types") != "asset.*,lineage.manifest.ingested" || q.Get("limit") != "1" {
		t.Errorf("first request %s", f.requests[0].URL)
	}
	if q := f.requests[1].URL.Query(); q.Get("cursor") != "c2" || q.Get("types") != "asset.*,lineage.manifest.ingested" {
		t.Errorf("second request %s", f.requests[1].URL)
	}
	page, _, err := c.Events.List(ctx, nil)
	if err != nil || len(page.Items) != 1 || page.NextCursor != "c2" || f.requests[2].URL.RawQuery != "" {
		t.Errorf("List(nil) = %+v, %v; query %q", page, err, f.requests[2].URL.RawQuery)
	}
}
