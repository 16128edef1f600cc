package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// claudeRow is a transcript row in Claude Code's shape: message rows
// (user, assistant) and attachment rows all carry a uuid.
func claudeRow(i int) string {
	pad := strings.Repeat("x", 200+i%50)
	switch i % 3 {
	case 0:
		return fmt.Sprintf(`{"parentUuid":"u%d","type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_%d","name":"Bash","input":{"command":"echo %s"}}]},"uuid":"u%d"}`, i-1, i, pad, i) + "\n"
	case 1:
		return fmt.Sprintf(`{"parentUuid":"u%d","type":"user","message":{"content":[{"tool_use_id":"toolu_%d","type":"tool_result","content":"%s"}]},"uuid":"u%d"}`, i-1, i-1, pad, i) + "\n"
	}
	return fmt.Sprintf(`{"parentUuid":"u%d","attachment":{"type":"hook_success","stdout":"%s"},"type":"attachment","uuid":"u%d"}`, i-1, pad, i) + "\n"
}

// cliCut removes the row holding `"uuid":"X"` as Claude Code 2.1.330's
// performRemoveByUuid does: the last 64 KiB read, the last occurrence
// found, the row from the newline before it to the newline after it cut,
// the file truncated there and the rest written back, in place.
func cliCut(t *testing.T, path, uuid string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	q := fi.Size()
	be := min(q, int64(RowWindow))
	ae := q - be
	ve := make([]byte, be)
	if _, err := f.ReadAt(ve, ae); err != nil {
		t.Fatal(err)
	}
	oe := []byte(`"uuid":"` + uuid + `"`)
	de := bytes.LastIndex(ve, oe)
	if de < 0 {
		t.Fatalf("%s not in the last 64 KiB", uuid)
	}
	qe := bytes.LastIndexByte(ve[:de], '\n')
	if qe < 0 && ae != 0 {
		t.Fatalf("the row of %s starts before the last 64 KiB: not cut in place", uuid)
	}
	ge := qe + 1
	xe := len(ve)
	if ke := bytes.IndexByte(ve[de+len(oe):], '\n'); ke >= 0 {
		xe = de + len(oe) + ke + 1
	}
	tt := ae + int64(ge)
	if err := f.Truncate(tt); err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(ve[xe:], tt); err != nil {
		t.Fatal(err)
	}
}

// sealThrough seals path as the hook does, the state kept as JSON between
// events (the database keeps it so).
func sealThrough(t *testing.T, path string, st State) State {
	t.Helper()
	seal, ok, err := Extend(path, st)
	if err != nil || !ok {
		t.Fatalf("Extend = %v, %v", ok, err)
	}
	st.Seal = seal
	b, _ := json.Marshal(st)
	var out State
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func rows(from, to int) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		b.WriteString(claudeRow(i))
	}
	return b.String()
}

