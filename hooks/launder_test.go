package hooks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAmendOfForeignCommit: a commit made before the session (hooks off,
// no session) and amended inside a clean session is refused by pre-commit
// where git's command line says --amend; made through a git it cannot
// read so, it passes pre-commit like new work and is flagged FOREIGN_AMEND
// because it does not descend from the session's starting commit. Amending the session's own commit, or a
// plain commit, is not flagged.
func TestAmendOfForeignCommit(t *testing.T) {
	tests := []struct {
		name string
		do   func(r *repo) string // returns the session id
		want int                  // FOREIGN_AMEND violations
	}{
		{"amend of a commit made with hooks off before the session", func(r *repo) string {
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			r.git("-c", "core.hooksPath=/dev/null", "commit", "-q", "-m", "outside")
			id := r.startWorking(r.root)
			writeFile(t, filepath.Join(r.root, "a.txt"), "a, touched up\n")
			r.git("add", "a.txt")
			// pre-commit refuses it when it can read the amend from git's
			// command line (round 61)...
			if res := r.commit(r.root, nil, "--amend", "-q", "-m", "outside, amended"); res.code == 0 {
				t.Fatal("the amend of a commit made before the session was let through by pre-commit")
			}
			// ...which a copy of git under another name hides: the commit's
			// ancestry still tells.
			gg := filepath.Join(t.TempDir(), "gg")
			gitPath, err := exec.LookPath("git")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(gitPath, gg); err != nil {
				t.Fatal(err)
			}
			if res := r.run(r.root, nil, gg, "commit", "--amend", "-q", "-m", "outside, amended"); res.code != 0 {
				t.Fatalf("amend: %s", res.err)
			}
			return id
		}, 1},
		{"amend of the session's own commit", func(r *repo) string {
			id := r.startWorking(r.root)
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "-q", "-m", "mine"); res.code != 0 {
				t.Fatalf("commit: %s", res.err)
			}
			writeFile(t, filepath.Join(r.root, "a.txt"), "a, better\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "--amend", "-q", "-m", "mine, amended"); res.code != 0 {
				t.Fatalf("amend: %s", res.err)
			}
			return id
		}, 0},
		{"plain commit", func(r *repo) string {
			id := r.startWorking(r.root)
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "-q", "-m", "mine"); res.code != 0 {
				t.Fatalf("commit: %s", res.err)
			}
			return id
		}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			id := tc.do(r)
			r.sg(r.root, "session", "status", "--session", id) // reconciles what post-commit left to it
			v := r.showProtected(id)
			if n := countCode(v, "FOREIGN_AMEND"); n != tc.want {
				t.Fatalf("%d FOREIGN_AMEND violations, want %d: %+v", n, tc.want, v.Violations)
			}
		})
	}
}

// TestViolationReachesRecordsRef: a --no-verify commit and a forced
// advance are on the records ref as soon as they are detected, so deleting
// the database does not take them away.
func TestViolationReachesRecordsRef(t *testing.T) {
	tests := []struct {
		name string
		do   func(r *repo, id string)
		code string
	}{
		{"commit --no-verify", func(r *repo, id string) {
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "--no-verify", "-q", "-m", "skip"); res.code != 0 {
				t.Fatalf("commit: %s", res.err)
			}
		}, "BYPASS"},
		{"forced advance", func(r *repo, id string) {
			// Into the end phases, then past QA_VALIDATION's failing gate.
			for range 3 {
				r.sg(r.root, "session", "advance", "--session", id, "--force", "--reason", "no time")
			}
		}, "FORCED_ADVANCE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"session_record: "+recordsRef+"\n")
			r.git("commit", "-q", "-am", "records on a ref")
			r.sg(r.root, "install")
			id := r.startWorking(r.root)
			tc.do(r, id)
			files := r.git("ls-tree", "-r", "--name-only", recordsRef)
			var path string
			for _, f := range strings.Split(files, "\n") {
				if strings.Contains(f, id) {
					path = f
				}
			}
			if path == "" {
				t.Fatalf("no record of %s on %s: %q", id, recordsRef, files)
			}
			rec := r.git("show", recordsRef+":"+path)
			if !strings.Contains(rec, `"code":"`+tc.code+`"`) {
				t.Fatalf("the record on the ref has no %s violation:\n%.2000s", tc.code, rec)
			}
			// The database goes; the record stays.
			db := filepath.Join(r.git("rev-parse", "--git-common-dir"), "sessiongate")
			if !filepath.IsAbs(db) {
				db = filepath.Join(r.root, db)
			}
			if err := os.RemoveAll(db); err != nil {
				t.Fatal(err)
			}
			if rec := r.git("show", recordsRef+":"+path); !strings.Contains(rec, tc.code) {
				t.Fatal("the record went with the database")
			}
			// A new session in a new database carries it over from the ref.
			out := r.sg(r.root, "session", "start", "--objective", "clean slate", "--json")
			if !strings.Contains(out, `"carried_violations"`) || !strings.Contains(out, tc.code+" of session "+id) {
				t.Fatalf("the new session does not carry %s of %s:\n%s", tc.code, id, out)
			}
		})
	}
}

