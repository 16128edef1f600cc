package ancestry

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestR59H345ProcFileMountedOver (helper 345): fstatfs and the PID in
// stat do not tell procfs's own /proc/PID/stat from another procfs file
// bind-mounted over it in a mount namespace of one's own (`unshare --user
// --map-root-user --mount`): /proc/OTHER/cmdline, whose text its process
// chose (argv[0] "PID (claude) S ... START"), is procfs's and names the
// PID, and the session's running CLI read as gone (or started at any
// time). A file of /proc/PID must be on /proc's own mount.
func TestR59H345ProcFileMountedOver(t *testing.T) {
	if os.Getenv("R59H345_KEY") != "" {
		return // run by the outer test: TestR59H345GoneHelper answers
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("no unshare")
	}
	target := exec.Command("sleep", "60")
	if err := target.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = target.Process.Kill(); _ = target.Wait() }()
	p, _, st := readProc(target.Process.Pid)
	if st != procOK || p.Start == 0 {
		t.Skipf("the target is not read here (%d)", st)
	}
	key := fmt.Sprintf("%d:%d", p.PID, p.Start)
	for _, c := range []struct {
		name, source string // what is mounted over the target's stat ("": nothing)
		wantGone     bool
	}{
		{"nothing mounted", "", false},
		{"a made-up stat in another process's cmdline", "cmdline", false},
	} {
		script := `exec "$0" -test.run='^TestR59H345GoneHelper$' -test.v`
		if c.source != "" {
			fake := fmt.Sprintf("%d (claude) S 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 %d 0 0 0", p.PID, p.Start+5)
			script = fmt.Sprintf(`(exec -a '%s' sleep 30) & f=$!; sleep 0.3; mount --bind /proc/$f/cmdline /proc/%d/stat || exit 99; "$0" -test.run='^TestR59H345GoneHelper$' -test.v; kill $f`, fake, p.PID)
		}
		cmd := exec.Command("unshare", "--user", "--map-root-user", "--mount", "bash", "-c", script, os.Args[0])
		cmd.Env = append(os.Environ(), "R59H345_KEY="+key)
		out, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok && ee.ExitCode() == 99 || err != nil && !strings.Contains(string(out), "gone=") {
			t.Skipf("%s: no mount namespace of one's own here: %v %s", c.name, err, out)
		}
		if want := "gone=" + strconv.FormatBool(c.wantGone); !strings.Contains(string(out), want) {
			t.Errorf("%s: Gone(%s) in the namespace: want %s\n%s", c.name, key, want, out)
		}
	}
}

// TestR59H345GoneHelper prints Gone of R59H345_KEY for the test above.
func TestR59H345GoneHelper(t *testing.T) {
	key := os.Getenv("R59H345_KEY")
	if key == "" {
		t.Skip("run by TestR59H345ProcFileMountedOver")
	}
	fmt.Printf("gone=%v\n", Gone(key))
}
