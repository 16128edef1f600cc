package ancestry

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// TestSessionOutsideNamespace (round 58): a process whose session leader
// is outside its PID namespace reads as SessionOutside, not unknown (0);
// a process that leads its own session there reads as its PID. Run for
// real: this test binary re-run under `unshare --pid --fork --mount-proc`
// (root, util-linux), as CI's container is.
func TestSessionOutsideNamespace(t *testing.T) {
	if os.Getenv("SESSIONGATE_ANCESTRY_CHILD") == "1" {
		fmt.Printf("self=%d:%d\n", Self().PID, Self().Session)
		return
	}
	unshare, err := exec.LookPath("unshare")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("unshare (util-linux) not found; CI has it")
		}
		t.Skip("unshare (util-linux) not found")
	}
	if os.Geteuid() != 0 {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI runs as root; this test needs it to make a PID namespace")
		}
		t.Skip("making a PID namespace needs root")
	}
	run := func(args ...string) (pid, sid int) {
		t.Helper()
		cmd := exec.Command(unshare, append([]string{"--pid", "--fork", "--mount-proc"}, args...)...)
		cmd.Env = append(os.Environ(), "SESSIONGATE_ANCESTRY_CHILD=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v\n%s", cmd.Args, err, out)
		}
		for _, l := range strings.Split(string(out), "\n") {
			if v, ok := strings.CutPrefix(l, "self="); ok {
				a, b, _ := strings.Cut(v, ":")
				pid, _ = strconv.Atoi(a)
				sid, _ = strconv.Atoi(b)
				return pid, sid
			}
		}
		t.Fatalf("no self= line:\n%s", out)
		return 0, 0
	}
	bin := os.Args[0]
	if _, sid := run(bin, "-test.run=^TestSessionOutsideNamespace$"); sid != SessionOutside {
		t.Errorf("session led outside the namespace: read %d, want SessionOutside (%d)", sid, SessionOutside)
	}
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Fatal("setsid (util-linux) not found beside unshare")
	}
	if pid, sid := run(setsid, bin, "-test.run=^TestSessionOutsideNamespace$"); sid != pid {
		t.Errorf("a session leader inside the namespace: read session %d for pid %d", sid, pid)
	}
}

// TestR58H342Confined: no_new_privs and seccomp are read from
// /proc/PID/status; a process that is gone is not read.
func TestR58H342Confined(t *testing.T) {
	cases := []struct {
		name string
		pid  int
		ok   bool
	}{
		{"the current process", 0, true},
		{"itself by pid", os.Getpid(), true},
		{"no such process", 1 << 30, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := Confined(c.pid); ok != c.ok {
				t.Errorf("Confined(%d) ok = %v, want %v", c.pid, ok, c.ok)
			}
		})
	}
}

// argvScript runs the test binary from a shell that stays its parent.
const argvScript = `"$0" -test.run=TestArgvIsArgsWordByWord; exit $?`

// TestArgvIsArgsWordByWord: a process's Argv is its command line as the
// kernel keeps it, which Args joins with spaces; a word with a space in
// it stays one word.
func TestArgvIsArgsWordByWord(t *testing.T) {
	if os.Getenv("SG_ARGV_CHILD") != "" {
		chain := Chain()
		if len(chain) == 0 || len(chain[0].Argv) != 4 || chain[0].Argv[2] != argvScript {
			fmt.Printf("parent argv %q\n", chain[0].Argv)
			os.Exit(1)
		}
		for _, p := range chain {
			if p.Argv != nil && strings.Join(p.Argv, " ") != p.Args {
				fmt.Printf("%d: argv %q, args %q\n", p.PID, p.Argv, p.Args)
				os.Exit(1)
			}
		}
		os.Exit(0)
	}
	cmd := exec.Command("sh", "-c", argvScript, os.Args[0])
	cmd.Env = append(os.Environ(), "SG_ARGV_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
}