// TestLaunderedRecordsFailVerify (issue 25.8): an agent that takes its
// records away by a route the agent hook does not see (a script file that
// deletes the database and the records ref, then expires the reflog and
// prunes) and finishes a clean session afterwards still fails CI: the
// commits of the laundered session name no record on the records ref the
// push carried, so `verify` fails the range, while the clean session's own
// commit passes on its own.
func TestLaunderedRecordsFailVerify(t *testing.T) {
	tests := []struct {
		name   string
		do     func(r *repo) // the laundered session's work
		want   string        // what verify's failure names
		bypass bool          // a BYPASS reached the ref at once
	}{
		{"a --no-verify commit (BYPASS), then the database and ref deleted", func(r *repo) {
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "--no-verify", "-q", "-m", "skip the gates"); res.code != 0 {
				t.Fatalf("commit: %s", res.err)
			}
		}, "Session-Id", true},
		{"a hooked commit, then the session's record and database deleted before its end", func(r *repo) {
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			if res := r.commit(r.root, nil, "-q", "-m", "work of a session that never ends"); res.code != 0 {
				t.Fatalf("commit: %s", res.err)
			}
		}, "record", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"session_record: "+recordsRef+"\n")
			r.git("commit", "-q", "-am", "records on a ref")
			bare := filepath.Join(t.TempDir(), "team.git")
			r.gitIn(filepath.Dir(bare), "clone", "-q", "--bare", r.root, bare)
			r.git("remote", "add", "origin", bare)
			r.git("fetch", "-q", "origin")
			r.sg(r.root, "install")
			r.git("checkout", "-q", "-b", "agent")

			r.startWorking(r.root)
			tc.do(r)
			laundered := r.head(r.root)
			if tc.bypass && r.run(r.root, nil, "git", "rev-parse", "-q", "--verify", recordsRef).code != 0 {
				t.Fatalf("the BYPASS is not on %s before the laundering", recordsRef)
			}
			// The laundering, from a script file the hook cannot read.
			script := filepath.Join(t.TempDir(), "clean.sh")
			writeFile(t, script, "rm -rf \"$(git rev-parse --git-common-dir)/sessiongate\"\n"+
				"git update-ref -d "+recordsRef+"\ngit reflog expire --expire=now --all\ngit gc -q --prune=now\n")
			if res := r.run(r.root, nil, "sh", script); res.code != 0 {
				t.Fatalf("laundering script: %s", res.err)
			}
			if r.run(r.root, nil, "git", "rev-parse", "-q", "--verify", recordsRef).code == 0 {
				t.Fatal("the records ref survived the script")
			}
			// A clean session on top, pushed with its records.
			r.finishSession(r.root, "b.txt")
			clean := r.head(r.root)
			if res := r.run(r.root, nil, "git", "push", "-q", "origin", "agent"); res.code != 0 {
				t.Fatalf("push: %s", res.err)
			}

			// CI: a fresh clone with the records ref.
			ci := filepath.Join(t.TempDir(), "ci")
			r.gitIn(filepath.Dir(ci), "clone", "-q", "--branch", "agent", bare, ci)
			r.gitIn(ci, "fetch", "-q", "origin", recordsRef+":"+recordsRef)
			res := r.run(ci, nil, binary, "verify", "origin/main..origin/agent")
			if res.code != 1 || !strings.Contains(res.out+res.err, laundered[:7]) || !strings.Contains(res.out+res.err, tc.want) {
				t.Fatalf("verify of the range with the laundered commit %s: exit %d, want 1 naming it and %q\n%s%s", laundered[:7], res.code, tc.want, res.out, res.err)
			}
			t.Logf("verify: exit %d\n%s%s", res.code, res.out, res.err)
			// The clean session's commit alone passes: the failure is the
			// laundered commit's, not the clean session's.
			if res := r.run(ci, nil, binary, "verify", laundered+".."+clean); res.code != 0 {
				t.Fatalf("verify of the clean session's commit: exit %d\n%s%s", res.code, res.out, res.err)
			}
		})
	}
}