// TestJudgeRetracted (round 26, c3): Claude Code's tombstone cut of
// sealed rows, made as its code makes it, is told from an edit. Before,
// every row here read as TRANSCRIPT_TAMPERED (a hash of the range only).
func TestJudgeRetracted(t *testing.T) {
	cases := []struct {
		name string
		edit func(t *testing.T, path string)
		cut  int // rows the CLI retracted; 0: not a retraction
	}{
		{"honest: the last attempt's tool result cut, the retry appended", func(t *testing.T, p string) {
			cliCut(t, p, "u399")
			appendFile(t, p, []byte(rows(400, 403)))
		}, 1},
		{"honest: the abandoned attempt's call and result cut (two removals)", func(t *testing.T, p string) {
			cliCut(t, p, "u397")
			cliCut(t, p, "u396")
		}, 2},
		{"honest: a message row well inside the last 64 KiB cut", func(t *testing.T, p string) {
			cliCut(t, p, "u342")
		}, 1},
		// Round 27 (c6): the CLI retracts a tool result only with the
		// message that called it.
		{"lazy: the last sealed tool result cut, another appended", func(t *testing.T, p string) {
			cliCut(t, p, "u397")
			appendFile(t, p, []byte(strings.Replace(claudeRow(397), `"content":"x`, `"content":"PASS x`, 1)))
		}, 0},
		{"lazy: a tool result cut with another call's message", func(t *testing.T, p string) {
			cliCut(t, p, "u399")
			cliCut(t, p, "u397")
		}, 0},
		{"lazy: a sealed tool result edited", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			i := bytes.Index(b, []byte(`"uuid":"u391"`))
			b[i-20] = 'y'
			os.WriteFile(p, b, 0o600)
		}, 0},
		{"lazy: an attachment row cut (no message the CLI retracts)", func(t *testing.T, p string) {
			cliCut(t, p, "u398")
		}, 0},
		{"lazy: two rows reordered", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			r1, r2 := claudeRow(393), claudeRow(394)
			b = bytes.Replace(b, []byte(r1+r2), []byte(r2+r1), 1)
			os.WriteFile(p, b, 0o600)
		}, 0},
		{"lazy: a message row cut and appended again at the end", func(t *testing.T, p string) {
			cliCut(t, p, "u394")
			appendFile(t, p, []byte(claudeRow(394)))
		}, 0},
		{"lazy: a message row before the window cut", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			b = bytes.Replace(b, []byte(claudeRow(30)), nil, 1)
			os.WriteFile(p, b, 0o600)
		}, 0},
		{"lazy: the CLI's cut in a copy renamed over the file", func(t *testing.T, p string) {
			b, _ := os.ReadFile(p)
			c := p + ".copy"
			os.WriteFile(c, b, 0o600)
			cliCut(t, c, "u399")
			os.Rename(c, p)
		}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "s.jsonl")
			appendFile(t, path, []byte(rows(1, 300)))
			st := sealThrough(t, path, State{})
			appendFile(t, path, []byte(rows(300, 400)))
			st = sealThrough(t, path, st)
			if n := len(st.Seal.Rows); n < 100 || st.Seal.Rows[0].Off < st.Seal.To-RowWindow {
				t.Fatalf("%d rows kept from %d, seal to %d", n, st.Seal.Rows[0].Off, st.Seal.To)
			}
			if err := CheckSeal(path, st); err != nil {
				t.Fatalf("the honest file: %v", err)
			}
			c.edit(t, path)
			// The hook's next event does not extend a seal cut before its end.
			if _, ok, _ := Extend(path, st); ok && c.cut > 0 {
				t.Errorf("the seal was extended over the cut")
			}
			if err := JudgeReplaced(Claude, path, st, CheckSeal(path, st)); !errors.Is(err, ErrTampered) {
				t.Fatalf("CheckSeal = %v, want tampered (as before)", err)
			}
			n, ok := JudgeRetracted(path, st)
			if ok != (c.cut > 0) || n != c.cut {
				t.Fatalf("JudgeRetracted = %d, %v; want %d rows cut", n, ok, c.cut)
			}
		})
	}
}

// TestCLIRetractable (round 27, c6): which cut rows stand for Claude Code
// 2.1.330's fallback (messages of the abandoned attempt, and the tool
// results of the calls those messages made), reproduced rows of each
// kind: a prompt, a <task-notification> row, a tool result whose call
// stays, a tool result with its call, a text-only message.
func TestCLIRetractable(t *testing.T) {
	row := func(s string) Row { return rowOf(0, []byte(s+"\n")) }
	call := row(`{"parentUuid":"u1","type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_01A","name":"Bash","input":{"command":"sh test.sh"}}]},"uuid":"u2"}`)
	result := row(`{"parentUuid":"u2","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01A","type":"tool_result","content":"PASS","is_error":false}]},"uuid":"u3","toolUseResult":{"stdout":"PASS"}}`)
	other := row(`{"parentUuid":"u3","type":"user","message":{"role":"user","content":[{"tool_use_id":"toolu_01B","type":"tool_result","content":"FAIL 1 test","is_error":true}]},"uuid":"u4"}`)
	text := row(`{"parentUuid":"u4","type":"assistant","message":{"role":"assistant","content":[{"type":"text","text":"All tests pass."}]},"uuid":"u5"}`)
	prompt := row(`{"parentUuid":"u5","type":"user","message":{"role":"user","content":"now commit"},"uuid":"u6"}`)
	notice := row(`{"parentUuid":"u6","type":"user","message":{"role":"user","content":"<task-notification>\n<task-id>a1</task-id>\n<tool-use-id>toolu_01C</tool-use-id>\n<status>failed</status>\n</task-notification>"},"uuid":"u7","origin":{"kind":"task-notification"}}`)
	if call.Kind != "a" || !slices.Equal(call.Tools, []string{"toolu_01A"}) || result.Kind != "r" || !slices.Equal(result.Tools, []string{"toolu_01A"}) || prompt.Kind != "u" || notice.Kind != "u" || text.Kind != "a" {
		t.Fatalf("kinds: call %+v, result %+v, prompt %+v, notice %+v, text %+v", call, result, prompt, notice, text)
	}
	for _, c := range []struct {
		name string
		cut  []Row
		want bool
	}{
		{"honest: a call and its result", []Row{call, result}, true},
		{"honest: a text message", []Row{text}, true},
		{"honest: a call whose result never came", []Row{call}, true},
		{"lazy: a result whose call stays", []Row{result}, false},
		{"lazy: another call's result with a message", []Row{call, other}, false},
		{"lazy: a prompt", []Row{prompt}, false},
		{"lazy: a failed sub-agent's notification", []Row{text, notice}, false},
		{"older seal: no kinds", []Row{{Msg: true}}, true},
	} {
		if got := cliRetractable(c.cut); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
}
