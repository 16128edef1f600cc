package agenttest_test

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/internal/agenttest"
)

// The scripted servers on their own, without a CLI: what a client reads
// off the wire for each kind of turn (these run where npm is missing).

func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, string(b)
}

// sseEvents parses "event: NAME\ndata: JSON" pairs.
func sseEvents(t *testing.T, body string) (names []string, data []map[string]any) {
	t.Helper()
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			names = append(names, strings.TrimPrefix(line, "event: "))
		case strings.HasPrefix(line, "data: "):
			var m map[string]any
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &m); err != nil {
				t.Fatalf("data line is not JSON: %v: %s", err, line)
			}
			data = append(data, m)
		}
	}
	return names, data
}

func TestClaudeServerWire(t *testing.T) {
	var reacted agenttest.Request
	srv := agenttest.NewClaudeServer(t,
		agenttest.Say("hello"),
		agenttest.Use("Bash", map[string]any{"command": "true"}),
		agenttest.React(func(r agenttest.Request) agenttest.Turn {
			reacted = r
			return agenttest.Say("saw " + r.Last().Text())
		}),
	)
	const tools = `"tools":[{"name":"Bash"}]`
	cases := []struct {
		name, body string
		events     []string
		stop       string
		block      map[string]any // the content_block_start block
		delta      map[string]any // the content_block_delta delta
	}{
		{"text", `{"model":"m",` + tools + `,"messages":[{"role":"user","content":"hi"}]}`,
			[]string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"},
			"end_turn", map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text_delta", "text": "hello"}},
		{"tool_use", `{"model":"m",` + tools + `,"messages":[{"role":"user","content":"hi"}]}`,
			[]string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"},
			"tool_use", map[string]any{"type": "tool_use", "id": "toolu_02", "name": "Bash", "input": map[string]any{}},
			map[string]any{"type": "input_json_delta", "partial_json": `{"command":"true"}`}},
		{"react", `{"model":"m",` + tools + `,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_02","is_error":true,"content":"Exit code 1"}]}]}`,
			[]string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"},
			"end_turn", map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text_delta", "text": "saw [tool_result is_error]\nExit code 1"}},
		{"side request, script untouched", `{"model":"m","messages":[{"role":"user","content":"title?"}]}`,
			[]string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"},
			"end_turn", map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text_delta", "text": "done."}},
		{"past the script", `{"model":"m",` + tools + `,"messages":[{"role":"user","content":"more"}]}`,
			[]string{"message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop"},
			"end_turn", map[string]any{"type": "text", "text": ""}, map[string]any{"type": "text_delta", "text": "done."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp, body := post(t, srv.URL+"/v1/messages?beta=true", c.body)
			if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
				t.Fatalf("Content-Type %q", ct)
			}
			names, data := sseEvents(t, body)
			if strings.Join(names, ",") != strings.Join(c.events, ",") {
				t.Fatalf("events %v, want %v", names, c.events)
			}
			for i, d := range data {
				if d["type"] != names[i] {
					t.Errorf("event %s carries type %v", names[i], d["type"])
				}
			}
			if got := data[1]["content_block"]; !jsonEqual(got, c.block) {
				t.Errorf("content block %v, want %v", got, c.block)
			}
			if got := data[2]["delta"]; !jsonEqual(got, c.delta) {
				t.Errorf("delta %v, want %v", got, c.delta)
			}
			if got := data[4]["delta"].(map[string]any)["stop_reason"]; got != c.stop {
				t.Errorf("stop_reason %v, want %s", got, c.stop)
			}
		})
	}
	if _, body := post(t, srv.URL+"/v1/messages/count_tokens", `{}`); !strings.Contains(body, "input_tokens") {
		t.Errorf("count_tokens: %s", body)
	}
	if srv.Used() != 4 || len(srv.Requests()) != 5 || len(srv.Conversation()) != 4 {
		t.Errorf("used %d, requests %d, conversation %d: want 4, 5, 4", srv.Used(), len(srv.Requests()), len(srv.Conversation()))
	}
	if reacted.Model != "m" || len(reacted.Tools) != 1 || !reacted.Contains("Exit code 1") {
		t.Errorf("React got %+v", reacted)
	}
	if resp, _ := post(t, srv.URL+"/v1/messages", `not json`); resp.StatusCode != http.StatusBadRequest {
		t.Errorf("bad JSON: status %d, want 400", resp.StatusCode)
	}
}

func TestGeminiServerWire(t *testing.T) {
	srv := agenttest.NewGeminiServer(t,
		agenttest.Use("run_shell_command", map[string]any{"command": "true"}),
		agenttest.Say("bye"),
	)
	const main = `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]}`
	cases := []struct {
		name, path, body string
		sse              bool
		part             map[string]any
	}{
		{"function call, streamed", "/v1beta/models/gemini-x:streamGenerateContent?alt=sse", main, true,
			map[string]any{"functionCall": map[string]any{"name": "run_shell_command", "args": map[string]any{"command": "true"}}}},
		{"JSON side request", "/v1beta/models/gemini-lite:generateContent",
			`{"contents":[{"role":"user","parts":[{"text":"route"}]}],"generationConfig":{"responseMimeType":"application/json"}}`, false, nil},
		{"text", "/v1beta/models/gemini-x:generateContent", main, false, map[string]any{"text": "bye"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, body := post(t, srv.URL+c.path, c.body)
			if c.sse {
				if !strings.HasPrefix(body, "data: ") {
					t.Fatalf("not SSE: %q", body)
				}
				body = strings.TrimSpace(strings.TrimPrefix(body, "data: "))
			}
			var resp struct {
				Candidates []struct {
					Content struct {
						Parts []map[string]any `json:"parts"`
					} `json:"content"`
				} `json:"candidates"`
			}
			if err := json.Unmarshal([]byte(body), &resp); err != nil || len(resp.Candidates) != 1 || len(resp.Candidates[0].Content.Parts) != 1 {
				t.Fatalf("response %s: %v", body, err)
			}
			part := resp.Candidates[0].Content.Parts[0]
			if c.part == nil {
				var side map[string]any
				if err := json.Unmarshal([]byte(part["text"].(string)), &side); err != nil || side["next_speaker"] != "user" {
					t.Errorf("side answer %v: %v", part, err)
				}
				return
			}
			if !jsonEqual(part, c.part) {
				t.Errorf("part %v, want %v", part, c.part)
			}
		})
	}
	reqs := srv.Requests()
	if srv.Used() != 2 || len(reqs) != 3 || !reqs[1].Side || reqs[0].Model != "gemini-x" || len(reqs[0].Tools) != 1 {
		t.Errorf("used %d, requests %+v", srv.Used(), reqs)
	}
}
