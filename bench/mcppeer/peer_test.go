//go:build unix

package mcppeer_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/bench/mcppeer"
	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/proccpu"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/server"
	"github.com/sessiongate/sessiongate/server/mcpserver"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// fixture: a real repository with protection on (the protected-file check
// runs before every gate call, as under `protect: true`), a real SQLite
// store, sessiongate's MCP server with a started session whose first gate
// passes on evidence, plus the trivial tool bench_ping on the same server.
type fixture struct {
	srv  *mcp.Server
	h    http.Handler
	id   string
	root string
	db   *store.DB
}

const protocol = `# Protocol

## Session Start

### Phase 1: Context Retrieval (BLOCKING)

<!-- gate: evidence tool_output -->

1. The agent MUST read the notes.

## Session End

### Phase 1: QA Validation (BLOCKING)

<!-- gate: id=QA_VALIDATION -->
<!-- gate: evidence tool_output -->

1. The agent MUST run the tests.
`

func newFixture(b testing.TB) *fixture {
	gittest.Require(b)
	b.Cleanup(mcpserver.TuneGC()) // as `sessiongate mcp` and `serve` run
	ctx := context.Background()
	root := gittest.New(b, map[string]string{"README.md": "# demo\n", "SESSION-PROTOCOL.md": protocol, "sessiongate.yaml": "protect: true\n"})
	db, err := store.Open(ctx, filepath.Join(b.TempDir(), "sg.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	repo, err := gitrepo.Open(ctx, root)
	if err != nil {
		b.Fatal(err)
	}
	engine := session.NewEngine(db, session.Config{Protect: true, CommandTimeout: 10 * time.Minute}, gitrepo.CachedOpen())
	load := func(ctx context.Context) (*protocolspec.Spec, error) {
		return engine.LoadSpec(ctx, "SESSION-PROTOCOL.md", []byte(protocol))
	}
	opts := mcpserver.Options{Engine: engine, Repo: repo, Version: "bench", LoadSpec: load,
		Logger:   slog.New(slog.DiscardHandler),
		Protocol: func(context.Context) (string, []byte, error) { return "SESSION-PROTOCOL.md", []byte(protocol), nil }}
	srv := mcpserver.New(opts)
	mcp.AddTool(srv, &mcp.Tool{Name: "bench_ping", Description: "returns pong"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, mcppeer.Pong, error) {
		return nil, mcppeer.Pong{Pong: true}, nil
	})
	spec, err := load(ctx)
	if err != nil {
		b.Fatal(err)
	}
	res, err := engine.Start(ctx, session.StartRequest{Repo: repo, Spec: spec, Objective: "benchmark"})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := engine.RecordEvidence(ctx, session.EvidenceRequest{ID: res.SessionID, Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceToolOutput, Evidence: "read"}); err != nil {
		b.Fatal(err)
	}
	h := server.New(server.Options{Engine: engine, Repo: repo, LoadSpec: load, Protocol: opts.Protocol, Version: "bench", Logger: opts.Logger, MCP: srv}).Handler()
	return &fixture{srv: srv, h: h, id: res.SessionID, root: root, db: db}
}

// variant is one row of an interleaved run: a call and how many clients
// make it at once.
type variant struct {
	name string
	call func() error
}

// measure runs n calls of v from clients goroutines and returns calls/s
// and the CPU time per call of the process and the git processes it ran
// (server and client share it).
func measure(b *testing.B, v variant, clients, n int) (float64, float64) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value
	cpu0 := proccpu.Used()
	start := time.Now()
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				if err := v.call(); err != nil {
					failed.Store(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := proccpu.Used() - cpu0
	if err, _ := failed.Load().(error); err != nil {
		b.Fatalf("%s: %v", v.name, err)
	}
	return float64(n) / elapsed.Seconds(), float64(cpu.Microseconds()) / float64(n)
}

// interleave runs every variant once per round, in a new random order each
// round (b.N rounds), and reports per variant the median calls/s and
// cpu-µs/call, and for each variant after the first the median of its
// per-round ratio to the first (first's calls/s over its calls/s: how many
// times the first's cost it is).
func interleave(b *testing.B, clients, n int, vs []variant) {
	for _, v := range vs { // warm up and check each answer once
		if err := v.call(); err != nil {
			b.Fatalf("%s: %v", v.name, err)
		}
	}
	rate := make([][]float64, len(vs))
	cpu := make([][]float64, len(vs))
	b.ResetTimer()
	for b.Loop() {
		for _, i := range rand.Perm(len(vs)) {
			r, c := measure(b, vs[i], clients, n)
			rate[i] = append(rate[i], r)
			cpu[i] = append(cpu[i], c)
		}
	}
	b.StopTimer()
	for i, v := range vs {
		b.ReportMetric(median(rate[i]), v.name+"-calls/s")
		b.ReportMetric(median(cpu[i]), v.name+"-cpu-µs/call")
		if i == 0 {
			continue
		}
		var ratio, cratio []float64
		for k := range rate[i] {
			ratio = append(ratio, rate[i][k]/rate[0][k])
			cratio = append(cratio, cpu[0][k]/cpu[i][k])
		}
		b.ReportMetric(median(ratio), v.name+"/"+vs[0].name+"-x")
		b.ReportMetric(median(cratio), v.name+"/"+vs[0].name+"-cpu-x")
	}
}

func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// stdioClient connects an SDK client over pipes to a server run by run.
func stdioClient(b testing.TB, run func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error) *mcp.ClientSession {
	ctx, cancel := context.WithCancel(context.Background())
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	done := make(chan struct{})
	go func() { run(ctx, sr, sw); close(done) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close(); cancel(); sr.Close(); <-done })
	return cs
}

func toolCall(cs *mcp.ClientSession, name, key string, args map[string]any) func() error {
	return func() error {
		r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			return err
		}
		if m, _ := r.StructuredContent.(map[string]any); r.IsError || m[key] != true {
			return fmt.Errorf("%s: %v", name, r.Content)
		}
		return nil
	}
}

// BenchmarkStdioVsPeer: validate_gate (protection on) over stdio against
// the peer's trivial tool on a minimal go-sdk server (the SDK's own stdio
// transport) and against the trivial tool on sessiongate's server, in one
// interleaved run. One round per iteration (-benchtime 10x: ten rounds);
// BENCH_CALLS calls per variant per round (default 2000), four clients.
//
//	go test ./bench/mcppeer -run '^$' -bench StdioVsPeer -benchtime 10x
func BenchmarkStdioVsPeer(b *testing.B) {
	f := newFixture(b)
	sg := stdioClient(b, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return mcpserver.RunStdio(ctx, f.srv, in, out)
	})
	peer := mcppeer.New()
	pc := stdioClient(b, func(ctx context.Context, in io.ReadCloser, out io.WriteCloser) error {
		return peer.Run(ctx, &mcp.IOTransport{Reader: in, Writer: out})
	})
	interleave(b, 4, calls(), []variant{
		{"peer_ping", toolCall(pc, "ping", "pong", map[string]any{})},
		{"sg_ping", toolCall(sg, "bench_ping", "pong", map[string]any{})},
		{"validate_gate", toolCall(sg, "validate_gate", "passed", map[string]any{"session_id": f.id})},
	})
}

