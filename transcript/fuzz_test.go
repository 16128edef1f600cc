package transcript

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// fuzzFormat feeds arbitrary bytes, line by line, to a format's parser:
// it must not panic, and every call it returns holds bounded references.
func fuzzFormat(f *testing.F, format, seed string) {
	if b, err := os.ReadFile(filepath.Join("testdata", seed)); err == nil {
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, MaxLine)
		for sc.Scan() {
			if len(sc.Bytes()) < 4096 {
				f.Add(append([]byte(nil), sc.Bytes()...))
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := NewParser(format)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			for _, c := range p.Line(line) {
				if len(c.Command) > MaxField || len(c.Pattern) > MaxField || len(c.ID) > MaxField || len(c.Paths) > 32 {
					t.Fatalf("unbounded call %+v", c)
				}
			}
		}
		p.Restore(p.Pending())
		if len(p.Pending()) > MaxPending {
			t.Fatalf("%d pending calls", len(p.Pending()))
		}
	})
}

func FuzzClaude(f *testing.F)  { fuzzFormat(f, Claude, "claude-2.1.jsonl") }
func FuzzGemini(f *testing.F)  { fuzzFormat(f, Gemini, "gemini-0.61.jsonl") }
func FuzzCodex(f *testing.F)   { fuzzFormat(f, Codex, "codex-0.171.jsonl") }
func FuzzCopilot(f *testing.F) { fuzzFormat(f, Copilot, "copilot-1.0.102.jsonl") }

func FuzzShellReads(f *testing.F) {
	for _, s := range []string{"cat a", "cd d && sed -n 1p x | head", "cat a > /dev/null", "(cat a; head -n 1 b) | less"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cmd string) {
		if got := ShellReads(cmd); len(got) > 32 {
			t.Fatalf("%d reads", len(got))
		}
	})
}
