package testrun

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gateenv"
	"github.com/sessiongate/sessiongate/godepchange"
	"github.com/sessiongate/sessiongate/shellline"
)

// GoDepsChanged says why a QA line's `go test` would build the tests
// against Go source outside the work tree changed in the session: the
// toolchain's testing package or a module-cache dependency patched to
// pass anything (godepchange; lazy-agent pass 20). "" when the line runs
// no go test, or nothing it compiles changed.
//
// go.sum is also read as committed at the session's start (startCommit;
// "" none): a module's files and its go.sum line both rewritten to the
// patched hash (round 21) are told by the line's hash changing for the
// same version.
func GoDepsChanged(ctx context.Context, repo Repo, env []string, line string, since time.Time, startCommit string, cache godepchange.Cache) (string, error) {
	if !RunsGoTest(line) {
		return "", nil
	}
	goBin, err := gateenv.LookPath(env, "go")
	if err != nil {
		return "", nil // no go: the run fails by itself
	}
	var startSums []byte
	if startCommit != "" {
		// Absent at the start (no module then) or unreadable: nothing to
		// compare, round 20's check of the files against go.sum stands.
		startSums, _ = repo.ReadAt(ctx, startCommit, "go.sum")
	}
	return godepchange.ChangedFrom(ctx, goBin, repo.Root(), env, since, startSums, cache)
}

// RunsGoTest reports whether line runs go test.
func RunsGoTest(line string) bool {
	for _, r := range shellline.TestRuns(line) {
		if r.Runner == "go test" {
			return true
		}
	}
	return false
}

// GoDataFile reports whether a `go test` may read rel at run time: a
// file in a folder of Go source, or below one (tests run in their
// package's folder and read data there, `//go:embed` takes files below
// it), that no path element hides (a dot file or folder: .gitignore,
// .github/, which go neither embeds nor reads by convention). Lazy-agent
// pass 20: greeting.txt, the data the code reads, broken and committed
// after the agent's passing run; the run's tree was compared on .go files
// only, so the run still counted.
func GoDataFile(root, rel string) bool {
	for _, el := range strings.Split(rel, "/") {
		if strings.HasPrefix(el, ".") {
			return false
		}
	}
	for dir := path.Dir(rel); ; dir = path.Dir(dir) {
		ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir)))
		if err == nil {
			for _, e := range ents {
				if !e.IsDir() && strings.HasSuffix(e.Name(), ".go") {
					return true
				}
			}
		}
		if dir == "." || dir == "/" {
			return false
		}
	}
}
