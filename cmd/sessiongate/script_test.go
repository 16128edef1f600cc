package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sessiongate/sessiongate/internal/ancestry"
	"github.com/sessiongate/sessiongate/internal/testshare"
)

// TestScripts replays a new user's shell sessions (testdata/script/*.txt,
// one per item of the first-hour issue) against the real binary, found on
// PATH as `sessiongate`, in a fresh git repository each: every step's exit
// code and message is asserted.
func TestScripts(t *testing.T) {
	bin := realBinary(t)
	p := scriptParams(t, bin, "testdata/script")
	// CI runs a share of the scripts (internal/testshare); testscript
	// names a script's folder script-<name>.
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		skip, why, err := testshare.Out(strings.TrimPrefix(filepath.Base(env.WorkDir), "script-"))
		if err != nil {
			return err
		}
		if skip {
			env.T().Skip(why)
		}
		return setup(env)
	}
	testscript.Run(t, p)
}

// TestScriptsPreCommit replays the pre-commit framework path with the real
// framework (Debian package pre-commit): skipped without it, failed under CI.
func TestScriptsPreCommit(t *testing.T) {
	bin := realBinary(t)
	if testing.Short() {
		t.Skip("-short: the pre-commit framework scripts build the module through pre-commit")
	}
	if _, err := exec.LookPath("pre-commit"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("pre-commit is required under CI=true (.ci/run installs the Debian package)")
		}
		t.Skip("pre-commit not found: install it (apt-get install pre-commit) to run the framework scripts")
	}
	if m, _ := filepath.Glob("testdata/precommit/*.txt"); len(m) == 0 {
		t.Skip("no scripts in testdata/precommit")
	}
	p := scriptParams(t, bin, "testdata/precommit")
	// pre-commit's golang hooks `go install ./...` this module from its
	// clone. With go's defaults (cgo on, full paths) every package was
	// compiled anew each run (the clone's folder is in the cache key):
	// ~50 CPU s a script. With the release's flags, which CI's one
	// binary and vet use (CGO_ENABLED=0, -trimpath), the compiled
	// packages come from the build cache; the hook binary is still built
	// and linked by the framework from the clone.
	setup := p.Setup
	p.Setup = func(env *testscript.Env) error {
		if err := setup(env); err != nil {
			return err
		}
		env.Setenv("CGO_ENABLED", "0")
		env.Setenv("GOFLAGS", strings.TrimSpace(env.Getenv("GOFLAGS")+" -trimpath"))
		return nil
	}
	testscript.Run(t, p)
}

