package agenthook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDecode: any bytes, as any event of any agent, decode to an event or
// an error, never a panic; and whatever was decoded (or not), the answer is
// one valid JSON object, since stdout must only ever hold the agent's JSON.
// Seeded with the real payloads captured from Claude Code and Gemini CLI.
func FuzzDecode(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			agent := filepath.Base(filepath.Dir(p))
			event, _, _ := strings.Cut(strings.TrimSuffix(filepath.Base(p), ".json"), "-")
			f.Add(agent, event, b)
		}
	}
	f.Add("cursor", "beforeShellExecution", []byte(`{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","command":"git commit -m x","cwd":"/r","workspace_roots":["/r"]}`))
	f.Add("cursor", "afterFileEdit", []byte(`{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"}]}`))
	f.Add("claude", "Stop", []byte(`{"session_id":"s","stop_hook_active":true}`))
	f.Fuzz(func(t *testing.T, agent, event string, raw []byte) {
		codec, ok := Codecs[agent]
		if !ok {
			codec = Codecs[Agents[len(agent)%len(Agents)]]
		}
		ev, err := codec.Decode(event, raw)
		if err != nil || ev == nil {
			ev = &Event{Agent: agent, Name: event, Kind: KindUnknown}
		}
		for _, a := range []*Answer{{}, {Deny: true, Reason: "gate X: do Y", Context: "phase P", Notice: "n"}} {
			out := codec.Encode(ev, a)
			var v map[string]any
			if len(out) > 0 && (json.Unmarshal(out, &v) != nil || !utf8.Valid(out)) {
				t.Fatalf("%s %s: answer is not one JSON object: %q", agent, event, out)
			}
		}
	})
}
