package transcript

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// want is what a test expects of one call: kind, tool, the paths or
// command, the exit status and whether the tool failed.
type want struct {
	Kind   Kind
	Tool   string
	What   string // paths joined by ",", the command, or the pattern
	Exit   int
	Failed bool
}

func summarize(cs []Call) []want {
	var out []want
	for _, c := range cs {
		w := want{Kind: c.Kind, Tool: c.Tool, Exit: c.Exit, Failed: c.Failed}
		switch c.Kind {
		case Read:
			w.What = strings.Join(c.Paths, ",")
		case Run:
			w.What = c.Command
		case Search:
			w.What = c.Pattern
		}
		out = append(out, w)
		if c.InputSHA256 == "" || len(c.InputSHA256) != 64 {
			panic("call without an input hash: " + c.ID)
		}
	}
	return out
}

// parseFile feeds every line of a testdata transcript to a parser.
func parseFile(t *testing.T, format, name string) []Call {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewParser(format)
	if err != nil {
		t.Fatal(err)
	}
	var out []Call
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, MaxLine)
	for sc.Scan() {
		out = append(out, p.Line(sc.Bytes())...)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The transcripts in testdata were written by the real CLIs, offline
// against the scripted model stubs of ../shared/tools (see
// testdata/README.md): each ran a file read, a shell read, a failing
// command, a search and a read of a missing file.
func TestRealTranscripts(t *testing.T) {
	const repo = "/tmp/hD/cap/"
	tests := []struct {
		format, file string
		want         []want
	}{
		{Claude, "claude-2.1.jsonl", []want{
			{Read, "Read", repo + "repo/docs/guide.md", 0, false},
			{Search, "Grep", "Guide", 0, false},
			{Search, "Glob", "**/*.md", 0, false},
			{Run, "Bash", "cat README.md", 0, false},
			{Read, "Bash", "README.md", 0, false},
			{Run, "Bash", "sh -c 'exit 3'", 3, true},
			{Read, "Read", repo + "repo/missing.md", -1, true},
		}},
		{Gemini, "gemini-0.61.jsonl", []want{
			{Read, "read_file", "docs/guide.md", 0, false},
			{Run, "run_shell_command", "cat docs/guide.md", 0, false},
			{Read, "run_shell_command", "docs/guide.md", 0, false},
			{Run, "run_shell_command", "sh -c 'exit 3'", 3, true},
			{Search, "glob", "**/*.md", 0, false},
			{Read, "read_file", "missing.md", -1, true},
		}},
		{Codex, "codex-0.171.jsonl", []want{
			{Run, "exec_command", "cat docs/guide.md", 0, false},
			{Read, "exec_command", "docs/guide.md", 0, false},
			{Run, "exec_command", "sh -c 'exit 3'", 3, true},
			// Codex 0.171 no longer has the old shell tool: "unsupported call".
			{Run, "shell", "head -n 1 docs/guide.md", -1, true},
		}},
		{Copilot, "copilot-1.0.102.jsonl", []want{
			{Read, "view", repo + "prepo/docs/guide.md", 0, false},
			{Run, "bash", "cat docs/guide.md", 0, false},
			{Read, "bash", "docs/guide.md", 0, false},
			{Run, "bash", "sh -c 'exit 3'", 3, true},
			{Read, "view", repo + "prepo/missing.md", -1, true},
			{Search, "grep", "Guide", 0, false},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			got := summarize(parseFile(t, tt.format, tt.file))
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("calls of %s:\n got %+v\nwant %+v", tt.file, got, tt.want)
			}
		})
	}
}

