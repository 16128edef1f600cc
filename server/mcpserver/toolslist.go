package mcpserver

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// cacheToolsList answers tools/list from one result built on the first
// call, with every schema already encoded: the tools never change once the
// server is built, and the SDK would otherwise encode each schema (a
// *jsonschema.Schema, walked by reflection) on every call, about 8x the
// cost of a ping. A request with a cursor goes to the SDK.
//
// On our own transports (Handler's HTTP chain and RunStdio) it goes one
// step further. The SDK still handles the request as always (its checks,
// its session state, every middleware, its logging, the id it encodes),
// but the result it is handed encodes as a short placeholder string, which
// the transport's writer then replaces with the result's bytes, encoded
// once by the SDK itself (see toolsListBytes). The SDK encodes a result
// twice with encoding/json, which validates every byte each time: for the
// 20.8 KB answer that was most of a tools/list call.
func cacheToolsList(srv *mcp.Server) mcp.Middleware {
	c := &toolsListCache{srv: srv}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			lr, ok := req.(*mcp.ListToolsRequest)
			if method != "tools/list" || !ok || lr.Params != nil && lr.Params.Cursor != "" {
				return next(ctx, method, req)
			}
			c.once.Do(func() {
				var res mcp.Result
				if res, c.err = next(ctx, method, req); c.err == nil {
					c.res, c.err = encodedTools(res.(*mcp.ListToolsResult))
				}
			})
			if c.err != nil || c.res.NextCursor != "" {
				return next(ctx, method, req)
			}
			// A copy: for a request in the 2026-07-28 protocol the SDK sets
			// resultType and _meta on the result it is handed.
			res := *c.res
			res.Meta = maps.Clone(c.res.Meta)
			if sc, _ := ctx.Value(shortcutKey{}).(*shortcut); sc != nil && plainListRequest(lr) && calledBySDK() {
				if enc := c.encoded(); enc != nil && sc.arm(enc) {
					return &toolsListPlaceholder{ListToolsResult: &res, enc: enc}, nil
				}
			}
			return &res, nil
		}
	}
}

// toolsListCache is one server's tools/list answer.
type toolsListCache struct {
	srv  *mcp.Server
	once sync.Once
	res  *mcp.ListToolsResult
	err  error

	encOnce sync.Once
	enc     *toolsListBytes // nil when the SDK's answer could not be read
}

// plainListRequest reports whether the SDK's answer to req is the cached
// result exactly as encoded once: no cursor and no _meta. A request whose
// _meta names protocol 2026-07-28 gets resultType and the server's info
// added to its result, and one with a progress token could be given
// progress, so any _meta at all takes the SDK's own encoding.
func plainListRequest(req *mcp.ListToolsRequest) bool {
	p := req.Params
	return p == nil || p.Cursor == "" && len(p.Meta) == 0
}

// calledBySDK reports whether the middleware was called by the SDK's
// dispatcher itself, not by a receiving middleware added after New: such a
// middleware may look at the result, and must see the real one. Any other
// caller (or an SDK that renames its dispatcher) only loses the shortcut;
// TestToolsListShortcutUsed notices that.
//
//go:noinline
func calledBySDK() bool {
	var pcs [1]uintptr
	// 0 runtime.Callers, 1 calledBySDK, 2 the middleware, 3 its caller.
	if runtime.Callers(3, pcs[:]) != 1 {
		return false
	}
	f, _ := runtime.CallersFrames(pcs[:]).Next()
	return strings.HasPrefix(f.Function, "github.com/modelcontextprotocol/go-sdk/mcp.handleReceive[")
}

// toolsListBytes is the result of a plain tools/list as the SDK encodes it
// inside its JSON-RPC response, and the placeholder that stands for it.
type toolsListBytes struct {
	placeholder []byte // a JSON string, quotes included
	result      []byte
}

// encoded returns the SDK's own encoding of the tools/list result, asked of
// the SDK once, or nil if its answer did not have the expected shape.
func (c *toolsListCache) encoded() *toolsListBytes {
	c.encOnce.Do(func() {
		result, err := askSDKToolsList(c.srv)
		if err != nil {
			return
		}
		var nonce [16]byte
		_, _ = rand.Read(nonce[:])
		c.enc = &toolsListBytes{
			placeholder: []byte(`"sessiongate-tools-list-` + hex.EncodeToString(nonce[:]) + `"`),
			result:      result,
		}
	})
	return c.enc
}

