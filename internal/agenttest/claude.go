// Package agenttest runs real coding-agent CLIs (Claude Code, Gemini CLI)
// offline in tests: a scripted model server on 127.0.0.1 plays the model,
// the real CLI runs its real tools and the repository's real hooks, and
// every request that reached the "model" is recorded so a test can assert
// what the agent was told (a hook's deny reason, additional context, a
// tool's output).
package agenttest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Turn is one scripted model reply. Exactly one of Text, Tool or React is
// used: Text ends the turn (stop_reason end_turn), Tool asks the agent to
// run a tool with Input (stop_reason tool_use), React builds the reply from
// the request so a test can answer what the agent just sent.
type Turn struct {
	Text  string
	Tool  string
	Input any
	React func(req Request) Turn
	// While, when set, answers every main request for which it holds
	// with this turn without using it up; the first for which it does not
	// goes to the next turn. A model that waits ("still waiting") for as
	// many stops as the CLI sends it.
	While func(req Request) bool
}

// Say is a text reply that ends the model's turn.
func Say(text string) Turn { return Turn{Text: text} }

// Use is a reply that calls tool with input.
func Use(tool string, input any) Turn { return Turn{Tool: tool, Input: input} }

// React is a reply computed from the request it answers.
func React(f func(req Request) Turn) Turn { return Turn{React: f} }

// Request is one model request the agent sent, as received.
type Request struct {
	Path     string
	Raw      []byte
	Model    string    `json:"model"`
	Messages []Message `json:"messages"`
	// Tools lists the names of the tools the agent offered the model.
	Tools []string
	// Side is true for requests outside the scripted conversation (a
	// request that offers no tools, such as a title or summary the CLI
	// asks for); they get a plain text answer and do not consume a turn.
	Side bool
	// Sub is true for a sub-agent's request routed to the server's
	// sub-agent script (ClaudeServer.Subagent); not in Conversation.
	Sub bool
}

// Message is one conversation message; Content is kept raw because it is
// either a string or a list of blocks.
type Message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// Text is the message's text: plain text blocks, tool_result contents and
// tool_result error markers, joined by newlines, so a test can search for
// what a hook or a tool said.
func (m Message) Text() string {
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		return s
	}
	// Anthropic content blocks, or Gemini parts (text, functionResponse).
	var blocks []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Content  json.RawMessage `json:"content"`
		IsError  bool            `json:"is_error"`
		Response *struct {
			Name     string          `json:"name"`
			Response json.RawMessage `json:"response"`
		} `json:"functionResponse"`
	}
	if json.Unmarshal(m.Content, &blocks) != nil {
		return string(m.Content)
	}
	var parts []string
	for _, b := range blocks {
		switch {
		case b.Response != nil:
			parts = append(parts, "[functionResponse "+b.Response.Name+"] "+string(b.Response.Response))
		case b.Type == "text" || b.Type == "" && b.Text != "":
			parts = append(parts, b.Text)
		case b.Type == "tool_result":
			if b.IsError {
				parts = append(parts, "[tool_result is_error]")
			}
			parts = append(parts, Message{Content: b.Content}.Text())
		}
	}
	return strings.Join(parts, "\n")
}

// Last is the request's last message (the one the model is answering).
func (r Request) Last() Message {
	if len(r.Messages) == 0 {
		return Message{}
	}
	return r.Messages[len(r.Messages)-1]
}

// New returns the messages after the last assistant message: what the
// agent added since the model last spoke (tool results, hook feedback, and
// the "system" role messages recent Claude Code versions interleave).
func (r Request) New() []Message {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "assistant" {
			return r.Messages[i+1:]
		}
	}
	return r.Messages
}

// NewText is the text of New(), one message per line, each prefixed with
// its role ("user: ...").
func (r Request) NewText() string {
	var parts []string
	for _, m := range r.New() {
		parts = append(parts, m.Role+": "+m.Text())
	}
	return strings.Join(parts, "\n")
}

// Contains reports whether s occurs anywhere in the raw request (system
// prompt, messages, reminders), with JSON string escapes undone.
func (r Request) Contains(s string) bool {
	return strings.Contains(string(r.Raw), s) || strings.Contains(r.unescaped(), s)
}

