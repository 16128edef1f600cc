package testrun

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestStatementsSample reads real shell scripts (one path a line in the
// file SESSIONGATE_SCRIPT_SAMPLE names, as shellline.TestScriptSample)
// and lays each out anew (shfmt's printer: four-space indent, operators
// first on a line, comments kept): every one must read as the same program
// (round 27, c2). Run by hand:
//
//	SESSIONGATE_SCRIPT_SAMPLE=list go test ./testrun -run TestStatementsSample
func TestStatementsSample(t *testing.T) {
	list := os.Getenv("SESSIONGATE_SCRIPT_SAMPLE")
	if list == "" {
		t.Skip("SESSIONGATE_SCRIPT_SAMPLE=LIST reads real scripts")
	}
	b, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	files, parsed, same := 0, 0, 0
	for _, p := range strings.Fields(string(b)) {
		src, err := os.ReadFile(p)
		if err != nil || len(src) > 256<<10 {
			continue
		}
		files++
		f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(syntax.LangBash)).Parse(bytes.NewReader(src), "")
		if err != nil {
			continue
		}
		parsed++
		var out bytes.Buffer
		if err := syntax.NewPrinter(syntax.Indent(4), syntax.BinaryNextLine(true), syntax.SwitchCaseIndent(true), syntax.SpaceRedirects(true)).Print(&out, f); err != nil {
			continue
		}
		if sameShellProgram("t.sh", string(src), out.String()) {
			same++
		} else {
			t.Logf("%s: not the same program laid out anew", p)
		}
	}
	t.Logf("%d scripts, %d parse as shell: %d read as the same program laid out anew", files, parsed, same)
}
