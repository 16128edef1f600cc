package layouttest

import (
	"os"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// TestCommittedSymlinksStayInside: a symlink git tracks points inside the
// repository by a relative path. Files people commit carry no
// machine-local paths: round 57 committed .ci/node/node ->
// /work/main/.ci/node, dangling on CI and a loop where the checkout sat
// there (TestPreCommitFramework's source copy failed on it).
func TestCommittedSymlinksStayInside(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git not installed")
		}
		t.Skip("git not installed")
	}
	out, err := exec.Command(git, "-C", "../..", "ls-files", "-s").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		meta, name, ok := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		if !ok || len(f) < 2 || f[0] != "120000" {
			continue
		}
		target, err := exec.Command(git, "-C", "../..", "cat-file", "blob", f[1]).Output()
		if err != nil {
			t.Fatalf("read the link %s: %v", name, err)
		}
		tg := string(target)
		if path.IsAbs(tg) || strings.HasPrefix(path.Clean(path.Join(path.Dir(name), tg)), "../") {
			t.Errorf("%s is a symlink to %q, outside the repository", name, tg)
		}
	}
}
