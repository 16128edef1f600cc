package agenttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// StepFromOutput marks a step whose input takes the id of a process
// Codex left running ("Process running with session ID N" in the last
// tool output) as its "session_id": the shared stub answers only what
// its script fixed in advance, and Codex makes that id up at run time,
// so a write_stdin to a terminal session could not be played with it.
const StepFromOutput = "session_from_output"

// SessionStep is a write_stdin to the process the previous output names.
func SessionStep(chars string) Step {
	return Step{"tool": "write_stdin", "input": map[string]any{"chars": chars, "yield_time_ms": 500}, StepFromOutput: true}
}

var runningSession = regexp.MustCompile(`session ID (\d+)`)

// StartResponsesStub is a scripted Responses API model in this process,
// modelled on ../shared/tools/openai-api-stub.py (same steps, same log
// lines for Requests and Scripted) for the one thing that stub cannot do:
// a step built from what the client sent (StepFromOutput).
func StartResponsesStub(t testing.TB, steps ...Step) *OpenAIStub {
	t.Helper()
	dir := t.TempDir()
	s := &OpenAIStub{Log: filepath.Join(dir, "requests.jsonl")}
	var mu sync.Mutex
	next, seq, ids := 0, 0, 0
	newID := func(p string) string { ids++; return fmt.Sprintf("%s_go%04d", p, ids) }
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object":"list","data":[{"id":"stub-model","object":"model","created":0,"owned_by":"stub"}],"models":[]}`)
	})
	mux.HandleFunc("/v1/responses", func(w http.ResponseWriter, r *http.Request) {
		raw, err := io.ReadAll(r.Body)
		if err == nil && strings.EqualFold(r.Header.Get("Content-Encoding"), "zstd") {
			cmd := exec.Command("zstd", "-d", "-c")
			cmd.Stdin = bytes.NewReader(raw)
			raw, err = cmd.Output()
		}
		var body struct {
			Model  string            `json:"model"`
			Stream bool              `json:"stream"`
			Tools  []json.RawMessage `json:"tools"`
			Input  []json.RawMessage `json:"input"`
		}
		if err == nil {
			err = json.Unmarshal(raw, &body)
		}
		if err != nil {
			http.Error(w, `{"error":{"message":"stub cannot decode body"}}`, http.StatusBadRequest)
			return
		}
		newItems := body.Input
		for i := len(body.Input) - 1; i >= 0; i-- {
			var it struct{ Role, Type string }
			_ = json.Unmarshal(body.Input[i], &it)
			if it.Role == "assistant" || it.Type == "function_call" || it.Type == "custom_tool_call" || it.Type == "reasoning" {
				newItems = body.Input[i+1:]
				break
			}
		}
		newJSON, _ := json.Marshal(newItems)
		mu.Lock()
		seq++
		entry := map[string]any{"seq": seq, "api": "responses", "new": json.RawMessage(newJSON)}
		step := Step{"text": "ok"}
		if len(body.Tools) > 0 {
			step = Step{"text": "[stub] script exhausted"}
			if next < len(steps) {
				step = steps[next]
			}
			entry["step_index"] = next
			next++
		}
		if step[StepFromOutput] == true {
			in := map[string]any{}
			for k, v := range step["input"].(map[string]any) {
				in[k] = v
			}
			if m := runningSession.FindAllSubmatch(newJSON, -1); len(m) > 0 {
				var id int
				fmt.Sscan(string(m[len(m)-1][1]), &id)
				in["session_id"] = id
			}
			step = Step{"tool": step["tool"], "input": in}
		}
		entry["step"] = step
		line, _ := json.Marshal(entry)
		if f, err := os.OpenFile(s.Log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Write(append(line, '\n'))
			f.Close()
		}
		var items []map[string]any
		if text, ok := step["text"].(string); ok {
			items = append(items, map[string]any{"type": "message", "role": "assistant", "id": newID("msg"), "status": "completed",
				"content": []any{map[string]any{"type": "output_text", "text": text, "annotations": []any{}}}})
		}
		if name, ok := step["tool"].(string); ok {
			args, _ := json.Marshal(step["input"])
			items = append(items, map[string]any{"type": "function_call", "id": newID("fc"), "status": "completed",
				"call_id": newID("call"), "name": name, "arguments": string(args)})
		}
		rid := newID("resp")
		mu.Unlock()
		usage := map[string]any{"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0},
			"output_tokens": 5, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}
		done := map[string]any{"id": rid, "object": "response", "created_at": time.Now().Unix(), "status": "completed",
			"model": body.Model, "output": items, "usage": usage}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		sse := func(event string, data any) {
			b, _ := json.Marshal(data)
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		}
		created := map[string]any{"id": rid, "object": "response", "created_at": done["created_at"], "status": "in_progress", "model": body.Model, "output": []any{}}
		sse("response.created", map[string]any{"type": "response.created", "response": created})
		for i, it := range items {
			sse("response.output_item.added", map[string]any{"type": "response.output_item.added", "output_index": i, "item": it})
			sse("response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": it})
		}
		sse("response.completed", map[string]any{"type": "response.completed", "response": done})
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("responses stub: listen: %v", err)
	}
	srv := &http.Server{Handler: mux}
	go srv.Serve(l)
	t.Cleanup(func() { srv.Close() })
	s.URL = fmt.Sprintf("http://%s/v1", l.Addr())
	return s
}
