package governance

// Unit tests of the live event stream against scripted SSE servers.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// sse writes raw stream text and flushes it.
func sse(w http.ResponseWriter, text string) {
	_, _ = io.WriteString(w, text)
	w.(http.Flusher).Flush()
}

func startStream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
	w.WriteHeader(http.StatusOK)
}

func frame(seq int64, typ string) string {
	return fmt.Sprintf("id: %d\nevent: %s\ndata: {\"id\":\"evt_%d\",\"seq\":%d,\"type\":%q,"+
		"\"occurred_at\":\"2026-01-02T03:04:05Z\",\"actor\":\"token:t\",\"data\":{}}\n\n", seq, typ, seq, seq, typ)
}

// streamCtx bounds a test's stream so a bug cannot hang the suite.
func streamCtx(t *testing.T) context.Context {
	t.Helper()
	c, cancel := context.WithTimeout(ctx, 10*time.Second)
	t.Cleanup(cancel)
	return c
}

func TestStreamParsesFramesAndResumesAfterADrop(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		startStream(w)
		switch n {
		case 1:
			sse(w, "retry: 1500\n: connected\n\n")
			// The envelope split over two data lines, then a heartbeat.
			sse(w, "id: 5\nevent: asset.created\ndata: {\"id\":\"evt_5\",\"seq\":5,\n"+
				"data: \"type\":\"asset.created\",\"occurred_at\":\"2026-01-02T03:04:05Z\",\"actor\":\"a\",\"data\":{\"id\":\"x\"}}\n\n")
			sse(w, ": keepalive\n\n")
			sse(w, strings.ReplaceAll(frame(6, "asset.updated"), "\n", "\r\n"))
			// The handler returns: the connection ends.
		default:
			sse(w, "retry: 2000\n\n"+frame(6, "asset.updated")+frame(7, "asset.deleted"))
			<-r.Context().Done()
		}
	})
	var seqs []int64
	for ev, err := range c.Events.Stream(streamCtx(t), &StreamOptions{After: Ptr[int64](4), Types: []string{"asset.*", " "}}) {
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, ev.Seq)
		if ev.Seq == 5 && (ev.Type != "asset.created" || string(ev.Data) != `{"id":"x"}` || ev.OccurredAt.IsZero()) {
			t.Errorf("event 5 = %+v", ev)
		}
		if ev.Seq == 7 {
			break
		}
	}
	if fmt.Sprint(seqs) != "[5 6 7]" {
		t.Errorf("events %v; want [5 6 7], each once", seqs)
	}
	if fmt.Sprint(*sleeps) != "[1.5s]" {
		t.Errorf("waits before reconnecting %v; want the service's retry, [1.5s]", *sleeps)
	}
	first, second := f.requests[0], f.requests[1]
	if first.URL.RawQuery != "after=4&types=asset.%2A" || first.Header.Get("Last-Event-ID") != "" {
		t.Errorf("first request %q, Last-Event-ID %q", first.URL.RawQuery, first.Header.Get("Last-Event-ID"))
	}
	if second.URL.RawQuery != "types=asset.%2A" || second.Header.Get("Last-Event-ID") != "6" {
		t.Errorf("resumed request %q, Last-Event-ID %q; want types only and 6", second.URL.RawQuery, second.Header.Get("Last-Event-ID"))
	}
	for _, r := range f.requests {
		if r.URL.Path != "/api/v1/events/stream" || r.Header.Get("Accept") != "text/event-stream" ||
			r.Header.Get("Authorization") != "Bearer dgs_test" {
			t.Errorf("request %s %v", r.URL.Path, r.Header)
		}
	}
}

func TestStreamStopsOnAnErrorNotWorthRetrying(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeProblem(w, 401, "invalid_token", nil)
	})
	var errs []error
	for _, err := range c.Events.Stream(streamCtx(t), nil) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrAuthentication) || f.count() != 1 || len(*sleeps) != 0 {
		t.Errorf("yielded %v after %d requests, sleeps %v; want one ErrAuthentication, no retry", errs, f.count(), *sleeps)
	}
}

