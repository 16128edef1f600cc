package shellline

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestScriptSample reads real shell scripts (one path a line in the file
// SESSIONGATE_SCRIPT_SAMPLE names: the Go module cache's, dist-packages'
// and .ci/node's *.sh) each as a test script new in the session, and
// writes, per file, the lines ReadScript judges as weakening to
// SESSIONGATE_SCRIPT_SAMPLE_OUT, so two builds can be compared. Run by
// hand (round 27, c2):
//
//	find "$(go env GOMODCACHE)" .../dist-packages -L .ci/node -name '*.sh' >list
//	SESSIONGATE_SCRIPT_SAMPLE=list SESSIONGATE_SCRIPT_SAMPLE_OUT=out go test ./shellline -run TestScriptSample
func TestScriptSample(t *testing.T) {
	list, out := os.Getenv("SESSIONGATE_SCRIPT_SAMPLE"), os.Getenv("SESSIONGATE_SCRIPT_SAMPLE_OUT")
	if list == "" || out == "" {
		t.Skip("SESSIONGATE_SCRIPT_SAMPLE=LIST SESSIONGATE_SCRIPT_SAMPLE_OUT=FILE reads real scripts")
	}
	b, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	files, lines, weakFiles, weakLines := 0, 0, 0, 0
	for _, p := range strings.Fields(string(b)) {
		src, err := os.ReadFile(p)
		if err != nil || len(src) > 256<<10 {
			continue
		}
		files++
		s := ReadScript(string(src))
		n := 0
		for i, l := range s.Lines() {
			if strings.TrimSpace(l) == "" {
				continue
			}
			lines++
			if why := s.LineWeakens(i, "", nil); why != "" {
				n++
				fmt.Fprintf(w, "%s:%d: %s: %s\n", p, i+1, strings.TrimSpace(l), why)
			}
		}
		if n > 0 {
			weakFiles++
			weakLines += n
		}
	}
	t.Logf("%d scripts, %d lines: %d scripts with %d lines read as weakening", files, lines, weakFiles, weakLines)
}
