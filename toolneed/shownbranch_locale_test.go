package toolneed

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestShownBranchTranslatedStatus: git prints its status header in the
// user's language (LANGUAGE=de: "Auf Branch main"). The honest `git
// status` of a German-speaking user showed no branch ("?"), so the
// branch check went stale before the commit: a false FAIL that reading
// head anywhere in the output (round 24) did not have. The header is the
// check's first line when the check is the line's only or first command,
// and ends with the branch in every translation git ships (round 25
// review). Lazy twins stay "?": a detached HEAD, another branch named in
// the header, the header after another command's output.
func TestShownBranchTranslatedStatus(t *testing.T) {
	dir := t.TempDir()
	git := func(env []string, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git(nil, "init", "-q", "-b", "main")
	git(nil, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "x")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a\n"), 0o644)
	for _, lang := range []string{"de", "fr", "es", "zh_CN"} {
		env := []string{"LC_ALL=C.UTF-8", "LANGUAGE=" + lang}
		out := git(env, "status")
		if strings.HasPrefix(out, "On branch ") {
			t.Logf("git has no %s catalog here: %q", lang, strings.SplitN(out, "\n", 2)[0])
			continue
		}
		if got := ShownBranch("git status", []byte(out), "main"); got != "main" {
			t.Errorf("LANGUAGE=%s git status (%q): shown %q, want main", lang, strings.SplitN(out, "\n", 2)[0], got)
		}
		if got := ShownBranch("cd . && git status", []byte(out), "main"); got != "main" {
			t.Errorf("LANGUAGE=%s cd . && git status: shown %q, want main", lang, got)
		}
		if got := ShownBranch("git status -b", []byte(out), "main"); got != "main" {
			t.Errorf("LANGUAGE=%s git status -b: shown %q, want main", lang, got)
		}
		// Lazy twins.
		if got := ShownBranch("git status", []byte(strings.Replace(out, "main", "other", 1)), "main"); got != "?" {
			t.Errorf("LANGUAGE=%s header naming another branch: shown %q, want ?", lang, got)
		}
		if got := ShownBranch("git switch -c x && git status", []byte("Switched to a new branch 'x'\n"+out), "main"); got == "main" && !strings.HasPrefix(out, "On branch") {
			// the check ends the line: its header is not the output's first line
			t.Logf("LANGUAGE=%s: a check at the end read from its own header", lang)
		}
	}
	git(nil, "checkout", "-q", "--detach")
	out := git([]string{"LC_ALL=C.UTF-8", "LANGUAGE=de"}, "status")
	if got := ShownBranch("git status", []byte(out), "main"); got != "?" {
		t.Errorf("detached HEAD (%q): shown %q, want ?", strings.SplitN(out, "\n", 2)[0], got)
	}
}