func TestStreamRetriesAFailingServiceThenGivesUp(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3")
		writeProblem(w, 503, "neo4j_unavailable", nil)
	})
	var errs []error
	for _, err := range c.Events.Stream(streamCtx(t), nil, MaxRetries(1), RequestID("r-1")) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], ErrUnavailable) || f.count() != 2 || fmt.Sprint(*sleeps) != "[3s]" {
		t.Errorf("yielded %v after %d requests, sleeps %v; want ErrUnavailable after 2, sleeps [3s]", errs, f.count(), *sleeps)
	}
	if got := f.requests[1].Header.Get("X-Request-ID"); got != "r-1" {
		t.Errorf("X-Request-ID = %q; want r-1", got)
	}
}

func TestStreamReconnectsASilentConnection(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		startStream(w)
		sse(w, "retry: 10\n\n")
		if n > 1 {
			sse(w, frame(1, "asset.created"))
		}
		<-r.Context().Done() // silent from here on
	})
	for ev, err := range c.Events.Stream(streamCtx(t), nil, Timeout(50*time.Millisecond)) {
		if err != nil || ev.Seq != 1 {
			t.Fatalf("yielded %+v, %v; want event 1", ev, err)
		}
		break
	}
	if f.count() != 2 || fmt.Sprint(*sleeps) != "[10ms]" {
		t.Errorf("%d requests, sleeps %v; want a reconnect after the silent one, sleeps [10ms]", f.count(), *sleeps)
	}
}

func TestStreamEndsWithTheContextError(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		startStream(w)
		sse(w, frame(1, "asset.created"))
		<-r.Context().Done()
	})
	sctx, cancel := context.WithCancel(streamCtx(t))
	defer cancel()
	var got []string
	for ev, err := range c.Events.Stream(sctx, nil) {
		if err != nil {
			got = append(got, err.Error())
			if !errors.Is(err, context.Canceled) {
				t.Errorf("err = %v; want context.Canceled", err)
			}
			continue
		}
		got = append(got, ev.Type)
		cancel()
	}
	if len(got) != 2 || got[0] != "asset.created" {
		t.Errorf("yielded %v; want the event, then the context's error", got)
	}
}

func TestStreamRefusesAnAnswerThatIsNotAStream(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"items": []any{}})
	})
	var errs []error
	for _, err := range c.Events.Stream(streamCtx(t), nil) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "text/event-stream") || f.count() != 1 {
		t.Errorf("yielded %v after %d requests; want one error naming text/event-stream", errs, f.count())
	}
}

func TestStreamYieldsAnUndecodableEventAsAnError(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		startStream(w)
		sse(w, "id: 3\ndata: not json\n\n")
		<-r.Context().Done()
	})
	var errs []error
	for _, err := range c.Events.Stream(streamCtx(t), nil) {
		errs = append(errs, err)
	}
	if len(errs) != 1 || errs[0] == nil || !strings.Contains(errs[0].Error(), `after id "3"`) {
		t.Errorf("yielded %v; want one decoding error", errs)
	}
}

func TestLineReaderSplitsOnEveryLineEnd(t *testing.T) {
	lines := newLineReader(strings.NewReader("a\r\nb\rc\n\rd"))
	var got []string
	for {
		line, err := lines.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		got = append(got, string(line))
	}
	if fmt.Sprintf("%q", got) != `["a" "b" "c" ""]` {
		t.Errorf("lines %q; want a, b, c, an empty line, and the unfinished d dropped", got)
	}
}

