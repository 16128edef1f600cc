package agenttest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// GeminiServer answers the Gemini API (models/*:generateContent,
// :streamGenerateContent as server-sent events, :countTokens) from a
// script, the same Turns as ClaudeServer (Tool is a function name such as
// write_file or run_shell_command, Input its args).
//
// The Gemini CLI also asks the model for JSON on the side (its router and
// next-speaker checks, recognisable by a JSON response MIME type or
// schema): those get a fixed answer, are recorded with Side set, and do not
// consume a turn.
type GeminiServer struct {
	URL string

	mu       sync.Mutex
	script   []Turn
	next     int
	requests []Request
}

// geminiSide answers every JSON side request: the next speaker is the user
// (the turn ends when the script says so) and the router picks flash.
const geminiSide = `{"reasoning":"scripted","next_speaker":"user","model_choice":"flash","complexity_reasoning":"scripted","complexity_score":1}`

// NewGeminiServer starts a scripted Gemini API server on 127.0.0.1, closed
// when the test ends; past the script every request gets "done.".
func NewGeminiServer(t testing.TB, turns ...Turn) *GeminiServer {
	t.Helper()
	s := &GeminiServer{script: turns}
	ts := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(ts.Close)
	s.URL = ts.URL
	return s
}

// Requests returns every request received so far, side requests included.
func (s *GeminiServer) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Conversation returns the scripted requests in order.
func (s *GeminiServer) Conversation() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if !r.Side {
			out = append(out, r)
		}
	}
	return out
}

// Used is how many scripted turns have been answered.
func (s *GeminiServer) Used() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.next
}

func (s *GeminiServer) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if r.Method != http.MethodPost {
		w.WriteHeader(http.StatusOK)
		return
	}
	if strings.Contains(r.URL.Path, ":countTokens") {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"totalTokens":10}`)
		return
	}
	var parsed struct {
		Contents []struct {
			Role  string          `json:"role"`
			Parts json.RawMessage `json:"parts"`
		} `json:"contents"`
		GenerationConfig map[string]any `json:"generationConfig"`
		Tools            []struct {
			Decls []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &parsed); err != nil {
		http.Error(w, "request is not JSON: "+err.Error(), http.StatusBadRequest)
		return
	}
	req := Request{Path: r.URL.Path, Raw: body}
	if i := strings.LastIndex(r.URL.Path, "/models/"); i >= 0 {
		req.Model, _, _ = strings.Cut(r.URL.Path[i+len("/models/"):], ":")
	}
	for _, c := range parsed.Contents {
		role := c.Role
		if role == "model" {
			role = "assistant" // so Request.New works the same for both APIs
		}
		req.Messages = append(req.Messages, Message{Role: role, Content: c.Parts})
	}
	for _, tl := range parsed.Tools {
		for _, d := range tl.Decls {
			req.Tools = append(req.Tools, d.Name)
		}
	}
	gc := parsed.GenerationConfig
	req.Side = gc["responseMimeType"] == "application/json" || gc["responseJsonSchema"] != nil || gc["responseSchema"] != nil

	s.mu.Lock()
	turn := Say("done.")
	if req.Side {
		turn = Say(geminiSide)
	} else {
		if s.next < len(s.script) {
			turn = s.script[s.next]
		}
		s.next++
	}
	s.requests = append(s.requests, req)
	s.mu.Unlock()
	if turn.React != nil {
		turn = turn.React(req)
	}

	var part map[string]any
	if turn.Tool != "" {
		args := turn.Input
		if args == nil {
			args = map[string]any{}
		}
		part = map[string]any{"functionCall": map[string]any{"name": turn.Tool, "args": args}}
	} else {
		text := turn.Text
		if text == "" {
			text = "ok"
		}
		part = map[string]any{"text": text}
	}
	resp, _ := json.Marshal(map[string]any{
		"candidates": []any{map[string]any{
			"content":      map[string]any{"role": "model", "parts": []any{part}},
			"finishReason": "STOP", "index": 0,
		}},
		"usageMetadata": map[string]any{"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
	})
	if strings.Contains(r.URL.Path, ":streamGenerateContent") {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("data: " + string(resp) + "\r\n\r\n"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(resp)
}