func scriptParams(t *testing.T, bin, dir string) testscript.Params {
	src, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// testscript removes its own go-test-script* folder only when the last
	// script ends, counting the ones a -run filter skipped: a subset run
	// left it in TMPDIR (a tmpleak failure under CI=true). A root of ours,
	// removed when the test ends, is gone however many scripts ran.
	root, err := os.MkdirTemp("", "go-test-script")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeWritable(t, root) })
	return testscript.Params{
		Dir:                 dir,
		WorkdirRoot:         root,
		RequireExplicitExec: true,
		// [underagent]: the test process runs under a coding agent (its
		// process among the ancestors), so every commit the script makes
		// is an agent's: the person half of a script cannot run.
		Condition: func(cond string) (bool, error) {
			if cond != "underagent" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			_, under := ancestry.Agent(ancestry.Chain())
			return under, nil
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH", filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
			// PATH without the binary: a user who has not installed the CLI.
			env.Setenv("PATH_WITHOUT_CLI", os.Getenv("PATH"))
			env.Setenv("PATH_WITH_CLI", env.Getenv("PATH"))
			env.Setenv("SESSIONGATE_BIN", bin)
			env.Setenv("PRE_COMMIT_HOME", filepath.Join(env.WorkDir, ".pre-commit-home"))
			home := filepath.Join(env.WorkDir, ".home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				return err
			}
			gitconfig := "[user]\n\tname = New User\n\temail = new.user@example.invalid\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"
			if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
				return err
			}
			env.Setenv("HOME", home)
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			// The source tree, for the pre-commit framework to clone.
			env.Setenv("SESSIONGATE_SRC", src)
			// The go tool's caches and proxy, for pre-commit's go install.
			for _, k := range []string{"GOPATH", "GOMODCACHE", "GOCACHE", "GOPROXY", "GOFLAGS", "GOTOOLCHAIN", "GONOSUMDB", "GOSUMDB"} {
				if v := os.Getenv(k); v != "" {
					env.Setenv(k, v)
				}
			}
			if os.Getenv("GOMODCACHE") == "" || os.Getenv("GOCACHE") == "" {
				for _, k := range []string{"GOMODCACHE", "GOCACHE", "GOPATH"} {
					if out, err := exec.Command("go", "env", k).Output(); err == nil {
						env.Setenv(k, strings.TrimSpace(string(out)))
					}
				}
			}
			if coverDir != "" {
				env.Setenv("GOCOVERDIR", coverDir)
			}
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// capture NAME REGEXP sets NAME to the first submatch of REGEXP
			// (or the whole match) in the last command's stdout.
			"capture": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: capture NAME REGEXP")
				}
				m := regexp.MustCompile(`(?m)` + args[1]).FindStringSubmatch(ts.ReadFile("stdout"))
				if m == nil {
					ts.Fatalf("capture: no match for %s in stdout", args[1])
				}
				ts.Setenv(args[0], m[len(m)-1])
			},
			// srcrepo DIR commits this module's files (as the work tree
			// has them) into a fresh repository at DIR, for the pre-commit
			// framework to clone, and sets SRC_REV to its commit.
			"srcrepo": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: srcrepo DIR")
				}
				ts.Setenv("SRC_REV", sourceRepo(ts, src, ts.MkAbs(args[0])))
			},
			// bigfile NAME BYTES writes NAME with BYTES bytes of log lines.
			"bigfile": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: bigfile NAME BYTES")
				}
				n, err := strconv.Atoi(args[1])
				if err != nil {
					ts.Fatalf("bigfile: %v", err)
				}
				var b strings.Builder
				for i := 0; b.Len() < n; i++ {
					fmt.Fprintf(&b, "=== RUN   TestLine%06d\n--- PASS: TestLine%06d (0.00s)\n", i, i)
				}
				ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()[:n]), 0o644))
			},
		},
	}
}

// sourceRepo copies the files git sees in src (tracked and untracked, not
// ignored) into a new repository at dir and commits them.
func sourceRepo(ts *testscript.TestScript, src, dir string) string {
	git := func(dir string, args ...string) string {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "HOME="+ts.Getenv("HOME"), "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.Output()
		if err != nil {
			ts.Fatalf("git %v in %s: %v", args, dir, err)
		}
		return strings.TrimSpace(string(out))
	}
	for _, f := range strings.Split(git(src, "ls-files", "-z", "--cached", "--others", "--exclude-standard"), "\x00") {
		if f == "" {
			continue
		}
		// A symlinked folder git lists as one untracked name (the
		// clones' .ci/node/node_modules) is no source: skip it.
		if st, err := os.Stat(filepath.Join(src, f)); err == nil && st.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, f))
		if os.IsNotExist(err) {
			continue // deleted in the work tree
		}
		ts.Check(err)
		p := filepath.Join(dir, f)
		ts.Check(os.MkdirAll(filepath.Dir(p), 0o755))
		ts.Check(os.WriteFile(p, b, 0o644))
	}
	git(dir, "init", "-q", "-b", "main")
	git(dir, "add", "-A")
	git(dir, "commit", "-q", "--no-verify", "-m", "sessiongate source for the pre-commit scripts")
	return git(dir, "rev-parse", "HEAD")
}

// removeWritable removes dir, making its folders writable first: a go
// module cache (pre-commit's go install) has read-only folders.
func removeWritable(t *testing.T, dir string) {
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
	if err := os.RemoveAll(dir); err != nil {
		t.Errorf("remove the scripts' work folders: %v", err)
	}
}