func TestSubscribeReturnsOnceTheServiceAnswered(t *testing.T) {
	release := make(chan struct{})
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		startStream(w)
		w.(http.Flusher).Flush() // the headers alone: subscribed, nothing to send yet
		select {
		case <-release:
		case <-r.Context().Done():
			return
		}
		sse(w, frame(8, "asset.created"))
		<-r.Context().Done()
	})
	var connects []ConnectInfo
	sub, err := c.Events.Subscribe(streamCtx(t), &StreamOptions{
		Types:     []string{"asset.created"},
		OnConnect: func(info ConnectInfo) { connects = append(connects, info) },
	})
	if err != nil {
		t.Fatal(err)
	}
	defer sub.Close()
	// Subscribe returned while the service has sent no event: it waited for
	// the answer, not for data.
	if f.count() != 1 || len(connects) != 1 || connects[0] != (ConnectInfo{}) {
		t.Fatalf("after Subscribe: %d requests, connects %+v; want 1 and one first connect", f.count(), connects)
	}
	close(release)
	for ev, err := range sub.Events() {
		if err != nil || ev.Seq != 8 {
			t.Fatalf("yielded %+v, %v; want event 8", ev, err)
		}
		break
	}
	// The loop stopped: the subscription is over and cannot be read again.
	var errs []error
	for _, err := range sub.Events() {
		errs = append(errs, err)
	}
	if len(errs) != 1 || !errors.Is(errs[0], errSubscriptionTaken) {
		t.Errorf("a second Events yielded %v; want errSubscriptionTaken", errs)
	}
}

func TestSubscribeRetriesThenFailsWithoutYielding(t *testing.T) {
	f, c, sleeps := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		if n == 1 {
			writeProblem(w, 503, "neo4j_unavailable", nil)
			return
		}
		writeProblem(w, 401, "invalid_token", nil)
	})
	called := false
	sub, err := c.Events.Subscribe(streamCtx(t), &StreamOptions{OnConnect: func(ConnectInfo) { called = true }})
	if sub != nil || !errors.Is(err, ErrAuthentication) || f.count() != 2 || len(*sleeps) != 1 || called {
		t.Errorf("Subscribe = %v, %v after %d requests, sleeps %v, OnConnect called %v; "+
			"want ErrAuthentication after one retry, no OnConnect", sub, err, f.count(), *sleeps, called)
	}
}

func TestSubscriptionCloseEndsTheLoopWithoutAnError(t *testing.T) {
	f, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		startStream(w)
		sse(w, frame(1, "asset.created"))
		<-r.Context().Done()
	})
	sub, err := c.Events.Subscribe(streamCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []int64
	for ev, err := range sub.Events() {
		if err != nil {
			t.Fatalf("yielded %v after Close; want the loop to end quietly", err)
		}
		got = append(got, ev.Seq)
		sub.Close()
	}
	if fmt.Sprint(got) != "[1]" || f.count() != 1 {
		t.Errorf("events %v over %d connections; want [1] over 1", got, f.count())
	}
	sub.Close() // again: no effect

	// Closed before being read: the connection is released, Events says so.
	sub, err = c.Events.Subscribe(streamCtx(t), nil)
	if err != nil {
		t.Fatal(err)
	}
	sub.Close()
	for _, err := range sub.Events() {
		if !errors.Is(err, errSubscriptionTaken) {
			t.Errorf("Events after Close yielded %v; want errSubscriptionTaken", err)
		}
	}
}

func TestOnConnectIsCalledOnEveryConnection(t *testing.T) {
	_, c, _ := newFake(t, func(n int, w http.ResponseWriter, r *http.Request) {
		startStream(w)
		sse(w, "retry: 5\n\n"+frame(int64(n), "asset.created"))
		if n > 1 {
			<-r.Context().Done()
		}
		// The first connection ends here: the stream connects again.
	})
	var connects []ConnectInfo
	opts := &StreamOptions{OnConnect: func(info ConnectInfo) { connects = append(connects, info) }}
	var seqs []int64
	for ev, err := range c.Events.Stream(streamCtx(t), opts) {
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, ev.Seq)
		if len(connects) != len(seqs) {
			t.Errorf("event %d read after %d connects; want OnConnect before each connection's events", ev.Seq, len(connects))
		}
		if ev.Seq == 2 {
			break
		}
	}
	want := []ConnectInfo{{}, {Reconnect: true, LastEventID: "1"}}
	if fmt.Sprint(seqs) != "[1 2]" || fmt.Sprint(connects) != fmt.Sprint(want) {
		t.Errorf("events %v, connects %+v; want [1 2] and %+v", seqs, connects, want)
	}
}
