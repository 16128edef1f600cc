package gateprog

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestDpkgOwned: `apt-get install -y cargo` during a session writes
// /usr/bin/cargo; a file a Debian package holds, with the package's md5,
// is an installer's. A copy of it elsewhere, or the file rewritten, is not.
func TestDpkgOwned(t *testing.T) {
	if _, err := exec.LookPath("dpkg-query"); err != nil {
		t.Skip("no dpkg here")
	}
	git, err := filepath.EvalSymlinks("/usr/bin/git")
	if err != nil {
		t.Skip("no /usr/bin/git")
	}
	if !dpkgOwned(git) {
		t.Errorf("dpkgOwned(%s) = false, want true (git's package holds it)", git)
	}
	cp := filepath.Join(t.TempDir(), "git")
	b, _ := os.ReadFile(git)
	if err := os.WriteFile(cp, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if dpkgOwned(cp) {
		t.Errorf("dpkgOwned(%s) = true for a copy outside the package", cp)
	}
	if md5Listed(filepath.Join(dpkgInfo, "git.md5sums"), "usr/bin/git", "00000000000000000000000000000000") {
		t.Error("md5Listed took a wrong sum")
	}
}
