package agenthook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"

	"github.com/sessiongate/sessiongate/agenthook"
)

// honestCorpus is every honest shell line of this package's tests: the
// honestLines list and each `{LINE, false}` row of a deny table (read
// from the test files themselves, so a row added anywhere joins it).
func honestCorpus(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for _, l := range honestLines {
		add(l)
	}
	fset := token.NewFileSet()
	for _, f := range files {
		af, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(af, func(n ast.Node) bool {
			cl, ok := n.(*ast.CompositeLit)
			if !ok || len(cl.Elts) != 2 {
				return true
			}
			lit, ok1 := cl.Elts[0].(*ast.BasicLit)
			id, ok2 := cl.Elts[1].(*ast.Ident)
			if !ok1 || !ok2 || lit.Kind != token.STRING || id.Name != "false" {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && s != "" {
				add(s)
			}
			return true
		})
	}
	sort.Strings(out)
	return out
}

// TestHonestCorpusDenies measures the agent hook's decision (in-process,
// Claude Code PreToolUse Bash mid-session) over honestCorpus: how many
// honest lines it denies. Run with SESSIONGATE_MEASURE_CORPUS=1 on two
// trees to compare (round 19: the count must not grow); some rows are
// denied by design in this plain repository (a file their own test
// makes is missing here), so the number, not zero, is what is compared.
func TestHonestCorpusDenies(t *testing.T) {
	if os.Getenv("SESSIONGATE_MEASURE_CORPUS") == "" {
		t.Skip("a measure: set SESSIONGATE_MEASURE_CORPUS=1 to run it")
	}
	lines := honestCorpus(t)
	r := newRepo(t, "")
	for _, f := range []string{"go.mod", "package.json", "src/main.go", "src/a.go", "README.md", "docs/guide.md", "assets/logo.svg", "files.txt", "x.txt"} {
		writeFile(t, filepath.Join(r.root, f), "x\n")
	}
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "files")
	const sid = "honest-corpus"
	r.hook("claude", "SessionStart", golden(t, r, "claude", "SessionStart", sid))
	s := r.active()
	r.sg("session", "evidence", "--session", s.ID, "--phase", "CONTEXT_RETRIEVAL", "--type", "tool_output", "--value", "read")
	r.sg("session", "advance", "--session", s.ID, "--to", "WORKING")
	env := map[string]string{}
	for _, kv := range r.env {
		k, v, _ := bytes.Cut([]byte(kv), []byte("="))
		env[string(k)] = string(v)
	}
	denied := 0
	for _, l := range lines {
		in, err := json.Marshal(map[string]any{"session_id": sid, "cwd": r.root, "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": map[string]any{"command": l}, "tool_use_id": "c"})
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		rn := &agenthook.Runner{Dir: r.root, Getenv: func(k string) string { return env[k] }, Stdin: bytes.NewReader(in), Stdout: &out, Stderr: io.Discard}
		if code := rn.Run(context.Background(), "claude", "PreToolUse"); code != 0 {
			t.Fatalf("%q: exit %d", l, code)
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v: %s", l, err, out.String())
		}
		if pathStr(m, "hookSpecificOutput", "permissionDecision") == "deny" {
			denied++
			fmt.Printf("DENIED %q: %s\n", l, pathStr(m, "hookSpecificOutput", "permissionDecisionReason"))
		}
	}
	fmt.Printf("honest corpus: %d lines, %d denied\n", len(lines), denied)
}
