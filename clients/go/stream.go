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

// StreamOptions choose where [EventsService.Stream] and
// [EventsService.Subscribe] start and what they yield.
type StreamOptions struct {
	// After starts the stream after this sequence number: the events logged
	// since are replayed first, then the live ones follow without a gap or a
	// repeat. Ptr(int64(0)) replays the whole log. nil starts with the
	// events that happen from now on.
	After *int64
	// Types are event types or prefix patterns ("asset.*"); empty means all.
	Types []string
	// OnConnect, when set, is called on each connection, the first and every
	// reconnect, once the service has answered 200: it has then subscribed
	// the stream, so every event logged from then on will be yielded. It is
	// called before that connection's events are read, on the goroutine
	// ranging the stream (for the first connection of
	// [EventsService.Subscribe], the one calling Subscribe).
	OnConnect func(ConnectInfo)
}

// ConnectInfo tells [StreamOptions.OnConnect] about a connection.
type ConnectInfo struct {
	// Reconnect is false for the stream's first connection.
	Reconnect bool
	// LastEventID is the Last-Event-ID the connection resumes after; empty
	// for none.
	LastEventID string
}

// Stream yields the events of the log as they happen, from the live stream
// (GET /events/stream, Server-Sent Events), until ctx is done or the loop
// stops. It connects when the loop starts; [EventsService.Subscribe]
// connects first and tells when the stream is subscribed, and
// [StreamOptions.OnConnect] tells each time it is. When the connection drops
// (or stays silent past the per-attempt timeout; the service sends a
// heartbeat every 15 s) the stream reconnects after the wait the service
// asked for with "retry:" and resumes after the last event it yielded
// (Last-Event-ID), so no event is missed or repeated. A reconnect that fails
// is retried like a GET, up to the client's retries in a row; [MaxRetries]
// allows this stream more (and [Timeout] changes how long it waits for the
// service).
//
// The sequence ends with an error when the stream cannot go on: ctx.Err()
// when ctx is done, an [*Error] the service answered that is not worth
// retrying (such as [ErrAuthentication] once the token is revoked), or the
// last failure when the retries ran out. Until the first event arrives a
// stream started without After has nothing to resume from, so a reconnect
// then starts at the live edge again; give After to be sure of every event.
func (s *EventsService) Stream(ctx context.Context, opts *StreamOptions, ro ...RequestOption) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		newEventStream(s.c, opts, ro).run(ctx, yield, nil)
	}
}

// Subscribe connects to the live stream and returns once the service has
// answered 200, and so has subscribed it: every event logged after Subscribe
// returns is yielded by [Subscription.Events], which goes on as
// [EventsService.Stream] does (reconnecting and resuming, until ctx is done).
// A connection that fails is retried as Stream retries one; the error is the
// last failure, or ctx.Err(). ctx bounds the whole subscription, not only
// the connecting. Close the subscription when done with it.
func (s *EventsService) Subscribe(ctx context.Context, opts *StreamOptions, ro ...RequestOption) (*Subscription, error) {
	st := newEventStream(s.c, opts, ro)
	ctx, cancel := context.WithCancel(ctx)
	cn, err := st.dial(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	return &Subscription{st: st, ctx: ctx, cancel: cancel, first: cn}, nil
}

// Subscription is a subscribed event stream, made by
// [EventsService.Subscribe].
type Subscription struct {
	st     *eventStream
	ctx    context.Context
	cancel context.CancelFunc
	first  *connection
	// taken: Events or Close has taken first.
	taken  atomic.Bool
	closed atomic.Bool
}

var errSubscriptionTaken = errors.New("governance: the subscription was closed or its events already read")

// Events yields the subscription's events, as [EventsService.Stream] does:
// those logged since the service answered Subscribe (with StreamOptions.After,
// first those after that sequence number), then on. A subscription is read
// once: a second call yields an error. The loop stopping, or
// [Subscription.Close], ends the subscription; after Close the sequence ends
// without an error.
func (sub *Subscription) Events() iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		if !sub.taken.CompareAndSwap(false, true) {
			yield(Event{}, errSubscriptionTaken)
			return
		}
		defer sub.Close()
		sub.st.run(sub.ctx, func(ev Event, err error) bool {
			if err != nil && sub.closed.Load() {
				return false // the end the caller asked for, not a failure
			}
			return yield(ev, err)
		}, sub.first)
	}
}

// Close ends the subscription and closes its connection. It may be called
// more than once, and from another goroutine while Events is ranged.
func (sub *Subscription) Close() {
	sub.closed.Store(true)
	sub.cancel()
	if sub.taken.CompareAndSwap(false, true) {
		sub.first.close() // never read
	}
}

// eventStream is the state one stream keeps across its connections.
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
	onConnect func(ConnectInfo)
	connected bool // a connection was made before
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
		st.onConnect = opts.OnConnect
	}
	return st
}

