package protocolspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzParse: Parse never panics, and what it returns holds together:
// either a valid spec or an ErrorList of FILE:LINE errors inside the document.
func FuzzParse(f *testing.F) {
	docs, _ := filepath.Glob(filepath.Join("testdata", "*.md"))
	fixtures, _ := filepath.Glob(filepath.Join("..", "..", "shared", "fixtures", "ai-agents", "*.md"))
	for _, p := range append(docs, fixtures...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("## Session Start\n### Phase 1: A <!-- gate: command \"x\" timeout=1s -->\n| Req | Step | Status |\n|-|-|-|\n| MUST | `a|b` \\| c | [x] |\n"))
	f.Add([]byte("\xef\xbb\xbf# Session End\r\n## Phase 1:\r\n````markdown\r\n```md\r\n- [ ] x\r\n```\r\n````\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		spec, err := Parse("fuzz.md", data)
		if spec == nil {
			t.Fatal("nil spec")
		}
		lines := bytes.Count(data, []byte("\n")) + bytes.Count(data, []byte("\r")) + 1
		if err != nil {
			var list ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error is not a non-empty ErrorList: %v", err)
			}
			for _, e := range list {
				if e.File != "fuzz.md" || e.Line < 1 || e.Line > lines {
					t.Fatalf("error outside the document (%d lines): %v", lines, e)
				}
			}
			return
		}
		ids := map[string]bool{}
		for _, p := range spec.Phases {
			if p.ID == "" || ids[p.ID] {
				t.Fatalf("empty or duplicate id in a valid spec: %q", p.ID)
			}
			ids[p.ID] = true
			if p.Section != SectionStart && p.Section != SectionEnd {
				t.Fatalf("phase %s in section %q", p.ID, p.Section)
			}
			if p.Line < 1 || p.Line > lines || len(p.Checks) == 0 {
				t.Fatalf("phase %s: line %d of %d, %d checks", p.ID, p.Line, lines, len(p.Checks))
			}
			for _, r := range p.Requirements {
				if _, ok := keywordLevel[r.Level]; !ok || r.Line < 1 || r.Line > lines {
					t.Fatalf("bad requirement %+v", r)
				}
			}
		}
		if _, err := json.Marshal(spec); err != nil {
			t.Fatalf("marshal: %v", err)
		}
		_ = spec.Coverage()
		_ = Lint(spec)
		_ = ParseChecklists(data)
	})
}
