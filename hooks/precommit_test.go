package hooks_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// moduleRoot walks up from the test's directory to go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the test directory")
		}
		dir = parent
	}
}

// sourceRepo copies this module into a fresh git repository and commits it,
// so pre-commit can clone it at a revision whatever the state of the
// checkout: the files git would see (tracked and untracked, not ignored)
// with their working-tree content, the same sources TestMain built the
// test binary from; every file when the module is not a git checkout.
func sourceRepo(t *testing.T, r *repo) (dir, rev string) {
	t.Helper()
	src := moduleRoot(t)
	dir = filepath.Join(t.TempDir(), "sessiongate-src")
	var files []string
	if res := r.run(src, nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"); res.code == 0 {
		for _, f := range strings.Split(res.out, "\x00") {
			if f != "" {
				files = append(files, f)
			}
		}
	} else {
		err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == ".git" {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				rel, _ := filepath.Rel(src, p)
				files = append(files, rel)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range files {
		b, err := os.ReadFile(filepath.Join(src, f))
		if errors.Is(err, fs.ErrNotExist) {
			continue // deleted in the work tree
		}
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".pre-commit-hooks.yaml")); err != nil {
		t.Fatalf("the module has no .pre-commit-hooks.yaml: %v", err)
	}
	r.gitIn(dir, "init", "-q", "-b", "main")
	r.gitIn(dir, "add", "-A")
	r.gitIn(dir, "commit", "-q", "--no-verify", "-m", "sessiongate source for the pre-commit test")
	return dir, r.gitIn(dir, "rev-parse", "HEAD")
}

// TestPreCommitFramework installs sessiongate's hooks through the real
// pre-commit framework (language golang: pre-commit runs go install on a
// clone of this module) and commits through them.
func TestPreCommitFramework(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the pre-commit framework test builds the module through pre-commit")
	}
	pc := requireTool(t, "pre-commit", "the pre-commit framework end-to-end test; Debian package pre-commit")
	goBin := requireTool(t, "go", "pre-commit's golang language builds the hooks with go install")
	r := newRepo(t)
	version := strings.TrimSpace(r.run(r.root, nil, pc, "--version").out)
	t.Logf("%s", version)

	src, rev := sourceRepo(t, r)
	// pre-commit gives the hook environment its own GOPATH; keep the module
	// and build caches where they are so go install does not download or
	// rebuild everything. The build cache alone did not do it: with go's
	// defaults (cgo on, full paths) the clone's folder is in every
	// package's cache key, and the whole module was compiled each run
	// (~50 CPU s); with the release's flags, which CI's one binary and vet
	// use (CGO_ENABLED=0, -trimpath), the packages come from the cache and
	// the framework still builds and links the hook binary from the clone.
	goenv := func(k string) string {
		out, err := exec.Command(goBin, "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", k, err)
		}
		return strings.TrimSpace(string(out))
	}
	r.env = append(r.env,
		"PRE_COMMIT_HOME="+filepath.Join(t.TempDir(), "pre-commit-home"),
		"GOMODCACHE="+goenv("GOMODCACHE"),
		"GOCACHE="+goenv("GOCACHE"),
		"GOFLAGS="+strings.TrimSpace(goenv("GOFLAGS")+" -trimpath"),
		"CGO_ENABLED=0",
	)
	writeFile(t, filepath.Join(r.root, ".pre-commit-config.yaml"), `default_install_hook_types: [pre-commit, commit-msg, post-commit, pre-push, post-merge]
repos:
  - repo: `+src+`
    rev: `+rev+`
    hooks:
      - id: sessiongate-pre-commit
      - id: sessiongate-commit-msg
      - id: sessiongate-post-commit
      - id: sessiongate-pre-push
      - id: sessiongate-post-merge
        verbose: true # the framework shows a passing hook's output only so
`)
	r.git("add", ".pre-commit-config.yaml")
	r.git("commit", "-q", "-m", "use sessiongate through pre-commit")

	if res := r.run(r.root, nil, pc, "install", "--hook-type", "pre-commit", "--hook-type", "commit-msg", "--hook-type", "post-commit", "--hook-type", "pre-push", "--hook-type", "post-merge"); res.code != 0 {
		t.Fatalf("pre-commit install: %s%s", res.out, res.err)
	}
	if res := r.run(r.root, nil, pc, "install-hooks"); res.code != 0 {
		t.Fatalf("pre-commit install-hooks (go install of the module): %s%s", res.out, res.err)
	}

	writeFile(t, filepath.Join(r.root, "a.txt"), "hello\n")
	r.git("add", "a.txt")
	before := r.head(r.root)
	res := r.commit(r.root, nil, "-m", "blocked")
	out := res.out + res.err
	if res.code == 0 || r.head(r.root) != before {
		t.Fatalf("commit without a session went through pre-commit:\n%s", out)
	}
	for _, s := range []string{"sessiongate pre-commit gates", "Failed", "require_session: true", "sessiongate session start"} {
		if !strings.Contains(out, s) {
			t.Errorf("pre-commit output lacks %q:\n%s", s, out)
		}
	}

	id := r.startWorking(r.root)
	res = r.commit(r.root, nil, "-m", "allowed")
	if res.code != 0 {
		t.Fatalf("commit with a working session: exit %d\n%s%s", res.code, res.out, res.err)
	}
	if got := r.git("log", "-1", "--format=%(trailers:key=Session-Id,valueonly)"); got != id {
		t.Errorf("Session-Id trailer %q, want %q", got, id)
	}
	s := r.show(id)
	if len(s.Violations) != 0 {
		t.Errorf("the gated commit was recorded as a violation: %+v", s.Violations)
	}
	var tokens []string
	for _, e := range s.Events {
		tokens = append(tokens, e.Token)
	}
	joined := strings.Join(tokens, " ")
	for _, tok := range []string{"hook:pre-commit:pass", "hook:commit-msg:trailer", "hook:post-commit:pass"} {
		if !strings.Contains(joined, tok) {
			t.Errorf("events lack %s: %s", tok, joined)
		}
	}

	// A merge in the session: the framework's post-merge hook records it
	// when git makes it, as `sessiongate install`'s does.
	r.git("switch", "-q", "-c", "feat/x")
	writeFile(t, filepath.Join(r.root, "x.txt"), "x\n")
	r.git("add", "x.txt")
	if res := r.commit(r.root, nil, "-m", "feat: x"); res.code != 0 {
		t.Fatalf("commit on the branch: %s%s", res.out, res.err)
	}
	r.git("switch", "-q", "main")
	writeFile(t, filepath.Join(r.root, "m.txt"), "m\n")
	r.git("add", "m.txt")
	if res := r.commit(r.root, nil, "-m", "feat: m"); res.code != 0 {
		t.Fatalf("commit on main: %s%s", res.out, res.err)
	}
	res = r.run(r.root, nil, "git", "merge", "--no-ff", "--no-edit", "feat/x")
	if res.code != 0 {
		t.Fatalf("merge: %s%s", res.out, res.err)
	}
	if out := res.out + res.err; !strings.Contains(out, "sessiongate post-merge record") || !strings.Contains(out, "post-merge recorded 1 commit(s)") {
		t.Errorf("the framework's post-merge hook did not record the merge:\n%s", out)
	}
	if v := r.show(id).Violations; len(v) != 0 {
		t.Errorf("an honest merge through the framework gave violations %+v", v)
	}

	// A side branch pushed through the framework's pre-push: git's ref
	// lines go to the framework, which names the pushed commit in its
	// variables; the session records it as pushed (else the branch read
	// as parked work, round 41).
	origin := filepath.Join(t.TempDir(), "origin.git")
	r.git("init", "-q", "--bare", origin)
	r.git("remote", "add", "origin", origin)
	r.git("switch", "-q", "-c", "docs/side", "feat/x")
	writeFile(t, filepath.Join(r.root, "side.md"), "# side\n")
	r.git("add", "side.md")
	if res := r.commit(r.root, nil, "-m", "docs: side"); res.code != 0 {
		t.Fatalf("commit on the side branch: %s%s", res.out, res.err)
	}
	side := r.head(r.root)
	r.sg(r.root, "session", "advance", "--session", id, "--to", "QA_VALIDATION")
	r.sg(r.root, "session", "evidence", "--session", id, "--phase", "QA_VALIDATION", "--type", "tool_output", "--value", "ok 3 tests")
	r.sg(r.root, "session", "advance", "--session", id)
	if res := r.run(r.root, nil, "git", "push", "-q", "origin", "docs/side"); res.code != 0 {
		t.Fatalf("push through the framework: %s%s", res.out, res.err)
	}
	var details []string
	for _, e := range r.showEvents(id) {
		if e.Token == "hook:pre-push:pass" {
			details = append(details, e.Detail)
		}
	}
	if len(details) == 0 || !strings.Contains(strings.Join(details, " "), side) {
		t.Errorf("the framework's pre-push recorded no push of %s: %q", side, details)
	}
}

// showEvents is session show's events with their details.
func (r *repo) showEvents(id string) []struct{ Token, Detail string } {
	r.t.Helper()
	var s struct {
		Events []struct{ Token, Detail string } `json:"events"`
	}
	if err := json.Unmarshal([]byte(r.sg(r.root, "session", "show", id, "--json")), &s); err != nil {
		r.t.Fatal(err)
	}
	return s.Events
}
