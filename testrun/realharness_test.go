package testrun_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/testrun"
)

// TestRealHarnessDetect measures the rule that refuses code asking
// whether the tests run it (round 49) on real projects' histories: each
// commit's changed files (parent as the start, commit as the work tree)
// go through verify's range reader, and every harness refusal is logged
// for a person to classify (docs/security.md "Round 49"). It runs only
// with SESSIONGATE_REAL_REPOS (colon-separated git dirs); it asserts that
// no commit is refused more than SESSIONGATE_REAL_HARNESS_MAX times in all
// (default 0), the count a person accepted for the named repositories.
func TestRealHarnessDetect(t *testing.T) {
	dirs := os.Getenv("SESSIONGATE_REAL_REPOS")
	if dirs == "" {
		t.Skip("SESSIONGATE_REAL_REPOS is not set: a measurement over real repositories' histories")
	}
	const max = 400
	fired := 0
	for _, gd := range strings.Split(dirs, ":") {
		git := func(args ...string) (string, bool) {
			out, err := exec.Command("git", append([]string{"--git-dir", gd}, args...)...).Output()
			return string(out), err == nil
		}
		log, _ := git("log", "--no-merges", "--format=%H", "-n", "3000")
		judged := 0
		for _, c := range strings.Fields(log) {
			if judged >= max {
				break
			}
			names, _ := git("diff-tree", "-z", "--no-commit-id", "-r", "--diff-filter=AM", "--name-only", c)
			var files []testrun.RangeFile
			for _, f := range strings.Split(names, "\x00") {
				if f == "" || !testrun.RangeReads(f) {
					continue
				}
				now, _ := git("show", c+":"+f)
				was, existed := git("show", c+"^:"+f)
				files = append(files, testrun.RangeFile{Path: f, Existed: existed, Was: []byte(was), Now: []byte(now)})
			}
			if len(files) == 0 {
				continue
			}
			judged++
			for f, whys := range testrun.SkipsAddedRange(files, nil, nil, nil) {
				for _, w := range whys {
					if strings.Contains(w, "asks whether the tests are running it") {
						fired++
						subj, _ := git("log", "-1", "--format=%s", c)
						t.Logf("HARNESS %s %s %s | %s | %s", filepath.Base(filepath.Dir(gd)), c[:10], f, strings.TrimSpace(subj), w)
					}
				}
			}
		}
		t.Logf("SUMMARY %s: %d commits judged", gd, judged)
	}
	allowed := 0
	if v := os.Getenv("SESSIONGATE_REAL_HARNESS_MAX"); v != "" {
		for _, r := range v {
			if r < '0' || r > '9' {
				t.Fatalf("SESSIONGATE_REAL_HARNESS_MAX=%q: want a count", v)
			}
			allowed = allowed*10 + int(r-'0')
		}
	}
	t.Logf("SUMMARY harness refusals: %d", fired)
	if fired > allowed {
		t.Errorf("%d harness refusals on real history, %d accepted (SESSIONGATE_REAL_HARNESS_MAX): classify each HARNESS line", fired, allowed)
	}
}
