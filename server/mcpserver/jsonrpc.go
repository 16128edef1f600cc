package mcpserver

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
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	segjson "github.com/segmentio/encoding/json"
)

// The SDK answers unparsable input with a plain-text HTTP 400 and closes a
// stdio connection on it. JSON-RPC 2.0 wants a Parse error (-32700) or an
// Invalid Request (-32600) response with id null, and a stdio client should
// be able to carry on after one bad line. This file checks each message
// before the SDK sees it and answers the malformed ones itself.

// maxBody bounds an HTTP request body, as the SDK's default does.
const maxBody = mcp.DefaultMaxRequestBodyBytes

// rpcProblem is a JSON-RPC error for a message the SDK must not see.
type rpcProblem struct {
	id  json.RawMessage // the request's id when it could be read, else null
	err *jsonrpc.Error
}

// checkJSONRPC returns nil for a well-formed JSON-RPC 2.0 message or batch.
func checkJSONRPC(b []byte) *rpcProblem {
	b = bytes.TrimSpace(b)
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return &rpcProblem{err: &jsonrpc.Error{Code: jsonrpc.CodeParseError, Message: "Parse error: " + err.Error()}}
	}
	switch x := v.(type) {
	case map[string]any:
		return checkMessage(x)
	case []any:
		if len(x) == 0 {
			return invalidRequest(nil, "empty batch")
		}
		for _, e := range x {
			m, ok := e.(map[string]any)
			if !ok {
				return invalidRequest(nil, "a batch holds JSON-RPC message objects")
			}
			if p := checkMessage(m); p != nil {
				return p
			}
		}
		return nil
	}
	return invalidRequest(nil, "a JSON-RPC message is a JSON object")
}

func checkMessage(m map[string]any) *rpcProblem {
	var id json.RawMessage
	idv, hasID := m["id"]
	switch idv.(type) {
	case string, float64, nil:
		if hasID {
			id, _ = json.Marshal(idv)
		}
	default:
		return invalidRequest(nil, "id must be a string, a number or null")
	}
	if m["jsonrpc"] != "2.0" {
		return invalidRequest(id, `"jsonrpc" must be "2.0"`)
	}
	if method, ok := m["method"]; ok {
		if s, ok := method.(string); !ok || s == "" {
			return invalidRequest(id, `"method" must be a non-empty string`)
		}
		switch m["params"].(type) {
		case map[string]any, []any, nil:
		default:
			return invalidRequest(id, `"params" must be an object or an array`)
		}
		return nil
	}
	_, hasResult := m["result"]
	_, hasError := m["error"]
	if hasID && hasResult != hasError {
		return nil // a response to one of the server's requests
	}
	return invalidRequest(id, `a request needs "method"; a response needs "id" and one of "result" or "error"`)
}

func invalidRequest(id json.RawMessage, why string) *rpcProblem {
	return &rpcProblem{id: id, err: &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: "Invalid Request: " + why}}
}

