package mcpserver_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/internal/gittest"
	"github.com/sessiongate/sessiongate/internal/sqlitetest"
	"github.com/sessiongate/sessiongate/protocolspec"
	"github.com/sessiongate/sessiongate/server"
	"github.com/sessiongate/sessiongate/server/mcpserver"
	"github.com/sessiongate/sessiongate/session"
	"github.com/sessiongate/sessiongate/store"
)

// mcpTestProtocol is the protocol every MCP test drives: two BLOCKING start
// phases (evidence, a file), a BLOCKING evidence end phase and a REQUIRED
// commit phase.
const mcpTestProtocol = "../testdata/SESSION-PROTOCOL.md"

// mcpNewRepo makes a real repository holding the test protocol, with one commit.
func mcpNewRepo(t testing.TB) string {
	t.Helper()
	gittest.Require(t)
	proto, err := os.ReadFile(mcpTestProtocol)
	if err != nil {
		t.Fatal(err)
	}
	return gittest.New(t, map[string]string{"README.md": "# demo\n", "SESSION-PROTOCOL.md": string(proto)})
}

// mcpFixture is a real repository, a real SQLite store and an engine, wired
// into server.Options as the CLI wires them.
type mcpFixture struct {
	t      testing.TB
	root   string
	repo   *gitrepo.Repo
	db     *store.DB
	engine *session.Engine
	opts   mcpserver.Options
	skew   atomic.Int64 // added to the clock, for expiry
	logs   bytes.Buffer // the server's log (slog's handler serialises writes)
}

func newMCPFixture(t testing.TB) *mcpFixture {
	t.Helper()
	root := mcpNewRepo(t)
	ctx := context.Background()
	// A copy of a store migrated once per process: the migrations cost
	// ~0.25 CPU s under -race and are package store's tests.
	db, _ := sqlitetest.Open(t)
	repo, err := gitrepo.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	f := &mcpFixture{t: t, root: repo.Root(), repo: repo, db: db}
	// Wired as `sessiongate serve` wires it: worktrees opened once, shared safely.
	f.engine = session.NewEngine(db, session.Config{CommandTimeout: 10 * time.Minute}, gitrepo.CachedOpen())
	f.engine.Now = func() time.Time { return time.Now().Add(time.Duration(f.skew.Load())) }
	protocolPath := filepath.Join(f.root, "SESSION-PROTOCOL.md")
	f.opts = mcpserver.Options{
		Engine:  f.engine,
		Repo:    repo,
		Version: "test",
		Logger:  slog.New(slog.NewTextHandler(&f.logs, &slog.HandlerOptions{Level: slog.LevelInfo})),
		LoadSpec: func(ctx context.Context) (*protocolspec.Spec, error) {
			b, err := os.ReadFile(protocolPath)
			if err != nil {
				return nil, err
			}
			return f.engine.LoadSpec(ctx, "SESSION-PROTOCOL.md", b)
		},
		Protocol: func(ctx context.Context) (string, []byte, error) {
			b, err := os.ReadFile(protocolPath)
			return "SESSION-PROTOCOL.md", b, err
		},
	}
	return f
}

// httpServer serves the whole echo handler (guard, token, /mcp) on a real
// loopback listener.
func (f *mcpFixture) httpServer(token string) *httptest.Server {
	f.t.Helper()
	o := f.opts
	ts := httptest.NewServer(server.New(server.Options{Engine: o.Engine, Repo: o.Repo, LoadSpec: o.LoadSpec, Protocol: o.Protocol, Version: o.Version, Logger: o.Logger, Token: token}).Handler())
	f.t.Cleanup(ts.Close)
	return ts
}

// mcpHeaderTransport adds headers to every request (a token, a bad Host).
type mcpHeaderTransport struct {
	base http.RoundTripper
	h    http.Header
}

func (h mcpHeaderTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, vs := range h.h {
		r.Header[k] = vs
	}
	return h.base.RoundTrip(r)
}

