package governance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// defaultReconnect is the wait before reconnecting a stream that dropped,
// until the service says otherwise with a "retry:" field.
const defaultReconnect = 2 * time.Second

// StreamOptions choose where [EventsService.Stream] starts and what it yields.
type StreamOptions struct {
	// After starts the stream after this sequence number: the events logged
	// since are replayed first, then the live ones follow without a gap or a
	// repeat. Ptr(int64(0)) replays the whole log. nil starts with the
	// events that happen from now on.
	After *int64
	// Types are event types or prefix patterns ("asset.*"); empty means all.
	Types []string
}

// Stream yields the events of the log as they happen, from the live stream
// (GET /events/stream, Server-Sent Events), until ctx is done or the loop
// stops. When the connection drops (or stays silent past the per-attempt
// timeout; the service sends a heartbeat every 15 s) the stream reconnects
// after the wait the service asked for with "retry:" and resumes after the
// last event it yielded (Last-Event-ID), so no event is missed or repeated.
// A reconnect that fails is retried like a GET, up to the client's
// retries in a row; [MaxRetries] allows this stream more (and [Timeout]
// changes how long it waits for the service).
//
// The sequence ends with an error when the stream cannot go on: ctx.Err()
// when ctx is done, an [*Error] the service answered that is not worth
// retrying (such as [ErrAuthentication] once the token is revoked), or the
// last failure when the retries ran out. Until the first event arrives a
// stream started without After has nothing to resume from, so a reconnect
// then starts at the live edge again; give After to be sure of every event.
func (s *EventsService) Stream(ctx context.Context, opts *StreamOptions, ro ...RequestOption) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		st := newEventStream(s.c, opts, ro)
		failures := 0
		for {
			stopped, opened, err := st.session(ctx, yield)
			if stopped {
				return
			}
			wait := st.reconnect
			if ctx.Err() != nil {
				yield(Event{}, ctx.Err())
				return
			}
			if opened {
				failures = 0
			} else {
				var again bool
				if wait, again = s.c.retryDelay(ctx, http.MethodGet, true, err, failures, st.retries); !again {
					yield(Event{}, err)
					return
				}
				failures++
			}
			if s.c.sleep(ctx, wait) != nil {
				yield(Event{}, ctx.Err())
				return
			}
		}
	}
}

// eventStream is the state one Stream keeps across its connections.
type eventStream struct {
	c       *Client
	ro      requestOptions
	query   url.Values
	retries int
	// lastID is the id of the last event seen, sent as Last-Event-ID.
	lastID string
	// lastSeq is the sequence number of the last event yielded.
	lastSeq   int64
	reconnect time.Duration
}

func newEventStream(c *Client, opts *StreamOptions, ro []RequestOption) *eventStream {
	st := &eventStream{c: c, ro: call{opts: ro}.options(), query: url.Values{}, reconnect: defaultReconnect}
	st.retries = c.maxRetries
	if st.ro.maxRetries != nil {
		st.retries = *st.ro.maxRetries
	}
	if opts != nil {
		set(st.query, "types", joinTypes(opts.Types))
		if opts.After != nil {
			st.query.Set("after", strconv.FormatInt(*opts.After, 10))
			st.lastSeq = *opts.After
		}
	}
	return st
}

// idleTimeout is the error of a stream that stayed silent too long.
type idleTimeout time.Duration

func (e idleTimeout) Error() string {
	return fmt.Sprintf("no data from the event stream for %v", time.Duration(e))
}
func (idleTimeout) Timeout() bool   { return true }
func (idleTimeout) Temporary() bool { return true }

// session reads one connection. stopped: the sequence is over (the caller
// stopped, or an error was yielded); opened: the service answered 200, so
// the next connection waits the reconnection time, not a backoff; err: why a
// connection that is worth reconnecting ended (nil at a clean end).
func (st *eventStream) session(ctx context.Context, yield func(Event, error) bool) (stopped, opened bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var dog *watchdog
	var silent atomic.Bool
	if idle := st.c.attemptTimeout(call{}, st.ro); idle > 0 {
		dog = &watchdog{d: idle, t: time.AfterFunc(idle, func() { silent.Store(true); cancel() })}
		defer dog.pause()
	}
	stopped, opened, err = st.read(ctx, yield, dog)
	if silent.Load() && err != nil && !stopped {
		err = &ConnectionError{Method: http.MethodGet, URL: st.url(), Err: idleTimeout(dog.d)}
	}
	return stopped, opened, err
}

// watchdog cancels a connection that stays silent for d while it is armed.
// A nil *watchdog does nothing.
type watchdog struct {
	d time.Duration
	t *time.Timer
}