func (p *rpcProblem) response() []byte {
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

// rejectMalformed answers a malformed JSON-RPC POST with HTTP 400 and a
// JSON-RPC error body, and passes everything else to the SDK with the body
// restored. Other methods and content types are the SDK's to refuse.
//
// With shortcuts, a single message (not a batch, whose response the SDK
// encodes once more) that may be a tools/list gets a shortcut in its
// context, and the SDK's response is written through it (cacheToolsList).
func rejectMalformed(next http.Handler, shortcuts bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if r.Method != http.MethodPost || r.Body == nil || mt != "application/json" {
			next.ServeHTTP(w, r) // the SDK answers 405 or 415
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", mbe.Limit), http.StatusRequestEntityTooLarge)
			return
		}
		if err != nil {
			http.Error(w, "read request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		if p := checkJSONRPC(body); p != nil {
			writeJSON(w, http.StatusBadRequest, p.response())
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rw := &errorRewriter{ResponseWriter: w, body: body}
		if shortcuts && bytes.HasPrefix(bytes.TrimLeft(body, " \t\r\n"), []byte("{")) && bytes.Contains(body, []byte("tools/list")) {
			rw.sc = new(shortcut)
			r = r.WithContext(context.WithValue(r.Context(), shortcutKey{}, rw.sc))
		}
		next.ServeHTTP(rw, r)
		rw.finish()
	})
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Del("X-Content-Type-Options")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// errorRewriter turns the SDK's plain-text rejections of a well-formed
// message (an unknown method, a missing id or params) into JSON-RPC error
// bodies with the request's id, keeping the HTTP status.
type errorRewriter struct {
	http.ResponseWriter
	body      []byte
	status    int
	buf       bytes.Buffer
	rewriting bool
	sc        *shortcut // nil without the tools/list shortcut
}

func (w *errorRewriter) WriteHeader(code int) {
	if code >= 400 && !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
		w.rewriting, w.status = true, code
		return
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *errorRewriter) Write(p []byte) (int, error) {
	if w.rewriting {
		return w.buf.Write(p)
	}
	if q, ok := w.sc.replace(p); ok {
		if _, err := w.ResponseWriter.Write(q); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	return w.ResponseWriter.Write(p)
}

func (w *errorRewriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok && !w.rewriting {
		f.Flush()
	}
}

func (w *errorRewriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *errorRewriter) finish() {
	if !w.rewriting {
		return
	}
	msg := strings.TrimSpace(w.buf.String())
	var req envelope
	_ = json.Unmarshal(w.body, &req) // a batch keeps id null and no method
	// Which code the SDK meant is read from the request, never from the
	// SDK's wording: a method outside the MCP methods is "not found",
	// anything else it refused is an invalid request.
	code := int64(jsonrpc.CodeInvalidRequest)
	if req.Method != "" && !isMCPMethod(req.Method) {
		code = jsonrpc.CodeMethodNotFound
	}
	p := &rpcProblem{id: req.ID, err: &jsonrpc.Error{Code: code, Message: msg}}
	writeJSON(w.ResponseWriter, w.status, p.response())
}

// StdioTransport is the SDK's newline-delimited stdio transport with
// malformed lines answered by a JSON-RPC error instead of ending the
// connection. in is closed when the connection closes; out is not.
func StdioTransport(in io.ReadCloser, out io.Writer) mcp.Transport {
	return &stdioTransport{in: in, out: out}
}

// RunStdio runs srv over StdioTransport(in, out) until the client
// disconnects or ctx is done, as srv.Run does, with a plain tools/list's
// result written in once it is encoded (cacheToolsList).
func RunStdio(ctx context.Context, srv *mcp.Server, in io.ReadCloser, out io.Writer) error {
	sc := new(shortcut)
	return srv.Run(context.WithValue(ctx, shortcutKey{}, sc), &stdioTransport{in: in, out: out, sc: sc})
}

type stdioTransport struct {
	in  io.ReadCloser
	out io.Writer
	sc  *shortcut // RunStdio's, in the context the SDK runs requests with
}

func (t *stdioTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	sc := t.sc
	if sc != nil && ctx.Value(shortcutKey{}) != sc {
		sc = nil
	}
	if sc == nil {
		// Whatever shortcut the context carries is not this writer's.
		sc = &shortcut{}
		sc.off.Store(true)
	}
	pr, pw := io.Pipe()
	w := &lockedWriter{w: t.out, inflight: newPendingCalls(), sc: sc}
	w.inflight.done = ctx.Done()
	go filterLines(t.in, pw, w)
	inner := &mcp.IOTransport{Reader: closeBoth{pr, t.in}, Writer: w}
	return inner.Connect(ctx)
}

// filterLines copies well-formed lines to the SDK and answers the others.
// A line longer than the HTTP body limit is answered and skipped.
func filterLines(in io.Reader, sdk *io.PipeWriter, out io.Writer) {
	br := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > maxBody {
				tooLong, line = true, line[:0]
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the rest of a long line
		}
		var p *rpcProblem
		switch {
		case tooLong:
			p = invalidRequest(nil, fmt.Sprintf("message exceeds %d bytes", maxBody))
		case len(bytes.TrimSpace(line)) > 0:
			p = checkJSONRPC(line)
			if p == nil {
				if lw, ok := out.(*lockedWriter); ok && lw.sc != nil && bytes.HasPrefix(bytes.TrimLeft(line, " \t\r\n"), []byte("[")) {
					// The SDK answers a batch with its responses encoded
					// again (HTML-escaped): no placeholder from now on.
					lw.sc.off.Store(true)
				}
				if lw, ok := out.(*lockedWriter); ok && lw.inflight != nil {
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
			if lw, ok := out.(*lockedWriter); ok && lw.inflight != nil {
				lw.inflight.wait()
			}
			sdk.CloseWithError(err) // io.EOF ends the session cleanly
			return
		}
	}
}

// lockedWriter serialises the SDK's writes and the filter's error replies;
// each Write is one whole line.
type lockedWriter struct {
	mu       sync.Mutex
	w        io.Writer
	inflight *pendingCalls // requests passed to the SDK and not yet answered
	sc       *shortcut     // replaces the tools/list placeholder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	q, replaced := l.sc.replace(p)
	if r := fixPreInitCode(q); len(r) != len(q) {
		q, replaced = r, true
	}
	n, err := l.w.Write(q)
	if replaced && err == nil {
		n = len(p)
	}
	if l.inflight != nil {
		l.inflight.response(p)
	}
	return n, err
}

// pendingCalls tracks the requests read and not yet answered, by id.
type pendingCalls struct {
	mu      sync.Mutex
	pending map[string]struct{} // idKey of each request read and not yet answered
	idle    chan struct{}       // closed when pending is empty; nil while it is
	done    <-chan struct{}     // the session's context: stop waiting when it ends
}

func newPendingCalls() *pendingCalls { return &pendingCalls{pending: map[string]struct{}{}} }

type envelope struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
}

// readEnvelope reads a message's id and method with segmentio's decoder,
// which skips the rest (a tool result, a resource's text) several times
// faster than encoding/json; every stdio message is read here once more.
// Field names match case-insensitively, as encoding/json matches them.
func readEnvelope(line []byte, m *envelope) error {
	return segjson.Unmarshal(line, m)
}

// request counts the calls in a line read from the client: one message,
// or each of a batch's.
func (f *pendingCalls) request(line []byte) {
	ms := envelopes(line)
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range ms {
		if m.Method == "" {
			continue // a response: nothing to answer
		}
		// A set, not a count: the SDK answers one of two requests that
		// share an id while both are unanswered, and counting both would
		// wait at EOF for an answer that never comes.
		if k, ok := idKey(m.ID); ok {
			f.pending[k] = struct{}{}
		}
	}
}

// response settles the calls a line the SDK wrote answers.
func (f *pendingCalls) response(line []byte) {
	ms := envelopes(line)
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, m := range ms {
		if m.Method != "" {
			continue // the server's own request or notification
		}
		if k, ok := idKey(m.ID); ok {
			delete(f.pending, k)
		}
	}
	if len(f.pending) == 0 && f.idle != nil {
		close(f.idle)
		f.idle = nil
	}
}

// envelopes reads the id and method of a line's message, or of each
// message of a batch (a JSON array); nil for anything else.
func envelopes(line []byte) []envelope {
	line = bytes.TrimSpace(line)
	if len(line) > 0 && line[0] == '[' {
		var ms []envelope
		if segjson.Unmarshal(line, &ms) != nil {
			return nil
		}
		return ms
	}
	var m envelope
	if readEnvelope(line, &m) != nil {
		return nil
	}
	return []envelope{m}
}

// idKey is a JSON-RPC id as the SDK reads it, so that a request and the
// SDK's answer meet under one key however the client spelled the id: the
// SDK decodes a number as a float64 and keeps int64(number), and a string
// unescaped, then writes them back in its own spelling (1.0 is answered as
// 1, 9007199254740993 as 9007199254740992, "\u00e9" as "é"). ok is false
// for null, a missing id, and the types the SDK refuses.
func idKey(raw json.RawMessage) (key string, ok bool) {
	if len(raw) == 0 {
		return "", false
	}
	// The common spellings, without decoding: a short unsigned integer
	// (exact in a float64) and a string without escapes.
	if len(raw) <= 15 && !slices.ContainsFunc(raw, func(c byte) bool { return c < '0' || c > '9' }) && (raw[0] != '0' || len(raw) == 1) {
		return "n" + string(raw), true
	}
	if len(raw) >= 2 && raw[0] == '"' && raw[len(raw)-1] == '"' && bytes.IndexByte(raw, '\\') < 0 {
		return "s" + string(raw[1:len(raw)-1]), true
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "", false
	}
	switch v := v.(type) {
	case float64:
		return "n" + strconv.FormatInt(int64(v), 10), true
	case string:
		return "s" + v, true
	}
	return "", false
}

// wait returns once every request received has been answered.
func (f *pendingCalls) wait() {
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

func (l *lockedWriter) Close() error { return nil }

// closeBoth closes the pipe the SDK reads and the real input, which
// unblocks the filter's read.
type closeBoth struct {
	*io.PipeReader
	in io.Closer
}

func (c closeBoth) Close() error {
	return errors.Join(c.PipeReader.Close(), c.in.Close())
}

// The SDK (v1.8.0) answers a request sent before initialize with error code
// 0, which is no JSON-RPC code: clients read it as success-shaped noise.
// It is an invalid request in that state (-32600), and says so.
var (
	preInitError = []byte(`"error":{"code":0,"message":"method `)
	preInitText  = []byte(`is invalid during session initialization`)
)

func fixPreInitCode(p []byte) []byte {
	i := bytes.Index(p, preInitError)
	if i < 0 || !bytes.Contains(p[i:], preInitText) {
		return p
	}
	out := make([]byte, 0, len(p)+8)
	out = append(out, p[:i]...)
	out = append(out, `"error":{"code":-32600,"message":"method `...)
	return append(out, p[i+len(preInitError):]...)
}
