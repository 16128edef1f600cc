package hooks_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const recordsRef = "refs/sessiongate/records"

// finishSession does the work of a session in dir (a commit) and ends it.
func (r *repo) finishSession(dir, file string) string {
	r.t.Helper()
	id := r.startWorking(dir)
	writeFile(r.t, filepath.Join(dir, file), "work of "+file+"\n")
	r.gitIn(dir, "add", file)
	if res := r.commit(dir, nil, "-m", "work on "+file); res.code != 0 {
		r.t.Fatalf("commit: %s", res.err)
	}
	r.sg(dir, "session", "evidence", "--session", id, "--phase", "QA_VALIDATION", "--type", "tool_output", "--value", "ok 3 tests")
	out := r.sg(dir, "session", "end", "--session", id, "--summary", "done")
	if !strings.Contains(out, recordsRef) || strings.Contains(out, "commit the session record") {
		r.t.Errorf("session end does not point at the records ref:\n%s", out)
	}
	return id
}

// Two people push records for one repository at the same moment from two
// clones, with the real binary's pre-push hook: both pushes go through,
// both records are on the remote, and neither clone's work tree, index or
// HEAD moved for a record. Then CI: verify without the ref fails with exit 2
// and names the fetch; after that fetch it passes.
func TestRecordsRefTwoClonesPushAtOnce(t *testing.T) {
	r := newRepo(t)
	writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"session_record: "+recordsRef+"\n")
	r.git("commit", "-q", "-am", "records on a ref")
	bare := filepath.Join(t.TempDir(), "team.git")
	r.gitIn(filepath.Dir(bare), "clone", "-q", "--bare", r.root, bare)

	base := t.TempDir()
	people := []string{"alice", "bob"}
	dirs := map[string]string{}
	ids := map[string]string{}
	for _, who := range people {
		dir := filepath.Join(base, who)
		r.gitIn(base, "clone", "-q", bare, dir)
		dir = r.gitIn(dir, "rev-parse", "--show-toplevel")
		dirs[who] = dir
		r.sg(dir, "install")
		r.gitIn(dir, "checkout", "-q", "-b", who)
		headBefore := r.head(dir)
		ids[who] = r.finishSession(dir, who+".txt")
		if st := r.gitIn(dir, "status", "--porcelain"); st != "" {
			t.Errorf("%s: work tree not clean after session end (a record in the tree?):\n%s", who, st)
		}
		if n := r.gitIn(dir, "rev-list", "--count", headBefore+"..HEAD"); n != "1" {
			t.Errorf("%s: %s commits on the branch, want only the work commit", who, n)
		}
		if got := r.gitIn(dir, "ls-tree", "-r", "--name-only", recordsRef, "--", "sessions"); got != "sessions/"+ids[who][:2]+"/"+ids[who]+".json" { // pins/ holds its event pin (eventchain)
			t.Errorf("%s: records ref holds %q", who, got)
		}
	}

	var wg sync.WaitGroup
	results := map[string]result{}
	var mu sync.Mutex
	start := make(chan struct{})
	for _, who := range people {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			res := r.run(dirs[who], nil, "git", "push", "-q", "origin", who)
			mu.Lock()
			results[who] = res
			mu.Unlock()
		}()
	}
	close(start)
	wg.Wait()
	for _, who := range people {
		if res := results[who]; res.code != 0 {
			t.Fatalf("%s's push: exit %d\n%s", who, res.code, res.err)
		}
	}
	// Whichever pushed second found the remote's ref moved: it must have merged.
	if !strings.Contains(results["alice"].err+results["bob"].err, "session records merged with origin's") {
		t.Errorf("neither push merged:\nalice: %s\nbob: %s", results["alice"].err, results["bob"].err)
	}
	remote := strings.Fields(r.gitIn(bare, "ls-tree", "-r", "--name-only", recordsRef))
	for _, who := range people {
		want := "sessions/" + ids[who][:2] + "/" + ids[who] + ".json"
		found := false
		for _, p := range remote {
			found = found || p == want
		}
		if !found {
			t.Errorf("%s's record %s is not on the remote (it has %v)\nalice: %s\nbob: %s", who, want, remote, results["alice"].err, results["bob"].err)
		}
	}
	// A record carries evidence by hash and no machine-local path.
	rec := r.gitIn(bare, "cat-file", "blob", recordsRef+":sessions/"+ids["alice"][:2]+"/"+ids["alice"]+".json")
	for _, local := range []string{base, dirs["alice"], os.TempDir()} {
		if strings.Contains(rec, local) {
			t.Errorf("record holds the local path %s", local)
		}
	}
	var parsed struct {
		Session struct{ Repository, State string }
		Events  []struct{ Token string }
	}
	if err := json.Unmarshal([]byte(rec), &parsed); err != nil || parsed.Session.State != "COMPLETE" || len(parsed.Events) == 0 {
		t.Errorf("record: %+v %v", parsed, err)
	}

	// CI: a fresh clone of alice's branch, as actions/checkout makes it.
	ci := filepath.Join(base, "ci")
	r.gitIn(base, "clone", "-q", "--branch", "alice", bare, ci)
	rng := "origin/main..origin/alice"
	// Without the records ref: --no-fetch names the fetch (exit 2); plain
	// verify fetches the ref itself (round 28) and passes.
	res := r.run(ci, nil, binary, "verify", "--no-fetch", rng)
	want := "git fetch origin " + recordsRef + ":" + recordsRef
	if res.code != 2 || !strings.Contains(res.err, want) {
		t.Fatalf("verify --no-fetch without the ref: exit %d, want 2 naming %q\n%s%s", res.code, want, res.out, res.err)
	}
	if res := r.run(ci, nil, binary, "verify", rng); res.code != 0 || !strings.Contains(res.out, "fetched: git fetch origin +"+recordsRef) {
		t.Fatalf("verify fetching the ref itself: exit %d\n%s%s", res.code, res.out, res.err)
	}
	// Alice pulls the team's records: a union, both sessions listed.
	r.sg(dirs["alice"], "records", "pull")
	listed := r.sg(dirs["alice"], "records", "list")
	for _, who := range people {
		if !strings.Contains(listed, ids[who]) {
			t.Errorf("records list after pull lacks %s's session:\n%s", who, listed)
		}
	}
	if out := r.sg(dirs["alice"], "records", "push"); !strings.Contains(out, "pushed "+recordsRef) {
		t.Errorf("records push: %s", out)
	}
	// Bob's branch verifies from the same ref.
	r.gitIn(ci, "fetch", "-q", "origin", "bob")
	if res := r.run(ci, nil, binary, "verify", "origin/main..origin/bob"); res.code != 0 {
		t.Fatalf("verify bob: exit %d\n%s%s", res.code, res.out, res.err)
	}
}