// BenchmarkHTTPVsPeer: the same over HTTP (keep-alive JSON-RPC POSTs on a
// loopback listener: sessiongate's whole echo stack, the peer's bare SDK
// handler), with 1, 2, 4 and 8 clients.
//
//	go test ./bench/mcppeer -run '^$' -bench HTTPVsPeer -benchtime 10x
func BenchmarkHTTPVsPeer(b *testing.B) {
	f := newFixture(b)
	sgURL := serve(b, f.h) + mcpserver.Path
	peerURL := serve(b, mcppeer.Handler(mcppeer.New()))
	for _, clients := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("clients=%d", clients), func(b *testing.B) {
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
			defer hc.CloseIdleConnections()
			interleave(b, clients, calls(), []variant{
				{"peer_ping", post(hc, peerURL, "ping", `{}`, `"pong":true`)},
				{"sg_ping", post(hc, sgURL, "bench_ping", `{}`, `"pong":true`)},
				{"validate_gate", post(hc, sgURL, "validate_gate", fmt.Sprintf(`{"session_id":%q}`, f.id), `"passed":true`)},
			})
		})
	}
}

func serve(b *testing.B, h http.Handler) string {
	ts := httptest.NewServer(h)
	b.Cleanup(ts.Close)
	return ts.URL
}

func post(hc *http.Client, url, tool, args, want string) func() error {
	body := []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, tool, args))
	return func() error {
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := hc.Do(req)
		if err != nil {
			return err
		}
		got, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			return err
		}
		if resp.StatusCode != 200 || !bytes.Contains(got, []byte(want)) || bytes.Contains(got, []byte(`"isError":true`)) {
			return fmt.Errorf("%s: %d %s", tool, resp.StatusCode, got)
		}
		return nil
	}
}

func calls() int {
	n := 2000
	if s := os.Getenv("BENCH_CALLS"); s != "" {
		fmt.Sscan(s, &n)
	}
	return n
}