func TestShellReads(t *testing.T) {
	tests := []struct {
		cmd  string
		want []string
	}{
		{"cat docs/guide.md", []string{"docs/guide.md"}},
		{"cat -n a.md b.md", []string{"a.md", "b.md"}},
		{"head -n 40 README.md", []string{"README.md"}},
		{"tail -n 5 log.txt", []string{"log.txt"}},
		{"sed -n '1,80p' docs/guide.md", []string{"docs/guide.md"}},
		{"sed -n -e 1p x.md", []string{"x.md"}},
		{"less docs/guide.md", []string{"docs/guide.md"}},
		{"cd docs && cat guide.md", []string{"docs/guide.md"}},
		{"cat docs/guide.md | head -50", []string{"docs/guide.md"}},
		{"git status && cat x.md", []string{"x.md"}},
		{"cat x.md 2>/dev/null", []string{"x.md"}},
		// The output never reaches the model: not a read.
		{"cat docs/guide.md > /dev/null", nil},
		{"cat docs/guide.md >/tmp/copy", nil},
		{"cat docs/guide.md &>/dev/null", nil},
		{"cat docs/guide.md >&2", nil},
		{"cat docs/guide.md | wc -l", nil},
		{"cat docs/guide.md | head -1 > /dev/null", nil},
		{"cat docs/guide.md &", nil},
		{"sed -i 's/a/b/' docs/guide.md", nil},
		{"cat \"$f\"", nil},
		{"cat docs/*.md", nil},
		{"grep -n x docs/guide.md", nil},
		{"echo docs/guide.md", nil},
		{"cat <<EOF\nx\nEOF", nil},
		{"if true; then", nil},
		{"cat docs/guide.md | head -n 0", nil},
		{"cat docs/guide.md | tail -c 0", nil},
		{"head -n 0 docs/guide.md", nil},
		{"head -c0 docs/guide.md", nil},
		{"head -n 10 docs/guide.md | tail -n 3", []string{"docs/guide.md"}},
		// Round 25 second review (c9): since c4, a shell read meets a read
		// requirement where no transcript is known (Copilot); these print
		// nothing of the file (tail -n 0) or only its line count or blank
		// lines, and were listed as reads.
		{"tail -n 0 docs/guide.md", nil},
		{"tail -n0 docs/guide.md", nil},
		{"tail -c 0 docs/guide.md", nil},
		{"tail --lines=0 docs/guide.md", nil},
		{"sed -n '$=' docs/guide.md", nil},
		{"sed -n = docs/guide.md", nil},
		{"sed d docs/guide.md", nil},
		{"sed -e d docs/guide.md", nil},
		{"sed 's/.*//' docs/guide.md", nil},
		{"sed -n -e '$=' docs/guide.md", nil},
		// Honest twins: they print the file.
		{"tail -n +1 docs/guide.md", []string{"docs/guide.md"}},
		{"tail -n +0 docs/guide.md", []string{"docs/guide.md"}},
		{"tail -n 50 docs/guide.md", []string{"docs/guide.md"}},
		{"sed -n '1,$p' docs/guide.md", []string{"docs/guide.md"}},
		{"sed -n '10,40p;$=' docs/guide.md", []string{"docs/guide.md"}},
		{"sed 's/\t/  /g' docs/guide.md", []string{"docs/guide.md"}},
		{"sed -e 's/foo/bar/' docs/guide.md", []string{"docs/guide.md"}},
		{"sed -n '/^## Done/,/^## Next/p' docs/guide.md", []string{"docs/guide.md"}},
		{"sed -n '1,80{p}' docs/guide.md", []string{"docs/guide.md"}},
		{"sed -n p docs/guide.md", []string{"docs/guide.md"}},
	}
	for _, tt := range tests {
		if got := ShellReads(tt.cmd); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ShellReads(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

func TestCheck(t *testing.T) {
	home := t.TempDir()
	wt := t.TempDir()
	cfg := filepath.Join(home, "cfg")
	env := func(kv ...string) func(string) string {
		m := map[string]string{"HOME": home}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	// A symlink inside the data folder that points into the work tree.
	proj := filepath.Join(home, ".claude", "projects", "p")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wt, "forged.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(wt, "forged.jsonl"), filepath.Join(proj, "link.jsonl")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(wt, filepath.Join(proj, "repo")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		agent, path string
		env         func(string) string
		ok          bool
	}{
		{Claude, filepath.Join(home, ".claude/projects/-repo/abc.jsonl"), env(), true},
		{Claude, filepath.Join(cfg, "projects/-repo/abc.jsonl"), env("CLAUDE_CONFIG_DIR", cfg), true},
		{Claude, filepath.Join(home, ".claude/projects/-repo/abc.jsonl"), env("CLAUDE_CONFIG_DIR", cfg), false},
		{Claude, filepath.Join(home, ".claude/abc.jsonl"), env(), false},
		{Claude, filepath.Join(home, ".claude/projects/../x.jsonl"), env(), false},
		{Claude, filepath.Join(home, ".claude/projects/-repo/abc.json"), env(), false},
		{Claude, "relative/abc.jsonl", env(), false},
		{Claude, filepath.Join(wt, "t.jsonl"), env("CLAUDE_CONFIG_DIR", wt), false}, // data folder in the work tree
		{Claude, filepath.Join(proj, "link.jsonl"), env(), false},                   // a symlink into the work tree
		{Claude, filepath.Join(proj, "repo", "x.jsonl"), env(), false},              // a folder symlink into it
		{Gemini, filepath.Join(home, ".gemini/tmp/repo/chats/session-1.jsonl"), env(), true},
		{Gemini, filepath.Join(cfg, ".gemini/tmp/repo/chats/session-1.jsonl"), env("GEMINI_CLI_HOME", cfg), true},
		{Gemini, filepath.Join(home, ".gemini/settings.jsonl"), env(), false},
		{Codex, filepath.Join(home, ".codex/sessions/2026/11/28/rollout-x.jsonl"), env(), true},
		{Codex, filepath.Join(cfg, "sessions/2026/rollout-x.jsonl"), env("CODEX_HOME", cfg), true},
		{Copilot, filepath.Join(home, ".copilot/session-state/id/events.jsonl"), env(), true},
		{Copilot, filepath.Join(cfg, "session-state/id/events.jsonl"), env("COPILOT_HOME", cfg), true},
		{Copilot, filepath.Join(home, ".claude/projects/x.jsonl"), env(), false},
		{"cursor", filepath.Join(home, ".cursor/x.jsonl"), env(), false},
	}
	for _, tt := range tests {
		_, err := Check(tt.agent, tt.path, tt.env, wt)
		if (err == nil) != tt.ok {
			t.Errorf("Check(%s, %s) = %v, want ok=%v", tt.agent, tt.path, err, tt.ok)
		}
	}
}

func TestTailIncremental(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "claude-2.1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	whole := parseFile(t, Claude, "claude-2.1.jsonl")
	// Append the real transcript in pieces of every size class, cut
	// anywhere (mid-line included), reading after each piece: the calls
	// come out once each, in order, as from one read.
	for _, step := range []int{1 << 20, 4096, 777, 97} {
		path := filepath.Join(t.TempDir(), "t.jsonl")
		st := NewState(0)
		var got []Call
		for off := 0; off < len(src); off += step {
			appendFile(t, path, src[off:min(off+step, len(src))])
			cs, next, err := Tail(context.Background(), path, Claude, st, 0)
			if err != nil {
				t.Fatalf("step %d at %d: %v", step, off, err)
			}
			got, st = append(got, cs...), next
		}
		if !reflect.DeepEqual(summarize(got), summarize(whole)) {
			t.Errorf("step %d: calls differ:\n got %+v\nwant %+v", step, summarize(got), summarize(whole))
		}
		if st.Offset != int64(len(src)) || st.Lines != 49 {
			t.Errorf("step %d: offset %d lines %d, want %d and 49", step, st.Offset, st.Lines, len(src))
		}
	}
}

func appendFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// A transcript that shrinks, or whose bytes already read change, is
// refused; one named when it already held lines is read from there.
func TestTailChanged(t *testing.T) {
	line := func(id, name, path string) string {
		return `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"` + id + `","name":"` + name + `","input":{"file_path":"` + path + `"}}]}}` + "\n" +
			`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"` + id + `","content":"x"}]}}` + "\n"
	}
	ctx := context.Background()
	tests := []struct {
		name   string
		change func(path string)
		err    bool
	}{
		{"appended", func(p string) { appendFile(t, p, []byte(line("b", "Read", "/r/b.md"))) }, false},
		{"truncated", func(p string) { os.Truncate(p, 10) }, true},
		{"rewritten same size", func(p string) {
			b, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(b, []byte("/r/a.md"), []byte("/r/z.md"), 1), 0o600)
		}, true},
		{"replaced by a symlink", func(p string) {
			other := p + ".other.jsonl"
			b, _ := os.ReadFile(p)
			os.WriteFile(other, b, 0o600)
			os.Remove(p)
			os.Symlink(other, p)
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "t.jsonl")
			old := line("0", "Read", "/r/before.md")
			appendFile(t, path, []byte(old))
			st := NewState(int64(len(old))) // named after its first lines
			appendFile(t, path, []byte(line("a", "Read", "/r/a.md")))
			cs, st, err := Tail(ctx, path, Claude, st, 0)
			if err != nil || len(cs) != 1 || cs[0].Paths[0] != "/r/a.md" {
				t.Fatalf("first read: %v %+v", err, cs)
			}
			tt.change(path)
			_, _, err = Tail(ctx, path, Claude, st, 0)
			if (err != nil) != tt.err {
				t.Fatalf("after %s: err %v, want error %v", tt.name, err, tt.err)
			}
		})
	}
}

// Bounds: a line over MaxLine is skipped (counted), and maxBytes stops a
// read at a line boundary; the next read goes on from there.
func TestTailBounds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.jsonl")
	read := `{"type":"assistant","message":{"content":[{"type":"tool_use","id":"a","name":"Read","input":{"file_path":"/r/a.md"}}]}}` + "\n"
	huge := `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":"` + strings.Repeat("x", MaxLine) + `"}]}}` + "\n"
	res := `{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"a","content":"ok"}]}}` + "\n"
	appendFile(t, path, []byte(read+huge+res))
	cs, st, err := Tail(context.Background(), path, Claude, NewState(0), int64(len(read)+10))
	if err != nil || len(cs) != 0 || st.Offset != int64(len(read)) || len(st.Pending) != 1 {
		t.Fatalf("bounded read: %v calls %d offset %d pending %d", err, len(cs), st.Offset, len(st.Pending))
	}
	cs, st, err = Tail(context.Background(), path, Claude, st, 0)
	if err != nil || len(cs) != 1 || st.Skipped != 1 {
		t.Fatalf("rest: %v calls %+v skipped %d", err, cs, st.Skipped)
	}
}

