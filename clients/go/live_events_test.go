//go:build live

package governance

// Live tests of webhooks (a signed delivery to a receiver on loopback) and of
// the event stream (a change seen live, a cut connection resumed without a
// gap or a repeat); see live_test.go for what they need.

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// eventually polls cond every few milliseconds, backing off, until it holds
// or the bound passes.
func eventually(t *testing.T, bound time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(bound)
	for wait := 10 * time.Millisecond; !cond(); wait = min(wait*2, 500*time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", bound, what)
		}
		time.Sleep(wait)
	}
}

// delivery is one request a webhook receiver got.
type delivery struct {
	header http.Header
	body   []byte
}

// receiver is a webhook endpoint on 127.0.0.1, port 0.
func receiver(t *testing.T) (*httptest.Server, <-chan delivery) {
	t.Helper()
	got := make(chan delivery, 64)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		select {
		case got <- delivery{r.Header.Clone(), body}:
		default: // the test stopped listening
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(srv.Close)
	return srv, got
}

// awaitDelivery returns the first delivery that verifies and whose event
// matches, failing the test after bound.
func awaitDelivery(t *testing.T, got <-chan delivery, secret string, bound time.Duration, match func(Event) bool) (delivery, Event) {
	t.Helper()
	timeout := time.After(bound)
	for {
		select {
		case d := <-got:
			ev, err := VerifyWebhook(secret, d.header, d.body)
			if err != nil {
				t.Fatalf("a delivery does not verify: %v (%s)", err, d.body)
			}
			if match(ev) {
				return d, ev
			}
		case <-timeout:
			t.Fatalf("no matching delivery within %v", bound)
		}
	}
}

func eventAssetID(ev Event) string {
	var data struct {
		ID string `json:"id"`
	}
	_ = json.Unmarshal(ev.Data, &data)
	return data.ID
}

func TestLiveWebhookDeliversSignedEvents(t *testing.T) {
	c, p := live(t)
	srv, got := receiver(t)
	hook, _, err := c.Webhooks.Create(ctx, WebhookRequest{
		URL: srv.URL + "/hook", Types: []string{"asset.created"}, Description: p + "receiver",
	})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	t.Cleanup(func() {
		if _, err := c.Webhooks.Delete(ctx, hook.ID); err != nil && !errors.Is(err, ErrNotFound) {
			t.Errorf("cleanup: deleting webhook %s: %v", hook.ID, err)
		}
	})
	if !strings.HasPrefix(hook.Secret, "whsec_") || !hook.Enabled || !slices.Equal(hook.Types, []string{"asset.created"}) ||
		hook.CreatedAt.IsZero() {
		t.Errorf("created webhook = %+v", hook)
	}

	// A test delivery, signed with the secret shown at creation.
	res, _, err := c.Webhooks.Test(ctx, hook.ID)
	if err != nil || !res.Delivered || res.Status != http.StatusNoContent {
		t.Fatalf("Test = %+v, %v", res, err)
	}
	_, ev := awaitDelivery(t, got, hook.Secret, 10*time.Second, func(ev Event) bool { return ev.Type == "webhook.test" })
	if ev.Seq != 0 || ev.ID == "" {
		t.Errorf("test event = %+v", ev)
	}

	// A change is delivered signed; a tampered copy does not verify.
	id := p + "hooked"
	mustCreate(t, c, Asset{ID: id, Name: "hooked", Type: "table"})
	d, ev := awaitDelivery(t, got, hook.Secret, 30*time.Second, func(ev Event) bool {
		return ev.Type == "asset.created" && eventAssetID(ev) == id
	})
	if ev.Seq <= 0 || d.header.Get("webhook-id") != ev.ID {
		t.Errorf("event %+v under webhook-id %q", ev, d.header.Get("webhook-id"))
	}
	tampered := []byte(strings.Replace(string(d.body), id, p+"other", 1))
	if _, err := VerifyWebhook(hook.Secret, d.header, tampered); !errors.Is(err, ErrWebhookVerification) {
		t.Errorf("a tampered delivery verified: %v", err)
	}

	// The delivery log records it.
	eventually(t, 30*time.Second, "the delivery is logged as delivered", func() bool {
		for dl, err := range c.Webhooks.AllDeliveries(ctx, hook.ID, &ListOptions{Limit: 50}) {
			if err != nil {
				t.Fatal(err)
			}
			if dl.EventID == ev.ID {
				return dl.State == DeliveryDelivered && dl.Attempts >= 1 && dl.LastStatus == http.StatusNoContent
			}
		}
		return false
	})

	// Read (its health is recorded just after the delivery), change, list
	// and delete.
	eventually(t, 30*time.Second, "the webhook records its last delivery", func() bool {
		read, _, err := c.Webhooks.Get(ctx, hook.ID)
		if err != nil || read.URL != hook.URL || read.FailingSince != nil {
			t.Fatalf("Get = %+v, %v", read, err)
		}
		return read.LastDeliveryAt != nil
	})
	patched, _, err := c.Webhooks.Patch(ctx, hook.ID, map[string]any{"enabled": false, "description": nil})
	if err != nil || patched.Enabled || patched.Description != "" || patched.URL != hook.URL {
		t.Errorf("Patch = %+v, %v", patched, err)
	}
	_, _, err = c.Webhooks.Patch(ctx, hook.ID, map[string]any{"url": "ftp://example.com/"})
	apiError(t, err, ErrValidation, "")
	if !slices.ContainsFunc(collect(t, c.Webhooks.All(ctx, &ListOptions{Limit: 2})), func(x Webhook) bool { return x.ID == hook.ID }) {
		t.Error("the webhook is not listed")
	}
	if _, err := c.Webhooks.Delete(ctx, hook.ID); err != nil {
		t.Fatal(err)
	}
	_, _, err = c.Webhooks.Get(ctx, hook.ID)
	apiError(t, err, ErrNotFound, "")
}

// cutter is a loopback TCP proxy to the service that can cut every
// connection through it.
type cutter struct {
	ln       net.Listener
	mu       sync.Mutex
	conns    []net.Conn
	accepted int
}

func newCutter(t *testing.T, upstream string) *cutter {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutter{ln: ln}
	t.Cleanup(func() { ln.Close(); p.cut() })
	go p.serve(upstream)
	return p
}

func (p *cutter) serve(upstream string) {
	for {
		down, err := p.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", upstream)
		if err != nil {
			down.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, down, up)
		p.accepted++
		p.mu.Unlock()
		go func() { _, _ = io.Copy(up, down); up.Close() }()
		go func() { _, _ = io.Copy(down, up); down.Close() }()
	}
}

// cut closes every connection made so far.
func (p *cutter) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

func (p *cutter) connections() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted
}

