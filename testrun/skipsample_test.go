package testrun_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/testrun"
)

// TestSkipSample reads every test file of the Go module cache, Python's
// site-packages and node_modules as honest code with every body line
// added to a test that existed at the start (was holds the file's test
// headers only: the harshest reading of SkipsIn), and writes the files it
// flags, so two builds can be diffed (docs/evidence.md, round 18):
//
//	SESSIONGATE_SKIP_SAMPLE=out.txt NODE_MODULES=.ci/node/node_modules go test ./testrun -run TestSkipSample
func TestSkipSample(t *testing.T) {
	out := os.Getenv("SESSIONGATE_SKIP_SAMPLE")
	if out == "" {
		t.Skip("SESSIONGATE_SKIP_SAMPLE=FILE runs the honest-corpus skip sample (minutes)")
	}
	var roots []string
	if b, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		roots = append(roots, strings.TrimSpace(string(b)))
	}
	if b, err := exec.Command("python3", "-c", "import site; print('\\n'.join(site.getsitepackages()))").Output(); err == nil {
		roots = append(roots, strings.Fields(string(b))...)
	}
	if nm := os.Getenv("NODE_MODULES"); nm != "" {
		roots = append(roots, nm)
	}
	head := regexp.MustCompile(`^(func\s+(Test|Benchmark|Fuzz|Example)\w*\s*\(|\s*(async\s+)?def\s+test\w*\s*\(|\s*(it|test)(\.\w+)?\s*\(\s*['"` + "`" + `])`)
	var lines []string
	counts := map[string][2]int{}
	for _, root := range roots {
		if r, err := filepath.EvalSymlinks(root); err == nil {
			root = r
		}
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			k := testrun.FileKind(filepath.ToSlash(rel))
			if k != "go" && k != "py" && k != "js" {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 512<<10 {
				return nil
			}
			var was []string
			for _, l := range strings.Split(string(b), "\n") {
				if head.MatchString(l) {
					was = append(was, l)
				}
			}
			got := testrun.SkipsIn(k, []byte(strings.Join(was, "\n")), b, true)
			c := counts[k]
			c[0]++
			if len(got) > 0 {
				c[1]++
				lines = append(lines, fmt.Sprintf("%s %d %q", filepath.ToSlash(rel), len(got), got))
			}
			counts[k] = c
			return nil
		})
	}
	sort.Strings(lines)
	if err := os.WriteFile(out, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, c := range counts {
		t.Logf("%s: %d files, %d flagged", k, c[0], c[1])
	}
}