// run yields the stream's events, reading cn first when it is not nil,
// then connecting again after each drop.
func (st *eventStream) run(ctx context.Context, yield func(Event, error) bool, cn *connection) {
	for {
		if cn == nil {
			var err error
			if cn, err = st.dial(ctx); err != nil {
				yield(Event{}, err)
				return
			}
		}
		if st.consume(cn, yield) {
			return
		}
		cn = nil
		// Dropped: connect again after the wait the service asked for.
		if ctx.Err() != nil || st.c.sleep(ctx, st.reconnect) != nil {
			yield(Event{}, ctx.Err())
			return
		}
	}
}

// dial connects, retrying failures as a GET is retried, and tells
// OnConnect. The error is the last failure, or ctx.Err().
func (st *eventStream) dial(ctx context.Context) (*connection, error) {
	for failures := 0; ; failures++ {
		cn, err := st.connect(ctx)
		if err == nil {
			if st.onConnect != nil {
				st.onConnect(ConnectInfo{Reconnect: st.connected, LastEventID: st.lastID})
			}
			st.connected = true
			return cn, nil
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		wait, again := st.c.retryDelay(ctx, http.MethodGet, true, err, failures, st.retries)
		if !again {
			return nil, err
		}
		if st.c.sleep(ctx, wait) != nil {
			return nil, ctx.Err()
		}
	}
}

// idleTimeout is the error of a stream that stayed silent too long.
type idleTimeout time.Duration

func (e idleTimeout) Error() string {
	return fmt.Sprintf("no data from the event stream for %v", time.Duration(e))
}
func (idleTimeout) Timeout() bool   { return true }
func (idleTimeout) Temporary() bool { return true }

// connection is one answer of the stream, open for reading.
type connection struct {
	body   io.ReadCloser
	cancel context.CancelFunc
	// dog cancels the connection when the service stays silent while
	// awaited; silent then tells why it ended.
	dog    *watchdog
	silent atomic.Bool
}

func (cn *connection) close() {
	cn.dog.pause()
	cn.cancel()
	if cn.body != nil {
		cn.body.Close()
	}
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

// pause stops the wait while nobody reads: the caller has the event, or
// has not started reading.
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

// connect sends the request once and returns the open connection once the
// service answered 200 with an event stream. It answers a
// *ConnectionError when nothing came back (in time), an *Error for an
// error status, and another error for what is not worth retrying.
func (st *eventStream) connect(ctx context.Context) (*connection, error) {
	ctx, cancel := context.WithCancel(ctx)
	cn := &connection{cancel: cancel}
	if idle := st.c.attemptTimeout(call{}, st.ro); idle > 0 {
		cn.dog = &watchdog{d: idle, t: time.AfterFunc(idle, func() { cn.silent.Store(true); cancel() })}
	}
	target := st.url()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		cn.close()
		return nil, fmt.Errorf("governance: building request: %w", err)
	}
	st.c.setHeaders(req, call{accept: "text/event-stream"}, st.ro)
	req.Header.Set("Cache-Control", "no-cache")
	if st.lastID != "" {
		req.Header.Set("Last-Event-ID", st.lastID)
	}
	resp, err := st.c.httpClient.Do(req)
	if err != nil {
		cn.close()
		if cn.silent.Load() {
			err = idleTimeout(cn.dog.d)
		}
		return nil, &ConnectionError{Method: http.MethodGet, URL: target, Err: err}
	}
	cn.body = resp.Body
	if resp.StatusCode >= 400 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		cn.close()
		return nil, st.c.newError(http.MethodGet, target, resp, data)
	}
	if problem := streamProblem(resp); problem != "" {
		cn.close()
		return nil, fmt.Errorf("governance: GET %s: %s", target, problem)
	}
	cn.dog.pause() // until the events are read
	return cn, nil
}

// consume reads one connection's events until it ends, and closes it.
// It tells whether the sequence is over: the caller stopped, or an error
// was yielded. A connection that ends otherwise is to be made again.
func (st *eventStream) consume(cn *connection, yield func(Event, error) bool) (stopped bool) {
	defer cn.close()
	return st.frames(cn.body, yield, cn.dog)
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
// could not be decoded (and was yielded as an error); otherwise the
// connection ended (cleanly, cut, or cancelled by the watchdog or ctx), and
// why does not matter: the stream connects again.
func (st *eventStream) frames(body io.Reader, yield func(Event, error) bool, dog *watchdog) (stopped bool) {
	lines := newLineReader(body)
	var data []byte
	hasData := false
	for {
		dog.arm()
		line, err := lines.next()
		if err != nil {
			return false
		}
		if len(line) == 0 {
			if !hasData {
				continue
			}
			ev, err := st.decode(data)
			data, hasData = data[:0], false
			if err != nil {
				yield(Event{}, err)
				return true
			}
			if ev.Seq > 0 && ev.Seq <= st.lastSeq {
				continue // already yielded before a reconnect
			}
			st.lastSeq = max(st.lastSeq, ev.Seq)
			dog.pause()
			if !yield(ev, nil) {
				return true
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