// askSDKToolsList sends a plain tools/list through the SDK's own stateless
// HTTP handler in process and returns the result's bytes as the SDK wrote
// them in its response. The request carries no shortcut mark, so the
// middleware hands the SDK the real result.
func askSDKToolsList(srv *mcp.Server) ([]byte, error) {
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true, Logger: slog.New(slog.DiscardHandler)})
	const prefix, suffix = `{"jsonrpc":"2.0","id":1,"result":`, `}`
	req, err := http.NewRequest(http.MethodPost, Path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	w := &bufferWriter{header: http.Header{}}
	h.ServeHTTP(w, req)
	body := w.body.Bytes()
	if w.status != http.StatusOK || !bytes.HasPrefix(body, []byte(prefix)) || !bytes.HasSuffix(body, []byte(suffix)) {
		return nil, fmt.Errorf("tools/list answered %d %.200q", w.status, body)
	}
	result := body[len(prefix) : len(body)-len(suffix)]
	var resp struct {
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(body, &resp); err != nil || !bytes.Equal(resp.Result, result) {
		return nil, errors.New("tools/list: the result is not the response's last member")
	}
	return bytes.Clone(result), nil
}

// bufferWriter is an in-memory http.ResponseWriter.
type bufferWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *bufferWriter) Header() http.Header { return w.header }
func (w *bufferWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
}

func (w *bufferWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return w.body.Write(p)
}

// toolsListPlaceholder is the cached result, encoding as its placeholder.
// It embeds the result so the SDK (and anything else) reads the same fields.
type toolsListPlaceholder struct {
	*mcp.ListToolsResult
	enc *toolsListBytes
}

func (p *toolsListPlaceholder) MarshalJSON() ([]byte, error) { return p.enc.placeholder, nil }

// toolsListShortcuts counts the placeholders replaced, for the tests.
var toolsListShortcuts atomic.Int64

// shortcutKey is the context key of a transport's *shortcut.
type shortcutKey struct{}

// shortcut is a transport writer's side of the placeholder: the middleware
// arms it before handing the SDK a placeholder, and the writer replaces the
// placeholder in what the SDK writes. One per HTTP request, one per stdio
// connection.
type shortcut struct {
	enc     atomic.Pointer[toolsListBytes]
	pending atomic.Int32 // placeholders handed out and not yet written
	off     atomic.Bool  // stdio: a batch was read, whose response the SDK re-encodes
}

// arm records a placeholder about to be handed to the SDK; false when the
// transport cannot replace it.
func (s *shortcut) arm(enc *toolsListBytes) bool {
	if s.off.Load() {
		return false
	}
	if !s.enc.CompareAndSwap(nil, enc) && s.enc.Load() != enc {
		return false
	}
	s.pending.Add(1)
	return true
}

// replace returns p with every placeholder replaced by the result's bytes,
// and whether there was one.
func (s *shortcut) replace(p []byte) ([]byte, bool) {
	if s == nil || s.pending.Load() == 0 {
		return p, false
	}
	enc := s.enc.Load()
	n := bytes.Count(p, enc.placeholder)
	if n == 0 {
		return p, false
	}
	toolsListShortcuts.Add(int64(n))
	s.pending.Add(int32(-n))
	out := make([]byte, 0, len(p)+n*(len(enc.result)-len(enc.placeholder)))
	for {
		i := bytes.Index(p, enc.placeholder)
		if i < 0 {
			return append(out, p...), true
		}
		out = append(append(out, p[:i]...), enc.result...)
		p = p[i+len(enc.placeholder):]
	}
}

// encodedTools copies a tools/list result with each tool's schemas encoded
// once as raw JSON.
func encodedTools(res *mcp.ListToolsResult) (*mcp.ListToolsResult, error) {
	out := *res
	out.Tools = make([]*mcp.Tool, len(res.Tools))
	for i, t := range res.Tools {
		c := *t
		for _, s := range []*any{&c.InputSchema, &c.OutputSchema} {
			if *s == nil {
				continue
			}
			b, err := json.Marshal(*s)
			if err != nil {
				return nil, err
			}
			*s = json.RawMessage(b)
		}
		out.Tools[i] = &c
	}
	return &out, nil
}