// A remote that refuses the records ref: the code push goes through, a
// warning names the ref and the fix, and the records stay on the local ref.
// A push of only the records ref is left to git (no second push from the hook).
func TestRecordsRefPushRefused(t *testing.T) {
	r := newRepo(t)
	writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"session_record: "+recordsRef+"\n")
	r.git("commit", "-q", "-am", "records on a ref")
	bare := filepath.Join(t.TempDir(), "strict.git")
	r.gitIn(filepath.Dir(bare), "init", "-q", "--bare", bare)
	writeFile(t, filepath.Join(bare, "hooks", "pre-receive"), "#!/bin/sh\nwhile read old new ref; do case \"$ref\" in refs/sessiongate/*) echo \"no custom refs here\"; exit 1;; esac; done\n")
	if err := os.Chmod(filepath.Join(bare, "hooks", "pre-receive"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("remote", "add", "origin", bare)
	// Before install, doctor says nothing would push the records.
	if res := r.run(r.root, nil, binary, "doctor"); !strings.Contains(res.out+res.err, "git push does not send "+recordsRef) {
		t.Errorf("doctor without pre-push:\n%s%s", res.out, res.err)
	}
	r.sg(r.root, "install")
	id := r.finishSession(r.root, "w.txt")
	if res := r.run(r.root, nil, binary, "doctor"); !strings.Contains(res.out+res.err, recordsRef+": 1 session record(s)") || strings.Contains(res.out+res.err, "git push does not send") {
		t.Errorf("doctor after install and one session:\n%s%s", res.out, res.err)
	}
	res := r.run(r.root, nil, "git", "push", "-q", "origin", "main")
	if res.code != 0 {
		t.Fatalf("code push: exit %d\n%s", res.code, res.err)
	}
	for _, s := range []string{"warning: session records (" + recordsRef + ") not pushed", "sessiongate records push origin"} {
		if !strings.Contains(res.err, s) {
			t.Errorf("stderr lacks %q:\n%s", s, res.err)
		}
	}
	if out := r.gitIn(bare, "for-each-ref", "--format=%(refname)"); out != "refs/heads/main" {
		t.Errorf("remote refs: %q", out)
	}
	if got := r.git("ls-tree", "-r", "--name-only", recordsRef); !strings.Contains(got, id) {
		t.Errorf("local records ref lost the record: %q", got)
	}
	// Pushing the ref by hand runs pre-push, which must not push it again.
	res = r.run(r.root, nil, "git", "push", "origin", recordsRef)
	if res.code == 0 || strings.Count(res.err, "no custom refs here") != 1 || strings.Contains(res.err, "not pushed") {
		t.Errorf("manual records push: exit %d\n%s", res.code, res.err)
	}
}

// Sessions in several worktrees of one clone end at the same moment: each
// writes its record onto the shared ref, and none is lost.
func TestRecordsRefWorktreesEndAtOnce(t *testing.T) {
	r := newRepo(t)
	writeFile(t, filepath.Join(r.root, "sessiongate.yaml"), testConfig+"session_record: "+recordsRef+"\n")
	r.git("commit", "-q", "-am", "records on a ref")
	r.sg(r.root, "install")
	dirs := []string{r.root}
	for _, name := range []string{"wt1", "wt2"} {
		wt := filepath.Join(filepath.Dir(r.root), name)
		r.git("worktree", "add", "-q", "-b", name, wt)
		dirs = append(dirs, r.gitIn(wt, "rev-parse", "--show-toplevel"))
	}
	ids := make([]string, len(dirs))
	for i, dir := range dirs {
		ids[i] = r.startWorking(dir)
		file := filepath.Base(dir) + ".txt"
		writeFile(t, filepath.Join(dir, file), "work\n")
		r.gitIn(dir, "add", file)
		if res := r.commit(dir, nil, "-m", "work"); res.code != 0 {
			t.Fatalf("commit in %s: %s", dir, res.err)
		}
		r.sg(dir, "session", "evidence", "--session", ids[i], "--phase", "QA_VALIDATION", "--type", "tool_output", "--value", "ok 3 tests")
	}
	var wg sync.WaitGroup
	outs := make([]result, len(dirs))
	for i, dir := range dirs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			outs[i] = r.run(dir, nil, binary, "session", "end", "--session", ids[i], "--summary", "done")
		}()
	}
	wg.Wait()
	got := r.git("ls-tree", "-r", "--name-only", recordsRef)
	for i, id := range ids {
		if outs[i].code != 0 || strings.Contains(outs[i].out+outs[i].err, "warning") {
			t.Errorf("session end in %s: exit %d\n%s%s", dirs[i], outs[i].code, outs[i].out, outs[i].err)
		}
		if !strings.Contains(got, id) {
			t.Errorf("record of %s lost; the ref holds:\n%s", id, got)
		}
	}
}
