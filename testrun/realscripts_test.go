package testrun_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/testrun"
)

// TestRealScriptChanges measures the input compare on real projects'
// shell test scripts: every change a commit made to one (the script at
// the commit's parent as the start, at the commit as the work tree) is
// judged as if QA ran it, and each weakening is logged for a person to
// classify (docs/security.md "Round 45": nvm's test history). It runs only
// with SESSIONGATE_REAL_REPOS, a colon-separated list of git dirs, and
// asserts nothing but that each judgement completes: the verdicts are the
// measurement.
func TestRealScriptChanges(t *testing.T) {
	dirs := os.Getenv("SESSIONGATE_REAL_REPOS")
	if dirs == "" {
		t.Skip("SESSIONGATE_REAL_REPOS is not set: a measurement over real repositories' histories")
	}
	max := 400
	for _, gd := range strings.Split(dirs, ":") {
		git := func(args ...string) string {
			out, err := exec.Command("git", append([]string{"--git-dir", gd}, args...)...).Output()
			if err != nil {
				t.Fatalf("git %s: %v", strings.Join(args, " "), err)
			}
			return string(out)
		}
		judged, weak := 0, 0
		for _, c := range strings.Fields(git("log", "--no-merges", "--format=%H", "-n", "3000")) {
			if judged >= max {
				break
			}
			files := strings.Split(git("diff-tree", "-z", "--no-commit-id", "-r", "--diff-filter=M", "--name-only", c), "\x00")
			for _, f := range files {
				if f == "" || judged >= max {
					continue
				}
				now := git("show", c+":"+f)
				if !strings.HasPrefix(now, "#!") || !strings.Contains(strings.SplitN(now, "\n", 2)[0], "sh") || !strings.Contains(f, "test") {
					continue
				}
				was := git("show", c+"^:"+f)
				judged++
				root := t.TempDir()
				repo, start := commitStart(t, root, map[string]string{f: was})
				writeFiles(t, root, map[string]string{f: now})
				chs, err := testrun.InputChanges(context.Background(), repo, start, "sh '"+f+"'", true)
				if err != nil {
					t.Errorf("%s %s: %v", c[:10], f, err)
					continue
				}
				if w, _ := testrun.SplitChanges(chs); len(w) > 0 {
					weak++
					t.Logf("WEAKENS %s %s %s | %s | %q", filepath.Base(filepath.Dir(gd)), c[:10], f, strings.TrimSpace(git("log", "-1", "--format=%s", c)), w)
				}
			}
		}
		t.Logf("SUMMARY %s: %d changes judged, %d weaken", gd, judged, weak)
	}
}
