package protocolspec

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// modelDoc is a document whose parsed model TestParsedModelUnchanged pins.
type modelDoc struct {
	name   string // golden file's name under testdata/model
	data   []byte
	mutate bool // also pin the model of its one-line edits
}

// modelDocs is every protocol the parser must keep reading the same way:
// the real documents in ../shared/fixtures (read from there, never copied:
// the goldens hold hashes only), the project's test protocols and the
// starter. The session logs and README of the fixtures are parsed as well:
// Parse must not change on them either.
func modelDocs(t *testing.T) []modelDoc {
	t.Helper()
	var docs []modelDoc
	add := func(pattern, prefix string, mutate func(string) bool) {
		paths, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			base := filepath.Base(p)
			docs = append(docs, modelDoc{name: prefix + strings.TrimSuffix(base, ".md"), data: b, mutate: mutate(base)})
		}
	}
	always := func(string) bool { return true }
	fix := filepath.Join("..", "..", "shared", "fixtures", "ai-agents", "*.md")
	if m, _ := filepath.Glob(fix); len(m) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("no fixtures in ../shared/fixtures/ai-agents")
		}
		t.Log("no fixtures in ../shared/fixtures/ai-agents: the project's documents only")
	}
	add(fix, "fixture-", func(base string) bool { return strings.HasPrefix(base, "SESSION-PROTOCOL") })
	add(filepath.Join("testdata", "*.md"), "testdata-", always)
	add(filepath.Join("..", "server", "testdata", "*.md"), "server-", always)
	add(filepath.Join("..", "cmd", "sessiongate", "starter", "SESSION-PROTOCOL.md"), "starter-", always)
	return docs
}

// modelOf is everything the parser reads from data, as bytes: Parse's Spec
// and error, the inferred checks, the checklists a session log would give
// and the template headings.
func modelOf(data []byte) []byte {
	spec, err := Parse("model.md", data)
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	_ = enc.Encode(spec)
	fmt.Fprintf(&b, "err: %v\n", err)
	if err == nil {
		_ = enc.Encode(spec.InferredChecks())
		_ = enc.Encode(spec.EvidenceOnly())
	}
	_ = enc.Encode(ParseChecklists(data))
	_ = enc.Encode(Headings(data))
	return b.Bytes()
}

func shortHash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:6])
}

// modelLines pins data's model and, with mutate, the model of each one-line
// edit: line i deleted, lowered (MUST -> must, imperative verbs lowered) and
// joined to the next (sentences and paragraphs rejoined). The golden holds
// hashes and line numbers only, so a difference names the line to look at.
func modelLines(data []byte, mutate bool) (lines []string, whole []byte) {
	whole = modelOf(data)
	lines = append(lines, "whole "+shortHash(whole))
	spec, _ := Parse("model.md", data)
	for _, p := range spec.Phases {
		pj, _ := json.Marshal(p)
		lines = append(lines, fmt.Sprintf("phase L%d %s", p.Line, shortHash(pj)))
		for _, r := range p.Requirements {
			rj, _ := json.Marshal(r)
			lines = append(lines, fmt.Sprintf("  requirement L%d %s", r.Line, shortHash(rj)))
		}
		for _, c := range p.Checks {
			cj, _ := json.Marshal(c)
			lines = append(lines, fmt.Sprintf("  check L%d %s", c.Line, shortHash(cj)))
		}
	}
	if !mutate {
		return lines, whole
	}
	src := strings.Split(string(data), "\n")
	for i := range src {
		h := sha256.New()
		edit := func(ls []string) { h.Write(modelOf([]byte(strings.Join(ls, "\n")))) }
		edit(append(append([]string{}, src[:i]...), src[i+1:]...))
		low := append([]string{}, src...)
		low[i] = strings.ToLower(low[i])
		edit(low)
		if i+1 < len(src) {
			j := append(append([]string{}, src[:i]...), src[i]+" "+src[i+1])
			edit(append(j, src[i+2:]...))
		}
		lines = append(lines, fmt.Sprintf("edit L%d %s", i+1, hex.EncodeToString(h.Sum(nil)[:4])))
	}
	return lines, whole
}

// TestParsedModelUnchanged asserts that the parsed model of every protocol
// (and of every one-line edit of it) is byte-identical to the one
// testdata/model/NAME.golden pins: written with the parser before its speed
// work, it guards that no requirement, id, level, cue or check changes.
// go test -run TestParsedModelUnchanged -update rewrites them (without
// -short and -race, which skip the edits).
func TestParsedModelUnchanged(t *testing.T) {
	for _, d := range modelDocs(t) {
		t.Run(d.name, func(t *testing.T) {
			// The edits parse every protocol about 5,000 times: skipped
			// with -short, and under -race, where a parse on one goroutine
			// has nothing to show and takes ten times as long. CI runs this
			// package without -race, so they run there.
			mutate := d.mutate && !testing.Short() && !raceBuild
			lines, whole := modelLines(d.data, mutate)
			got := strings.Join(lines, "\n") + "\n"
			path := filepath.Join("testdata", "model", d.name+".golden")
			if *update {
				if d.mutate && !mutate {
					t.Fatal("-update needs the edits: run it without -short and -race")
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			wantB, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run with -update to create it): %v", err)
			}
			want := strings.Split(strings.TrimSuffix(string(wantB), "\n"), "\n")
			if !mutate {
				// -short: the edits' lines are not computed.
				var keep []string
				for _, l := range want {
					if !strings.HasPrefix(l, "edit ") {
						keep = append(keep, l)
					}
				}
				want = keep
			}
			if strings.Join(want, "\n")+"\n" == got {
				return
			}
			diffs := 0
			for i := 0; i < max(len(want), len(lines)); i++ {
				var w, g string
				if i < len(want) {
					w = want[i]
				}
				if i < len(lines) {
					g = lines[i]
				}
				if w != g && diffs < 20 {
					t.Errorf("line %d of %s: golden %q, now %q", i+1, path, w, g)
					diffs++
				}
			}
			t.Logf("the model now:\n%s", whole)
		})
	}
}
