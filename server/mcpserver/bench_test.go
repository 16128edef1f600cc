//go:build unix

package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/server"
	"github.com/sessiongate/sessiongate/server/mcpserver"
	"github.com/sessiongate/sessiongate/session"
)

// BenchmarkMCPToolsCall measures tools/call of validate_gate against a
// trivial tool on the same server, over HTTP (the whole echo stack on a
// real loopback listener, keep-alive JSON-RPC POSTs) and over stdio (the
// SDK client through mcpserver.StdioTransport on pipes). The gate is an
// evidence gate, so what is measured is sessiongate's own overhead: the
// session load, policy check, gate evaluation and the SQLite write of the
// result. Clients run GOMAXPROCS*2 goroutines. Reported: calls/s, p50 and
// p99 latency in microseconds, and the process's CPU time per call.
//
//	go test ./server -run '^$' -bench BenchmarkMCPToolsCall -benchtime 3s
//
// Goal: validate_gate within 2x of the trivial call; >= 2,000 calls/s over
// HTTP on 2 cores. Figures: docs/benchmarks.md. The GC runs as the server
// sets it (mcpserver.TuneGC); GOGC=100 in the environment measures the default.
func BenchmarkMCPToolsCall(b *testing.B) {
	// As `sessiongate serve` and `sessiongate mcp` run (GOGC from the
	// environment wins: GOGC=100 measures the Go default).
	b.Cleanup(mcpserver.TuneGC())
	f := newMCPFixture(b)
	ctx := context.Background()
	srv := mcpserver.New(f.opts)
	// The trivial tool exists only in the benchmark's server.
	type pong struct {
		Pong bool `json:"pong"`
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "bench_ping", Description: "returns pong"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, pong, error) {
		return nil, pong{true}, nil
	})
	spec, err := f.opts.LoadSpec(ctx)
	if err != nil {
		b.Fatal(err)
	}
	res, err := f.engine.Start(ctx, session.StartRequest{Repo: f.opts.Repo, Spec: spec, Objective: "benchmark"})
	if err != nil {
		b.Fatal(err)
	}
	id := res.SessionID
	if _, err := f.engine.RecordEvidence(ctx, session.EvidenceRequest{ID: id, Phase: "CONTEXT_RETRIEVAL", Kind: session.EvidenceToolOutput, Evidence: "read"}); err != nil {
		b.Fatal(err)
	}
	calls := []struct {
		tool string
		args map[string]any
		want string // in every response
		key  string // the structured content's field that is true in every response
	}{
		{"bench_ping", map[string]any{}, `"pong":true`, "pong"},
		{"validate_gate", map[string]any{"session_id": id}, `"passed":true`, "passed"},
	}

	o := f.opts
	ts := httptest.NewServer(server.New(server.Options{Engine: o.Engine, Repo: o.Repo, LoadSpec: o.LoadSpec, Protocol: o.Protocol, Version: o.Version, Logger: o.Logger, MCP: srv}).Handler())
	b.Cleanup(ts.Close)
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	b.Cleanup(hc.CloseIdleConnections)
	for _, c := range calls {
		body := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, c.tool, mcpMustJSON(b, c.args))
		b.Run("http/"+c.tool, func(b *testing.B) {
			mcpBenchCalls(b, func() error {
				req, _ := http.NewRequest(http.MethodPost, ts.URL+mcpserver.Path, bytes.NewBufferString(body))
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
				if resp.StatusCode != 200 || !bytes.Contains(got, []byte(c.want)) || bytes.Contains(got, []byte(`"isError":true`)) {
					return fmt.Errorf("%s: %d %s", c.tool, resp.StatusCode, got)
				}
				return nil
			})
		})
	}

	// tools/list over HTTP, the response read as bytes: the server's cost
	// (the stdio client below also decodes every schema).
	b.Run("http/tools-list", func(b *testing.B) {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
		mcpBenchCalls(b, func() error {
			req, _ := http.NewRequest(http.MethodPost, ts.URL+mcpserver.Path, bytes.NewBufferString(body))
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
			if resp.StatusCode != 200 || !bytes.Contains(got, []byte(`"validate_gate"`)) {
				return fmt.Errorf("tools/list: %d %s", resp.StatusCode, got)
			}
			return nil
		})
	})
	// The server alone: the same handler answering in process, no network
	// and no client, one request at a time (ns/op is the server's time per
	// request). The peer is a JSON-RPC ping, the cheapest request there is.
	handler := server.New(server.Options{Engine: o.Engine, Repo: o.Repo, LoadSpec: o.LoadSpec, Protocol: o.Protocol, Version: o.Version, Logger: o.Logger, MCP: srv}).Handler()
	for _, c := range []struct{ name, body, want string }{
		{"ping", `{"jsonrpc":"2.0","id":1,"method":"ping"}`, `"result":{}`},
		{"tools-list", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, `"validate_gate"`},
	} {
		b.Run("handler/"+c.name, func(b *testing.B) {
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, mcpserver.Path, strings.NewReader(c.body))
				req.Host = "127.0.0.1:8080"
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Accept", "application/json, text/event-stream")
				rec := httptest.NewRecorder()
				handler.ServeHTTP(rec, req)
				if rec.Code != 200 || !strings.Contains(rec.Body.String(), c.want) {
					b.Fatalf("%s: %d %s", c.name, rec.Code, rec.Body)
				}
			}
		})
	}
	cs := mcpConnectStdio(b, srv)
	// tools/list: static, so it should cost no more than a ping.
	b.Run("stdio/tools-list", func(b *testing.B) {
		mcpBenchCalls(b, func() error {
			r, err := cs.ListTools(ctx, nil)
			if err != nil {
				return err
			}
			if len(r.Tools) < 6 {
				return fmt.Errorf("tools/list: %d tools", len(r.Tools))
			}
			return nil
		})
	})
	for _, c := range calls {
		b.Run("stdio/"+c.tool, func(b *testing.B) {
			mcpBenchCalls(b, func() error {
				r, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil {
					return err
				}
				// The client decoded the result already: read the field, as a
				// client would, rather than encode it again to search it.
				if m, _ := r.StructuredContent.(map[string]any); r.IsError || m[c.key] != true {
					return fmt.Errorf("%s: %s", c.tool, mcpText(r))
				}
				return nil
			})
		})
	}
}

// benchCalls runs call from GOMAXPROCS*2 goroutines and reports calls/s
// and the p50/p99 latency of single calls.
func mcpBenchCalls(b *testing.B, call func() error) {
	if err := call(); err != nil { // warm up and check the answer once
		b.Fatal(err)
	}
	var mu sync.Mutex
	var lat []time.Duration
	b.SetParallelism(2)
	b.ResetTimer()
	cpu0 := mcpProcessCPU()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			if err := call(); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	cpu := mcpProcessCPU() - cpu0
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) }
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "calls/s")
	b.ReportMetric(pct(0.50), "p50-µs")
	b.ReportMetric(pct(0.99), "p99-µs")
	// CPU time of the whole process (server and client) per call: unlike
	// calls/s it hardly moves when other processes share the machine.
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(lat)), "cpu-µs/call")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heap-MB")
}

// mcpProcessCPU is the user+system CPU time this process has used.
func mcpProcessCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func mcpMustJSON(b testing.TB, v any) []byte {
	out, err := json.Marshal(v)
	if err != nil {
		b.Fatal(err)
	}
	return out
}
