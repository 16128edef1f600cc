//go:build unix

package hooks_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/store"
)

// TestKill9Commit kills `git commit` (with every sessiongate hook
// installed) and its whole process group with SIGKILL at a random moment,
// round after round, then makes one call of the session. Every commit that
// landed must be accounted for: recorded by post-commit, recorded by
// reconciliation (its pre-commit ran), or recorded as a BYPASS. The
// database must pass integrity_check. 50 rounds, 5 with -short.
func TestKill9Commit(t *testing.T) {
	rounds := 50
	if testing.Short() {
		rounds = 5
	}
	r := newRepo(t)
	r.sg(r.root, "install")
	id := r.startWorking(r.root)
	start := r.head(r.root)
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 17))
	t.Logf("seed %d", seed)
	// Calibrate: one whole commit, so kills spread over its whole life
	// (pre-commit, commit-msg, the ref update, post-commit).
	var whole time.Duration
	for i := range 3 { // the slowest of three: the machine's load varies
		writeFile(t, filepath.Join(r.root, "calibrate.txt"), fmt.Sprintf("c%d\n", i))
		r.git("add", "-A")
		t0 := time.Now()
		if res := r.commit(r.root, nil, "-q", "-m", "calibrate"); res.code != 0 {
			t.Fatalf("calibration commit: %s", res.err)
		}
		whole = max(whole, time.Since(t0))
	}
	// The hooks' own TMPDIR: a hook killed mid-gate leaves its Python
	// harness folder there, which the next gate's run must sweep.
	tmp := t.TempDir()
	killed, hooksOff := 0, map[string]bool{}
	for i := range rounds {
		writeFile(t, filepath.Join(r.root, fmt.Sprintf("f%03d.txt", i)), fmt.Sprintf("round %d\n", i))
		r.git("add", "-A")
		if i%10 == 9 {
			// A tool that commits with the hooks switched off: must become a BYPASS.
			r.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", fmt.Sprintf("round %d, hooks off", i))
			hooksOff[r.head(r.root)] = true
			continue
		}
		cmd := exec.Command("git", "commit", "-q", "-m", fmt.Sprintf("round %d", i))
		cmd.Dir, cmd.Env = r.root, append(r.env[:len(r.env):len(r.env)], "TMPDIR="+tmp)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(time.Duration(rng.Int64N(int64(whole) * 3 / 2))):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			if err := <-done; err != nil {
				killed++
			}
		}
		// What a user does after a killed commit: remove git's stale locks.
		for _, lock := range []string{"index.lock", "HEAD.lock", "refs/heads/main.lock"} {
			os.Remove(filepath.Join(r.root, ".git", lock))
		}
	}
	// A whole commit after the kills: its gate's run sweeps the harness
	// folders of the killed hooks (a dot folder, killed before its
	// rename, waits a minute: pyharness.halfMade).
	stale, _ := filepath.Glob(filepath.Join(tmp, "sessiongate-pyharness-*"))
	writeFile(t, filepath.Join(r.root, "after.txt"), "after the kills\n")
	r.git("add", "-A")
	if res := r.commit(r.root, []string{"TMPDIR=" + tmp}, "-q", "-m", "after the kills"); res.code != 0 {
		t.Fatalf("the commit after the kills: exit %d\n%s", res.code, res.err)
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "sessiongate-pyharness-*")); len(left) > 0 {
		t.Errorf("the killed hooks' harness folders are still in TMPDIR after a gate ran: %v (%d before it)", left, len(stale))
	}
	t.Logf("%d harness folders of killed hooks swept by the next gate's run", len(stale))
	// One call of the session reconciles whatever the killed hooks missed.
	res := r.run(r.root, nil, binary, "session", "gate", "--session", id, "--phase", "QA_VALIDATION")
	if res.code == 2 {
		t.Fatalf("session gate: %s", res.err)
	}
	landed := strings.Fields(r.git("rev-list", start+"..HEAD"))
	var ev struct {
		Evidence []struct {
			Kind   string `json:"kind"`
			Ref    string `json:"ref"`
			Step   string `json:"step"`
			Origin string `json:"origin"`
		} `json:"evidence"`
		Violations []struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"violations"`
	}
	mustJSON(t, r.sg(r.root, "session", "show", id, "--json"), &ev)
	byCommit := map[string]string{}
	for _, e := range ev.Evidence {
		if (e.Kind == "commit_sha" || e.Kind == "bypass_commit") && e.Origin == "observed" {
			if prev, dup := byCommit[e.Ref]; dup {
				t.Errorf("commit %s recorded twice (%s, then %s %s)", e.Ref, prev, e.Kind, e.Step)
			}
			byCommit[e.Ref] = e.Kind + "/" + e.Step
		}
	}
	counts := map[string]int{}
	lost := 0
	for _, c := range landed {
		how, ok := byCommit[c]
		if !ok {
			lost++
			t.Errorf("commit %s landed and is unaccounted for", c)
			continue
		}
		if hooksOff[c] != strings.HasPrefix(how, "bypass_commit/") {
			t.Errorf("commit %s (hooks off: %v) recorded as %s", c, hooksOff[c], how)
		}
		counts[how]++
	}
	bypasses := 0
	for _, v := range ev.Violations {
		if v.Code == "BYPASS" {
			bypasses++
		}
	}
	if bypasses != counts["bypass_commit/reconcile"]+counts["bypass_commit/post-commit"] {
		t.Errorf("%d BYPASS violations for %v", bypasses, counts)
	}
	db, err := store.Open(context.Background(), filepath.Join(r.root, ".git", "sessiongate", "sessiongate.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	integrity := "ok"
	if err := db.IntegrityCheck(context.Background()); err != nil {
		integrity = err.Error()
		t.Error(err)
	}
	t.Logf("kill -9 of git commit (a whole commit takes %s): %d rounds, %d killed before git exited, %d commits landed: %d recorded by post-commit, %d reconciled (pre-commit had passed), %d reconciled as BYPASS (%d made with hooks off), %d unaccounted; integrity_check %s",
		whole.Round(time.Millisecond), rounds, killed, len(landed), counts["commit_sha/post-commit"], counts["commit_sha/reconcile"], counts["bypass_commit/reconcile"], len(hooksOff), lost, integrity)
}

func mustJSON(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatal(errors.Join(err, errors.New(s)))
	}
}
