package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK answers unparsable input with a plain-text HTTP 400 and closes a
// stdio connection on it. JSON-RPC 2.0 wants a Parse error (-32700) or an
// Invalid Request (-32600) response with id null, and a stdio client should
// be able to carry on after one bad line. This file checks each message
// before the SDK sees it and answers the malformed ones itself.

// maxMCPBody bounds an HTTP request body, as the SDK's default does.
const maxMCPBody = mcp.DefaultMaxRequestBodyBytes

// mcpRPCProblem is a JSON-RPC error for a message the SDK must not see.
type mcpRPCProblem struct {
	id  json.RawMessage // the request's id when it could be read, else null
	err *jsonrpc.Error
}

// mcpCheckJSONRPC returns nil for a well-formed JSON-RPC 2.0 message or batch.
func mcpCheckJSONRPC(b []byte) *mcpRPCProblem {
	b = bytes.TrimSpace(b)
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return &mcpRPCProblem{err: &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error: " + err.Error()}}
	}
	switch x := v.(type) {
	case map[string]any:
		return mcpCheckMessage(x)
	case []any:
		if len(x) == 0 {
			return mcpInvalid(nil, "empty batch")
		}
		for _, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				return mcpInvalid(nil, "a batch holds JSON-RPC message objects")
			}
			if p := mcpCheckMessage(m); p != nil {
				return p
			}
		}
		return nil
	}
	return mcpInvalid(nil, "a JSON-RPC message is a JSON object")
}

func mcpCheckMessage(m map[string]any) *mcpRPCProblem {
	var id json.RawMessage
	idv, hasID := m["id"]
	switch idv.(type) {
	case string, float64, nil:
		if hasID {
			id, _ = json.Marshal(idv)
		}
	default:
		return mcpInvalid(nil, "id must be a string, a number or null")
	}
	if m["jsonrpc"] != "2.0" {
		return mcpInvalid(id, `"jsonrpc" must be "2.0"`)
	}
	if method, ok := m["method"]; ok {
		if s, ok := method.(string); !ok || s == "" {
			return mcpInvalid(id, `"method" must be a non-empty string`)
		}
		switch m["params"].(type) {
		case map[string]any, []any, nil:
		default:
			return mcpInvalid(id, `"params" must be an object or an array`)
		}
		return nil
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if hasID && hasResult != hasError {
		return nil // a response to one of the server's requests
	}
	return mcpInvalid(id, `a request needs "method"; a response needs "id" and one of "result" or "error"`)
}

func mcpInvalid(id json.RawMessage, why string) *mcpRPCProblem {
	return &mcpRPCProblem{id: id, err: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request: " + why}}
}

func (p *mcpRPCProblem) response() []byte {
	id := p.id
	if id == nil {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc.Error  `json:"error"`
	}{"2.0", id, p.err})
	return b
}

// mcpRejectMalformed answers a malformed JSON-RPC POST with HTTP 400 and a
// JSON-RPC error body, and passes everything else to the SDK with the body
// restored. Other methods and content types are the SDK's to refuse.
func mcpRejectMalformed(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if r.Method != http.MethodPost || r.Body == nil || mt != "application/json" {
			return next(c) // the SDK answers 405 or 415
		}
		body, err := io.ReadAll(http.MaxBytesReader(c.Response(), r.Body, maxMCPBody))
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return c.String(http.StatusRequestEntityTooLarge, fmt.Sprintf("request body exceeds %d bytes\n", mbe.Limit))
		}
		if err != nil {
			return c.String(http.StatusBadRequest, "read request body: "+err.Error()+"\n")
		}
		if p := mcpCheckJSONRPC(body); p != nil {
			return c.JSONBlob(http.StatusBadRequest, p.response())
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rw := &mcpErrorRewriter{ResponseWriter: c.Response().Writer, body: body}
		c.Response().Writer = rw
		err = next(c)
		rw.finish()
		return err
	}
}

// mcpErrorRewriter turns the SDK's plain-text rejections of a well-formed
// message (an unknown method, a missing id or params) into JSON-RPC error
// bodies with the request's id, keeping the HTTP status.
type mcpErrorRewriter struct {
	http.ResponseWriter
	body      []byte
	status    int
	buf       bytes.Buffer
	rewriting bool
}

func (w *mcpErrorRewriter) WriteHeader(code int) {
	if code >= 400 && !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		w.rewriting, w.status = true, code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *mcpErrorRewriter) Write(p []byte) (int, error) {
	if w.rewriting {
		return w.buf.Write(p)
	}
	return w.ResponseWriter.Write(p)
}

func (w *mcpErrorRewriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.rewriting {
		f.Flush()
	}
}

