package testrun_test

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/testrun"
)

// TestHonestSample reads every fifth test file (walk order) of the Go
// module cache, Python's site-packages and node_modules as honest code:
// each file's tests read as wholly new (WeakTestsIn: should check
// something) and each test moved unchanged (DeletedTestMoved: should be
// carried). It is the measure docs/evidence.md quotes, run by hand:
//
//	SESSIONGATE_HONEST_SAMPLE=out.txt NODE_MODULES=.ci/node/node_modules go test ./testrun -run TestHonestSample
//
// out.txt gets one line per file (its verdicts), so two builds can be
// compared for identical verdicts; the counts are logged. It only uses
// the exported readers, so the same file builds at older commits.
func TestHonestSample(t *testing.T) {
	out := os.Getenv("SESSIONGATE_HONEST_SAMPLE")
	if out == "" {
		t.Skip("SESSIONGATE_HONEST_SAMPLE=FILE runs the honest-corpus sample (minutes)")
	}
	// SESSIONGATE_HONEST_STRIDE=25 reads every 25th file instead (a fifth
	// of the sample, for timing under load).
	stride := 5
	if v, err := strconv.Atoi(os.Getenv("SESSIONGATE_HONEST_STRIDE")); err == nil && v > 0 {
		stride = v
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
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	w := bufio.NewWriter(f)
	defer w.Flush()
	type count struct{ files, weakFiles, weak, tests, notCarried int }
	counts := map[string]*count{"go": {}, "py": {}, "js": {}}
	for _, root := range roots {
		// WalkDir does not follow a root that is a link (.ci/node/node_modules
		// is one): the JS sample was empty.
		if r, err := filepath.EvalSymlinks(root); err == nil {
			root = r
		}
		n := 0
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(root, p)
			k := testrun.FileKind(filepath.ToSlash(rel))
			if k != "go" && k != "py" && k != "js" {
				return nil
			}
			n++
			if n%stride != 0 {
				return nil
			}
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 512<<10 {
				return nil
			}
			c := counts[k]
			c.files++
			weak := testrun.WeakTestsIn(k, nil, b)
			if len(weak) > 0 {
				c.weakFiles++
				c.weak += len(weak)
			}
			var lost []string
			for _, name := range testrun.CollectedTests(k, b) {
				c.tests++
				if !testrun.DeletedTestMoved(k, b, name, [][]byte{b}) {
					c.notCarried++
					lost = append(lost, name)
				}
			}
			fmt.Fprintf(w, "%s weak=%s notcarried=%s\n", filepath.ToSlash(rel), strings.Join(weak, ","), strings.Join(lost, ","))
			return nil
		})
	}
	for _, k := range []string{"go", "py", "js"} {
		c := counts[k]
		t.Logf("%s: %d files, weak as new: %d tests in %d files; moved unchanged: %d of %d tests not carried", k, c.files, c.weak, c.weakFiles, c.notCarried, c.tests)
	}
}