func TestLiveStreamSeesChangesAndResumesAfterACut(t *testing.T) {
	c, p := live(t)
	base, err := url.Parse(os.Getenv("GOVERNANCE_URL"))
	if err != nil {
		t.Fatal(err)
	}
	proxy := newCutter(t, base.Host)
	through, err := NewClient(WithBaseURL("http://" + proxy.ln.Addr().String()))
	if err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithTimeout(ctx, 2*time.Minute)
	defer stop()
	type item struct {
		ev  Event
		err error
	}
	seen := make(chan item, 256)
	subscribed := make(chan struct{})
	opts := &StreamOptions{Types: []string{"asset.*"}, OnConnect: func(info ConnectInfo) {
		if !info.Reconnect {
			close(subscribed)
		}
	}}
	go func() {
		defer close(seen)
		for ev, err := range through.Events.Stream(sctx, opts) {
			seen <- item{ev, err}
		}
	}()
	// From the first connect on no change is missed.
	select {
	case <-subscribed:
	case it := <-seen:
		t.Fatalf("the stream ended before it connected: %v", it.err)
	}
	await := func(id string) Event {
		t.Helper()
		for {
			select {
			case it, ok := <-seen:
				if !ok || it.err != nil {
					t.Fatalf("the stream ended: %v", it.err)
				}
				if it.ev.Type == "asset.created" && eventAssetID(it.ev) == id {
					return it.ev
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("no asset.created event for %s", id)
			}
		}
	}

	first, second, third := p+"s1", p+"s2", p+"s3"
	mustCreate(t, c, Asset{ID: first, Name: "s1", Type: "table"})
	ev1 := await(first)
	var streamed []Event
	streamed = append(streamed, ev1)

	// Cut the connection; what happens meanwhile comes after the reconnect.
	proxy.cut()
	mustCreate(t, c, Asset{ID: second, Name: "s2", Type: "table"})
	mustCreate(t, c, Asset{ID: third, Name: "s3", Type: "table"})
	for done := false; !done; {
		select {
		case it, ok := <-seen:
			if !ok || it.err != nil {
				t.Fatalf("the stream ended: %v", it.err)
			}
			streamed = append(streamed, it.ev)
			done = it.ev.Type == "asset.created" && eventAssetID(it.ev) == third
		case <-time.After(30 * time.Second):
			t.Fatal("no event after the cut")
		}
	}
	if proxy.connections() < 2 {
		t.Errorf("%d connections; want a reconnect after the cut", proxy.connections())
	}
	stop()

	// Exactly the log's asset events from the first on, each once, in order.
	var logged []int64
	for ev, err := range c.Events.All(ctx, &EventListOptions{After: ev1.Seq - 1, Types: []string{"asset.*"},
		ListOptions: ListOptions{Limit: 500}}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Seq > streamed[len(streamed)-1].Seq {
			break
		}
		logged = append(logged, ev.Seq)
	}
	var got []int64
	for _, ev := range streamed {
		got = append(got, ev.Seq)
	}
	if !slices.Equal(got, logged) {
		t.Errorf("streamed seqs %v; the log has %v", got, logged)
	}
	ids := map[string]bool{}
	for _, ev := range streamed {
		if ev.Type == "asset.created" {
			ids[eventAssetID(ev)] = true
		}
	}
	if !ids[first] || !ids[second] || !ids[third] {
		t.Errorf("streamed creations %v; want %s, %s and %s", ids, first, second, third)
	}
}

func TestLiveStreamReplaysFromASequence(t *testing.T) {
	c, p := live(t)
	id := p + "replayed"
	mustCreate(t, c, Asset{ID: id, Name: "replayed", Type: "table"})
	var created Event
	for ev, err := range c.Events.All(ctx, &EventListOptions{Types: []string{"asset.created"}, ListOptions: ListOptions{Limit: 500}}) {
		if err != nil {
			t.Fatal(err)
		}
		if eventAssetID(ev) == id {
			created = ev
		}
	}
	if created.Seq == 0 {
		t.Fatalf("no asset.created event for %s in the log", id)
	}
	sctx, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	for ev, err := range c.Events.Stream(sctx, &StreamOptions{After: Ptr(created.Seq - 1), Types: []string{"asset.created"}}) {
		if err != nil {
			t.Fatal(err)
		}
		if ev.Seq != created.Seq || ev.ID != created.ID {
			t.Errorf("first replayed event %+v; want %+v", ev, created)
		}
		break
	}
}

func TestLiveSubscribeSeesAnEventWrittenRightAfter(t *testing.T) {
	c, p := live(t)
	sctx, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	// No After: nothing is replayed, so the event can only come live.
	sub, err := c.Events.Subscribe(sctx, &StreamOptions{Types: []string{"asset.created"}})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	id := p + "subscribed"
	mustCreate(t, c, Asset{ID: id, Name: "subscribed", Type: "table"})
	for ev, err := range sub.Events() {
		if err != nil {
			t.Fatalf("the subscription ended before the asset.created event of %s: %v", id, err)
		}
		if eventAssetID(ev) == id {
			return
		}
	}
	t.Fatalf("the subscription ended before the asset.created event of %s", id)
}

func TestLiveStreamOnConnectMeansSubscribed(t *testing.T) {
	c, p := live(t)
	sctx, stop := context.WithTimeout(ctx, time.Minute)
	defer stop()
	id := p + "connected"
	connected := make(chan ConnectInfo, 1)
	found := make(chan error, 1)
	opts := &StreamOptions{Types: []string{"asset.created"}, OnConnect: func(info ConnectInfo) {
		select {
		case connected <- info:
		default: // a reconnect; the test waits for the first
		}
	}}
	go func() {
		for ev, err := range c.Events.Stream(sctx, opts) {
			if err != nil || eventAssetID(ev) == id {
				found <- err
				return
			}
		}
	}()
	select {
	case info := <-connected:
		if info.Reconnect || info.LastEventID != "" {
			t.Errorf("first connect %+v; want a first connection with nothing to resume", info)
		}
	case err := <-found:
		t.Fatalf("the stream ended before it connected: %v", err)
	}
	mustCreate(t, c, Asset{ID: id, Name: "connected", Type: "table"})
	if err := <-found; err != nil {
		t.Fatalf("the stream ended before the asset.created event of %s: %v", id, err)
	}
}
