package protocolspec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// TestDocsExamples keeps docs/protocol.md honest: its minimal document
// parses, and every gate annotation example is valid.
func TestDocsExamples(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "docs", "protocol.md"))
	if err != nil {
		t.Fatalf("read docs/protocol.md: %v", err)
	}
	s := newSource(data)
	doc := md().Parse(text.NewReader(data))
	var fences []string
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		if fb, ok := n.(*ast.FencedCodeBlock); ok && isMarkdownFence(s, fb) {
			fences = append(fences, string(s.subSource(fb.Lines()).src))
		}
	}
	if len(fences) < 2 {
		t.Fatalf("want the minimal document and the annotation examples, found %d markdown fences", len(fences))
	}
	spec, err := Parse("minimal.md", []byte(fences[0]))
	if err != nil {
		t.Fatalf("minimal document: %v", err)
	}
	if len(spec.Phases) != 4 || len(spec.Warnings) != 0 {
		t.Errorf("minimal document: %d phases, warnings %v; want 4 phases, no warnings", len(spec.Phases), spec.Warnings)
	}
	ex := fences[1]
	dirs, errs := gateComments([]byte(ex), func(i int) int { return 1 + strings.Count(ex[:i], "\n") })
	if len(errs) != 0 {
		t.Errorf("annotation examples have errors: %v", errs)
	}
	if want := strings.Count(ex, "gate:"); len(dirs) != want {
		t.Errorf("%d directives parsed, %d written", len(dirs), want)
	}
}