func (w *mcpErrorRewriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *mcpErrorRewriter) finish() {
	if !w.rewriting {
		return
	}
	msg := strings.TrimSpace(w.buf.String())
	code := int64(jsonrpc.CodeInvalidRequest)
	if strings.Contains(msg, "not handled") {
		code = jsonrpc.CodeMethodNotFound
	}
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(w.body, &req) // a batch keeps id null
	p := &mcpRPCProblem{id: req.ID, err: &jsonrpc.Error{Code: code, Message: msg}}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Del("X-Content-Type-Options")
	w.ResponseWriter.WriteHeader(w.status)
	_, _ = w.ResponseWriter.Write(p.response())
}

// StdioTransport is the SDK's newline-delimited stdio transport with
// malformed lines answered by a JSON-RPC error instead of ending the
// connection. in is closed when the connection closes; out is not.
func StdioTransport(in io.ReadCloser, out io.Writer) mcp.Transport {
	return &mcpStdioTransport{in: in, out: out}
}

type mcpStdioTransport struct {
	in  io.ReadCloser
	out io.Writer
}

func (t *mcpStdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	pr, pw := io.Pipe()
	w := &mcpLockedWriter{w: t.out, inflight: newMCPInflight()}
	w.inflight.done = ctx.Done()
	go mcpFilterLines(t.in, pw, w)
	inner := &mcp.IOTransport{Reader: mcpCloseBoth{pr, t.in}, Writer: w}
	return inner.Connect(ctx)
}

// mcpFilterLines copies well-formed lines to the SDK and answers the others.
// A line longer than the HTTP body limit is answered and skipped.
func mcpFilterLines(in io.Reader, sdk *io.PipeWriter, out io.Writer) {
	br := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxMCPBody {
				tooLong, line = true, line[:0]
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the rest of a long line
		}
		var p *mcpRPCProblem
		switch {
		case tooLong:
			p = mcpInvalid(nil, fmt.Sprintf("message exceeds %d bytes", maxMCPBody))
		case len(bytes.TrimSpace(line)) > 0:
			p = mcpCheckJSONRPC(line)
			if p == nil {
				if lw, ok := out.(*mcpLockedWriter); ok && lw.inflight != nil {
					lw.inflight.request(line)
				}
				if _, werr := sdk.Write(line); werr != nil {
					return // the SDK closed its side
				}
			}
		}
		if p != nil {
			if _, werr := out.Write(append(p.response(), '\n')); werr != nil {
				sdk.CloseWithError(werr)
				return
			}
		}
		line, tooLong = line[:0], false
		if err != nil {
			// Input ended: answer every request already received before
			// the session closes (a client that pipes requests and closes
			// stdin still gets its answers).
			if lw, ok := out.(*mcpLockedWriter); ok && lw.inflight != nil {
				lw.inflight.wait()
			}
			sdk.CloseWithError(err) // io.EOF ends the session cleanly
			return
		}
	}
}

// mcpLockedWriter serialises the SDK's writes and the filter's error replies;
// each Write is one whole line.
type mcpLockedWriter struct {
	mu       sync.Mutex
	w        io.Writer
	inflight *mcpInflight // requests passed to the SDK and not yet answered
}

func (l *mcpLockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if l.inflight != nil {
		l.inflight.response(p)
	}
	return n, err
}

// mcpInflight counts the requests read and not yet answered, by id.
type mcpInflight struct {
	mu      sync.Mutex
	pending map[string]int
	idle    chan struct{}   // closed when pending is empty; nil while it is
	done    <-chan struct{} // the session's context: stop waiting when it ends
}

func newMCPInflight() *mcpInflight { return &mcpInflight{pending: map[string]int{}} }

type mcpEnvelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

func (f *mcpInflight) request(line []byte) {
	var m mcpEnvelope
	if json.Unmarshal(line, &m) != nil || m.Method == "" || len(m.ID) == 0 || string(m.ID) == "null" {
		return // a notification or a response: nothing to answer
	}
	f.mu.Lock()
	f.pending[string(m.ID)]++
	f.mu.Unlock()
}

func (f *mcpInflight) response(line []byte) {
	var m mcpEnvelope
	if json.Unmarshal(bytes.TrimSpace(line), &m) != nil || m.Method != "" || len(m.ID) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	k := string(m.ID)
	if f.pending[k] > 1 {
		f.pending[k]--
	} else {
		delete(f.pending, k)
	}
	if len(f.pending) == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
}

// wait returns once every request received has been answered.
func (f *mcpInflight) wait() {
	f.mu.Lock()
	if len(f.pending) == 0 {
		f.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	f.idle = ch
	f.mu.Unlock()
	select {
	case <-ch:
	case <-f.done:
	}
}

func (l *mcpLockedWriter) Close() error { return nil }

// mcpCloseBoth closes the pipe the SDK reads and the real input, which
// unblocks the filter's read.
type mcpCloseBoth struct {
	*io.PipeReader
	in io.Closer
}

func (c mcpCloseBoth) Close() error {
	return errors.Join(c.PipeReader.Close(), c.in.Close())
}