// ToolResults returns the text of every tool result in the conversation
// that answers a call of the named tool, oldest first (Anthropic
// tool_use/tool_result pairs, or Gemini functionCall/functionResponse).
func (r Request) ToolResults(tool string) []string {
	type block struct {
		Type      string          `json:"type"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
		Call      *struct {
			Name string `json:"name"`
		} `json:"functionCall"`
		Response *struct {
			Name     string          `json:"name"`
			Response json.RawMessage `json:"response"`
		} `json:"functionResponse"`
	}
	ids := map[string]bool{}
	var out []string
	for _, m := range r.Messages {
		var blocks []block
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			switch {
			case b.Type == "tool_use" && b.Name == tool:
				ids[b.ID] = true
			case b.Type == "tool_result" && ids[b.ToolUseID]:
				out = append(out, Message{Content: b.Content}.Text())
			case b.Response != nil && b.Response.Name == tool:
				out = append(out, string(b.Response.Response))
			}
		}
	}
	return out
}

// AllText is every string in the request (system prompt, all messages,
// tool definitions), JSON escapes undone, one per line.
func (r Request) AllText() string { return r.unescaped() }

func (r Request) unescaped() string {
	var v any
	if json.Unmarshal(r.Raw, &v) != nil {
		return ""
	}
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case string:
			b.WriteString(x)
			b.WriteByte('\n')
		case []any:
			for _, e := range x {
				walk(e)
			}
		case map[string]any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// ClaudeServer answers the Anthropic Messages API (POST /v1/messages as
// server-sent events, POST /v1/messages/count_tokens) from a script.
type ClaudeServer struct {
	URL string

	t        testing.TB
	mu       sync.Mutex
	script   []Turn
	next     int
	requests []Request
	// subPrompt routes a request whose first message holds it to sub
	// (a sub-agent's own conversation, run beside the main one when the
	// CLI backgrounds it).
	subPrompt string
	sub       []Turn
	subNext   int
}

// Subagent gives the sub-agent whose task prompt holds prompt its own
// script: its requests no longer take the main conversation's turns. A
// sub-agent run in the background asks the model while the main agent
// does too, so one queue would hand each the other's turns. Once used
// up, the sub-agent gets "done.".
func (s *ClaudeServer) Subagent(prompt string, turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.subPrompt, s.sub = prompt, turns
}

// NewClaudeServer starts a scripted Messages API server on 127.0.0.1,
// closed when the test ends. Turns are answered in order; once the script
// is used up every further request gets "done." so a misbehaving run ends
// instead of looping.
func NewClaudeServer(t testing.TB, turns ...Turn) *ClaudeServer {
	t.Helper()
	s := &ClaudeServer{t: t, script: turns}
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// Requests returns every request received so far, side requests included.
func (s *ClaudeServer) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Conversation returns the scripted requests (side requests left out), in
// order: Conversation()[i] is the request turn i answered.
func (s *ClaudeServer) Conversation() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if !r.Side && !r.Sub {
			out = append(out, r)
		}
	}
	return out
}

// Used is how many scripted turns have been answered.
func (s *ClaudeServer) Used() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

func (s *ClaudeServer) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if r.Method != http.MethodPost {
		// HEAD/GET probes (connectivity checks) get an empty success.
		w.WriteHeader(http.StatusOK)
		return
	}
	if strings.HasSuffix(r.URL.Path, "/count_tokens") {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"input_tokens":10}`)
		return
	}
	if !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		http.NotFound(w, r)
		return
	}
	req := Request{Path: r.URL.Path, Raw: body}
	var parsed struct {
		Model    string    `json:"model"`
		Messages []Message `json:"messages"`
		Tools    []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &parsed); err != nil {
		http.Error(w, "request is not JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	req.Model, req.Messages = parsed.Model, parsed.Messages
	for _, tl := range parsed.Tools {
		req.Tools = append(req.Tools, tl.Name)
	}
	req.Side = len(req.Tools) == 0

	s.mu.Lock()
	turn := Say("done.")
	n := 0
	if !req.Side && s.subPrompt != "" && len(req.Messages) > 0 && strings.Contains(req.Messages[0].Text(), s.subPrompt) {
		req.Sub = true
		if s.subNext < len(s.sub) {
			turn = s.sub[s.subNext]
		}
		s.subNext++
		n = 1000 + s.subNext
	} else if !req.Side {
		for s.next < len(s.script) && s.script[s.next].While != nil && !s.script[s.next].While(req) {
			s.next++
		}
		if s.next < len(s.script) {
			turn = s.script[s.next]
		}
		n = s.next + 1
		if turn.While == nil {
			s.next++
		} else {
			n = 2000 + len(s.requests) // a message id of its own each time
		}
	}
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	if turn.React != nil {
		turn = turn.React(req)
	}
	writeClaudeSSE(w, n, req.Model, turn)
}

// writeClaudeSSE streams one assistant message in the Messages API's
// server-sent-event format.
func writeClaudeSSE(w http.ResponseWriter, n int, model string, turn Turn) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	ev := func(name string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, b)
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", n), "type": "message", "role": "assistant", "model": model,
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 1, "output_tokens": 1},
	}})
	stop := "end_turn"
	if turn.Tool != "" {
		input, _ := json.Marshal(turn.Input)
		if turn.Input == nil {
			input = []byte("{}")
		}
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%02d", n), "name": turn.Tool, "input": map[string]any{}}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		stop = "tool_use"
	} else {
		text := turn.Text
		if text == "" {
			text = "ok"
		}
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": 0,
			"content_block": map[string]any{"type": "text", "text": ""}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
			"delta": map[string]any{"type": "text_delta", "text": text}})
	}
	ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
	ev("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	ev("message_stop", map[string]any{"type": "message_stop"})
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