// arm starts the wait for the next data.
func (w *watchdog) arm() {
	if w != nil {
		w.t.Reset(w.d)
	}
}

// pause stops the wait while the caller has the event.
func (w *watchdog) pause() {
	if w != nil {
		w.t.Stop()
	}
}

func (st *eventStream) url() string {
	q := st.query
	if st.lastID != "" {
		q = cloneValues(q)
		q.Del("after") // Last-Event-ID says where to resume
	}
	target := st.c.baseURL + "/events/stream"
	if len(q) > 0 {
		target += "?" + q.Encode()
	}
	return target
}

func (st *eventStream) read(ctx context.Context, yield func(Event, error) bool, dog *watchdog) (stopped, opened bool, err error) {
	target := st.url()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		yield(Event{}, fmt.Errorf("governance: building request: %w", err))
		return true, false, nil
	}
	st.c.setHeaders(req, call{accept: "text/event-stream"}, st.ro)
	req.Header.Set("Cache-Control", "no-cache")
	if st.lastID != "" {
		req.Header.Set("Last-Event-ID", st.lastID)
	}
	resp, err := st.c.httpClient.Do(req)
	if err != nil {
		return false, false, &ConnectionError{Method: http.MethodGet, URL: target, Err: err}
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		return false, false, st.c.newError(http.MethodGet, target, resp, data)
	}
	if problem := streamProblem(resp); problem != "" {
		yield(Event{}, fmt.Errorf("governance: GET %s: %s", target, problem))
		return true, false, nil
	}
	stopped, err = st.frames(resp.Body, yield, dog)
	if err != nil && !stopped {
		err = &ConnectionError{Method: http.MethodGet, URL: target, Err: err}
	}
	return stopped, true, err
}

// streamProblem says what is wrong with a 2xx or 3xx answer that is not an
// event stream; empty when it is one.
func streamProblem(resp *http.Response) string {
	if resp.StatusCode != http.StatusOK {
		return "answered " + resp.Status + " instead of an event stream"
	}
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "text/event-stream" {
		return "answered " + strconv.Quote(resp.Header.Get("Content-Type")) + " instead of text/event-stream"
	}
	return ""
}

// frames parses the stream and yields its events; see the Server-Sent
// Events part of the HTML standard. stopped: the caller stopped or an event
// could not be decoded (and was yielded as an error).
func (st *eventStream) frames(body io.Reader, yield func(Event, error) bool, dog *watchdog) (stopped bool, err error) {
	lines := newLineReader(body)
	var data []byte
	hasData := false
	for {
		dog.arm()
		line, err := lines.next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil // a clean end: reconnect all the same
			}
			return false, err
		}
		if len(line) == 0 {
			if !hasData {
				continue
			}
			ev, err := st.decode(data)
			data, hasData = data[:0], false
			if err != nil {
				yield(Event{}, err)
				return true, nil
			}
			if ev.Seq > 0 && ev.Seq <= st.lastSeq {
				continue // already yielded before a reconnect
			}
			st.lastSeq = max(st.lastSeq, ev.Seq)
			dog.pause()
			if !yield(ev, nil) {
				return true, nil
			}
			continue
		}
		field, value := splitField(line)
		switch field {
		case "data":
			if hasData {
				data = append(data, '\n')
			}
			data, hasData = append(data, value...), true
		case "id":
			if !strings.ContainsRune(value, 0) {
				st.lastID = value
			}
		case "retry":
			if ms, err := strconv.ParseUint(value, 10, 32); err == nil {
				st.reconnect = time.Duration(ms) * time.Millisecond
			}
		}
		// "event" repeats the type the data holds; comments (":...") and
		// unknown fields are skipped.
	}
}

func (st *eventStream) decode(data []byte) (Event, error) {
	var ev Event
	if err := json.Unmarshal(data, &ev); err != nil {
		return Event{}, fmt.Errorf("governance: event stream: decoding event after id %q: %w", st.lastID, err)
	}
	return ev, nil
}

// splitField splits "name: value" (one space after the colon is dropped);
// a line without a colon is a name with an empty value; a comment line
// (":...") has the empty name.
func splitField(line []byte) (string, string) {
	name, value, found := strings.Cut(string(line), ":")
	if !found {
		return name, ""
	}
	return name, strings.TrimPrefix(value, " ")
}

func joinTypes(types []string) string {
	var kept []string
	for _, t := range types {
		if t = strings.TrimSpace(t); t != "" {
			kept = append(kept, t)
		}
	}
	return strings.Join(kept, ",")
}