// Past FullVerify bytes only the last VerifyWindow bytes are checked again
// and the hash goes on from its saved state: the calls are the same, a
// change in the window or a shorter file is still caught, and a change
// before the window is not (the bytes there were parsed already; the
// price of a bounded check, docs/security.md).
func TestTailWindow(t *testing.T) {
	defer func(f, w int64) { FullVerify, VerifyWindow = f, w }(FullVerify, VerifyWindow)
	FullVerify, VerifyWindow = 4096, 512
	src, err := os.ReadFile(filepath.Join("testdata", "claude-2.1.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	whole := parseFile(t, Claude, "claude-2.1.jsonl")
	ctx := context.Background()
	read := func(t *testing.T) (string, State, []Call) {
		path := filepath.Join(t.TempDir(), "t.jsonl")
		st := NewState(0)
		var got []Call
		for off := 0; off < len(src); off += 1500 {
			appendFile(t, path, src[off:min(off+1500, len(src))])
			cs, next, err := Tail(ctx, path, Claude, st, 0)
			if err != nil {
				t.Fatalf("at %d: %v", off, err)
			}
			got, st = append(got, cs...), next
		}
		return path, st, got
	}
	path, st, got := read(t)
	if !reflect.DeepEqual(summarize(got), summarize(whole)) || st.WindowSHA256 == "" || len(st.HashState) == 0 {
		t.Fatalf("windowed reads: %d calls, window %q", len(got), st.WindowSHA256)
	}
	sum := sha256Hex(src)
	if st.PrefixSHA256 != sum {
		t.Errorf("prefix hash %s, want the whole file's %s", st.PrefixSHA256, sum)
	}
	flip := func(at int64) {
		b, _ := os.ReadFile(path)
		b[at] ^= 1
		os.WriteFile(path, b, 0o600)
	}
	flip(st.Offset - 10) // inside the window
	if _, _, err := Tail(ctx, path, Claude, st, 0); !errors.Is(err, ErrChanged) {
		t.Errorf("a change in the window: %v, want ErrChanged", err)
	}
	path, st, _ = read(t)
	flip(100) // before the window: not seen
	if _, _, err := Tail(ctx, path, Claude, st, 0); err != nil {
		t.Errorf("a change before the window: %v (not checked by design)", err)
	}
	os.Truncate(path, st.Offset-1)
	if _, _, err := Tail(ctx, path, Claude, st, 0); !errors.Is(err, ErrChanged) {
		t.Errorf("a shorter file: %v, want ErrChanged", err)
	}
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestRealDelegations: Claude Code's Agent tool calls in a transcript the
// real CLI wrote (testdata/README.md) are delegations naming their
// sub-agent; a call of an undefined sub-agent is a failed one.
func TestRealDelegations(t *testing.T) {
	var got []string
	for _, c := range parseFile(t, Claude, "claude-2.1-agent.jsonl") {
		if c.Kind == Delegate {
			got = append(got, c.Tool+" "+c.Agent+" failed="+strconv.FormatBool(c.Failed))
		}
	}
	want := []string{"Agent qa failed=false", "Agent nosuch failed=true"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("delegations %q, want %q", got, want)
	}
}

// TestRealMCPCalls: Claude Code's calls of MCP tools (mcp__<server>__<tool>)
// in a transcript the real CLI wrote (testdata/README.md), with sessiongate
// as the MCP server; a call of a tool the server lacks failed.
func TestRealMCPCalls(t *testing.T) {
	var got []string
	for _, c := range parseFile(t, Claude, "claude-2.1-mcp.jsonl") {
		if c.Kind == MCP {
			got = append(got, c.Tool+" failed="+strconv.FormatBool(c.Failed))
		}
	}
	want := []string{"mcp__sessiongate__session_start failed=false", "mcp__sessiongate__nosuch_tool failed=true"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("MCP calls %q, want %q", got, want)
	}
}
