package ancestry

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestR60HiddenParent (helper 345's open honest cost): where /proc is
// mounted with hidepid=2, another user's process has no /proc entry, and
// an honest login's chain ended at the user's own sshd, started after the
// session's first CLI: a second CLI read as detached. A parent that still
// runs but is hidden now ends the chain as Hidden, and Oldest is unknown.
// Run for real: this test binary, as nobody, under a root parent, in a
// mount namespace with a procfs of its own mounted with hidepid=2 (root,
// util-linux's unshare and setpriv).
func TestR60HiddenParent(t *testing.T) {
	if os.Getenv("SESSIONGATE_ANCESTRY_HIDDEN") == "1" {
		ch := Chain()
		for _, p := range ch {
			fmt.Printf("proc=%d:%s:%v\n", p.PID, p.Name, p.Hidden)
		}
		fmt.Printf("hides=%v\n", procHidesPIDs())
		return
	}
	var tools []string
	for _, n := range []string{"unshare", "setpriv"} {
		p, err := exec.LookPath(n)
		if err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("%s (util-linux) not found; CI has it", n)
			}
			t.Skipf("%s (util-linux) not found", n)
		}
		tools = append(tools, p)
	}
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs as root; this test needs it to mount a procfs and change user")
		}
		t.Skip("mounting a procfs and changing user need root")
	}
	// A copy of this binary nobody may run (go test's build directory is
	// private).
	dir, err := os.MkdirTemp("", "sg-hidden-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	bin := filepath.Join(dir, "ancestry.test")
	b, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, b, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(opts string) (string, error) {
		// sh (root) stays as the parent of setpriv's child: the hidden one.
		script := `mount -t proc -o "$1" proc /proc || exit 3; "$2" --reuid=65534 --regid=65534 --clear-groups "$3" -test.run='^TestR60HiddenParent$'; exit $?`
		cmd := exec.Command(tools[0], "--mount", "--propagation", "private", "sh", "-c", script, "sh", opts, tools[1], bin)
		cmd.Env = append(os.Environ(), "SESSIONGATE_ANCESTRY_HIDDEN=1")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("hidepid=2")
	if err != nil {
		if strings.Contains(out, "mount") || strings.Contains(err.Error(), "exit status 3") {
			if os.Getenv("CI") == "true" {
				t.Fatalf("could not mount a procfs with hidepid=2: %v\n%s", err, out)
			}
			t.Skipf("could not mount a procfs with hidepid=2: %v\n%s", err, out)
		}
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "hides=true") {
		t.Errorf("hidepid=2 not read from mountinfo:\n%s", out)
	}
	if !strings.Contains(out, ":(hidden):true") {
		t.Errorf("the root parent, hidden, does not end the chain as Hidden:\n%s", out)
	}
	// The same without hidepid: the root parent is read, nothing hidden.
	out, err = run("rw")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(out, "true") {
		t.Errorf("without hidepid something reads hidden:\n%s", out)
	}
	if !strings.Contains(out, ":sh:false") {
		t.Errorf("without hidepid the root sh parent is not read:\n%s", out)
	}
}