// mcpConnectHTTP connects the SDK's own client to url over Streamable HTTP.
func mcpConnectHTTP(t testing.TB, url string, header http.Header) *mcp.ClientSession {
	t.Helper()
	hc := &http.Client{Transport: mcpHeaderTransport{http.DefaultTransport, header}, Timeout: 30 * time.Second}
	c := mcp.NewClient(&mcp.Implementation{Name: "sessiongate-test", Version: "1"}, nil)
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect %s: %v", url, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// mcpConnectStdio connects the SDK's client to the server over a pipe through
// mcpserver.StdioTransport, the transport `sessiongate mcp` runs.
func mcpConnectStdio(t testing.TB, srv *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cr, sw := io.Pipe() // server -> client
	sr, cw := io.Pipe() // client -> server
	done := make(chan error, 1)
	go func() { done <- mcpserver.RunStdio(ctx, srv, sr, sw) }()
	c := mcp.NewClient(&mcp.Implementation{Name: "sessiongate-test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	if err != nil {
		t.Fatalf("connect over stdio pipe: %v", err)
	}
	t.Cleanup(func() {
		cs.Close()
		cancel()
		<-done
	})
	return cs
}

// call runs a tool and fails the test on a JSON-RPC (protocol) error.
func mcpCall(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("tools/call %s: JSON-RPC error %v (tool failures must be isError results)", name, err)
	}
	mcpCheckOutput(t, cs, name, res)
	return res
}

// mcpOutputSchemas holds each client session's advertised output schemas,
// resolved, by tool name.
var mcpOutputSchemas sync.Map // *mcp.ClientSession -> map[string]*jsonschema.Resolved

// mcpCheckOutput validates a result's structuredContent against the output
// schema the tool advertises in tools/list. The server does not validate its
// own outputs at run time (they are built from the Go structs the schemas
// are inferred from), so every call the tests make checks it here.
func mcpCheckOutput(t testing.TB, cs *mcp.ClientSession, name string, res *mcp.CallToolResult) {
	t.Helper()
	if res.StructuredContent == nil {
		return
	}
	v, ok := mcpOutputSchemas.Load(cs)
	if !ok {
		tl, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		m := map[string]*jsonschema.Resolved{}
		for _, tool := range tl.Tools {
			if tool.OutputSchema == nil {
				continue
			}
			b, err := json.Marshal(tool.OutputSchema)
			if err != nil {
				t.Fatal(err)
			}
			var s jsonschema.Schema
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatalf("%s output schema %s: %v", tool.Name, b, err)
			}
			rs, err := s.Resolve(nil)
			if err != nil {
				t.Fatalf("%s output schema: resolve: %v", tool.Name, err)
			}
			m[tool.Name] = rs
		}
		v, _ = mcpOutputSchemas.LoadOrStore(cs, m)
		t.Cleanup(func() { mcpOutputSchemas.Delete(cs) })
	}
	rs, ok := v.(map[string]*jsonschema.Resolved)[name]
	if !ok {
		t.Fatalf("%s returned structuredContent but advertises no outputSchema", name)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var inst any
	if err := json.Unmarshal(b, &inst); err != nil {
		t.Fatal(err)
	}
	if err := rs.Validate(inst); err != nil {
		t.Errorf("%s: structuredContent does not match the advertised outputSchema: %v\n%s", name, err, b)
	}
}

// mcpOK calls a tool that must succeed and decodes its structured result.
func mcpOK[T any](t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) T {
	t.Helper()
	res := mcpCall(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s: isError: %s", name, mcpText(res))
	}
	return mcpStructured[T](t, res)
}

func mcpStructured[T any](t testing.TB, res *mcp.CallToolResult) T {
	t.Helper()
	var out T
	if res.StructuredContent == nil {
		t.Fatalf("no structuredContent (text %q)", mcpText(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("decode structuredContent %s: %v", b, err)
	}
	return out
}

func mcpText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// post sends one raw JSON-RPC body to /mcp as a Streamable HTTP client would.
func mcpPost(t testing.TB, url, body string, header http.Header) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, vs := range header {
		req.Header[k] = vs
	}
	if h := header.Get("Host"); h != "" {
		req.Host = h
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// mcpRPCResponse is a JSON-RPC response as it is on the wire.
type mcpRPCResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int64           `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func mcpDecodeRPC(t testing.TB, b []byte) mcpRPCResponse {
	t.Helper()
	var r mcpRPCResponse
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("response is not JSON-RPC: %v\n%s", err, b)
	}
	if r.JSONRPC != "2.0" {
		t.Fatalf("response jsonrpc %q, want 2.0: %s", r.JSONRPC, b)
	}
	return r
}

func mcpTokens(t testing.TB, db *store.DB, id string) []string {
	t.Helper()
	evs, err := db.ListEvents(context.Background(), id, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Token)
	}
	return out
}

// mcpLineReader hands out the lines a stdio server writes, with a timeout.
type mcpLineReader struct{ ch chan []byte }

func newMCPLineReader(r io.Reader) *mcpLineReader {
	l := &mcpLineReader{ch: make(chan []byte, 16)}
	go func() {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			l.ch <- append([]byte(nil), sc.Bytes()...)
		}
		close(l.ch)
	}()
	return l
}

func (l *mcpLineReader) next(t testing.TB) []byte {
	t.Helper()
	select {
	case b, ok := <-l.ch:
		if !ok {
			t.Fatal("stdio server closed its output")
		}
		return b
	case <-time.After(10 * time.Second):
		t.Fatal("no line from the stdio server within 10s")
	}
	return nil
}
