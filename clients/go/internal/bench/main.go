// Command bench measures the client's own cost: each operation through the
// client and through plain net/http with the same JSON body and headers,
// timed in turns. bench.sh runs it.
//
// It reads GOVERNANCE_URL, GOVERNANCE_TOKEN, BENCH_ROOT (an asset with a
// downstream graph) and BENCH_RUNS (default 21). Each run times a POST
// /lineage/bulk of 1,000 new edges (bench-go-<method><run>-<i> ->
// ...-<i+1>, so no two requests write the same edges) and a downstream
// traversal of BENCH_ROOT at depth 3, both ways, alternating which goes
// first; 3 warm-up runs come before. Plain net/http encodes the body and
// decodes the answer as any program would, into generic JSON values. It
// prints one JSON line:
//
//	{"language":"go","bulk":{"client_ms":[...],"http_ms":[...]},"traversal":{...}}
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	governance "github.com/governance-service/governance/clients/go"
)

const (
	warmup = 3
	edges  = 1_000
	depth  = 3
)

// samples are the timings of one operation, in milliseconds.
type samples struct {
	ClientMS []float64 `json:"client_ms"`
	HTTPMS   []float64 `json:"http_ms"`
}

type report struct {
	Language  string  `json:"language"`
	Bulk      samples `json:"bulk"`
	Traversal samples `json:"traversal"`
}

// bench holds both ways of making each request.
type bench struct {
	client  *governance.Client
	http    *http.Client
	api     string // the base URL, ending in /api/v1
	root    string
	headers http.Header
}

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func run() error {
	base, token, root := os.Getenv("GOVERNANCE_URL"), os.Getenv("GOVERNANCE_TOKEN"), os.Getenv("BENCH_ROOT")
	if base == "" || token == "" || root == "" {
		return fmt.Errorf("GOVERNANCE_URL, GOVERNANCE_TOKEN and BENCH_ROOT must be set")
	}
	runs := 21
	if v := os.Getenv("BENCH_RUNS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return fmt.Errorf("BENCH_RUNS=%q: want a positive number", v)
		}
		runs = n
	}
	client, err := governance.NewClient(governance.WithBaseURL(base), governance.WithToken(token))
	if err != nil {
		return err
	}
	b := &bench{
		client: client,
		http:   &http.Client{Timeout: governance.DefaultTimeout},
		api:    client.BaseURL(),
		root:   root,
		headers: http.Header{
			"Accept":        {"application/json, application/problem+json"},
			"User-Agent":    {fmt.Sprintf("governance-go/%s (%s)", governance.Version, runtime.Version())},
			"Authorization": {"Bearer " + token},
		},
	}
	rep := report{Language: "go"}
	ctx := context.Background()
	for r := -warmup; r < runs; r++ {
		name := strconv.Itoa(r)
		if r < 0 {
			name = "w" + strconv.Itoa(-r)
		}
		first := r%2 == 0 // alternate which way goes first
		bulkC, bulkH, err := pair(first,
			func() error { return b.bulkClient(ctx, name) },
			func() error { return b.bulkHTTP(ctx, name) })
		if err != nil {
			return fmt.Errorf("bulk, run %s: %w", name, err)
		}
		travC, travH, err := pair(first,
			func() error { return b.traverseClient(ctx) },
			func() error { return b.traverseHTTP(ctx) })
		if err != nil {
			return fmt.Errorf("traversal, run %s: %w", name, err)
		}
		if r >= 0 {
			rep.Bulk.ClientMS = append(rep.Bulk.ClientMS, bulkC)
			rep.Bulk.HTTPMS = append(rep.Bulk.HTTPMS, bulkH)
			rep.Traversal.ClientMS = append(rep.Traversal.ClientMS, travC)
			rep.Traversal.HTTPMS = append(rep.Traversal.HTTPMS, travH)
		}
	}
	line, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	fmt.Println(string(line))
	return nil
}

// pair times both ways, the client's first when clientFirst.
func pair(clientFirst bool, viaClient, viaHTTP func() error) (clientMS, httpMS float64, err error) {
	if clientFirst {
		if clientMS, err = timed(viaClient); err == nil {
			httpMS, err = timed(viaHTTP)
		}
		return clientMS, httpMS, err
	}
	if httpMS, err = timed(viaHTTP); err == nil {
		clientMS, err = timed(viaClient)
	}
	return clientMS, httpMS, err
}

func timed(op func() error) (float64, error) {
	start := time.Now()
	err := op()
	ms := float64(time.Since(start).Microseconds()) / 1000
	return ms, err
}

// ids names a chain of edges+1 assets, unique to the method and the run.
func ids(method, run string) []string {
	out := make([]string, edges+1)
	for i := range out {
		out[i] = "bench-go-" + method + run + "-" + strconv.Itoa(i)
	}
	return out
}

func (b *bench) bulkClient(ctx context.Context, run string) error {
	chain := ids("client", run)
	in := make([]governance.EdgeInput, edges)
	for i := range in {
		in[i] = governance.EdgeInput{Source: chain[i], Target: chain[i+1]}
	}
	_, _, err := b.client.Lineage.Bulk(ctx, in)
	return err
}

func (b *bench) bulkHTTP(ctx context.Context, run string) error {
	chain := ids("http", run)
	in := make([]map[string]string, edges)
	for i := range in {
		in[i] = map[string]string{"source": chain[i], "target": chain[i+1]}
	}
	body, err := json.Marshal(in)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.api+"/lineage/bulk", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header = b.headers.Clone()
	req.Header.Set("Content-Type", "application/json")
	return b.do(req)
}

func (b *bench) traverseClient(ctx context.Context) error {
	_, _, err := b.client.Lineage.Downstream(ctx, b.root, &governance.TraversalOptions{Depth: depth})
	return err
}

func (b *bench) traverseHTTP(ctx context.Context) error {
	target := b.api + "/lineage/" + url.PathEscape(b.root) + "/downstream?depth=" + strconv.Itoa(depth)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
	if err != nil {
		return err
	}
	req.Header = b.headers.Clone()
	return b.do(req)
}

// do sends a request and decodes its JSON answer, as a program using
// net/http alone would.
func (b *bench) do(req *http.Request) error {
	resp, err := b.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s: %s", req.Method, req.URL, resp.Status, strings.TrimSpace(string(data)))
	}
	var out any
	return json.Unmarshal(data, &out)
}
