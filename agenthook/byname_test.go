package agenthook_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentHookByName: the committed configs call `sessiongate` by name.
// Such a call defers to Claude Code's machine-local config when that holds
// install's hook by absolute path (answers `{}`, records nothing: the
// local one answers the same event); without a usable local config, a
// real sessiongate that is not the one the git hooks exec runs that one
// instead, and says so when it is gone.
func TestAgentHookByName(t *testing.T) {
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		agent string // --agent of install; "" installs the git hooks only
		// setup changes the install (the sg= line, the local config)
		// and returns the `sessiongate` on PATH.
		setup func(t *testing.T, r *repo, bin string) (onPath string)
		// deferred: the by-name call answered {} and started no session.
		deferred bool
		ranLog   bool   // the sg= wrapper logged a run
		stderr   string // in the by-name call's stderr
	}{
		{
			name: "claude with its local config: the by-name call defers", agent: "claude",
			setup: func(t *testing.T, r *repo, bin string) string { return bin }, deferred: true,
		},
		{
			name: "claude, local config's binary gone: the by-name call judges", agent: "claude",
			setup: func(t *testing.T, r *repo, bin string) string {
				p := filepath.Join(r.root, ".claude", "settings.local.json")
				lb, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, p, strings.ReplaceAll(string(lb), binary, binary+"-gone"))
				return bin
			},
		},
		{
			// Lazy agent: settings.local.json is git-ignored, so pointing
			// its hooks at a program that answers {} left the by-name
			// call deferring to it and neither hook judged.
			name: "claude local config points at a shim: the by-name call judges", agent: "claude",
			setup: func(t *testing.T, r *repo, bin string) string {
				shim := filepath.Join(filepath.Dir(r.root), "shim", "sessiongate")
				writeFile(t, shim, "#!/bin/sh\ncat >/dev/null\necho '{}'\n")
				if err := os.Chmod(shim, 0o755); err != nil {
					t.Fatal(err)
				}
				p := filepath.Join(r.root, ".claude", "settings.local.json")
				lb, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				writeFile(t, p, strings.ReplaceAll(string(lb), binary, shim))
				return bin
			},
		},
		{
			name: "another sessiongate on PATH execs the installed one",
			setup: func(t *testing.T, r *repo, bin string) string {
				other := filepath.Join(filepath.Dir(r.root), "other", "sessiongate")
				// A different build: the same program, other bytes.
				if err := os.MkdirAll(filepath.Dir(other), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(other, append(append([]byte{}, b...), "other build"...), 0o755); err != nil {
					t.Fatal(err)
				}
				setSG(t, r, wrapper(t, r))
				return other
			},
			ranLog: true,
		},
		{
			// argv[0] is the bare name and the binary is the installed one.
			name:  "honest: the installed one on PATH runs itself",
			setup: func(t *testing.T, r *repo, bin string) string { return bin },
		},
		{
			name: "installed binary gone: says so and judges itself",
			setup: func(t *testing.T, r *repo, bin string) string {
				setSG(t, r, filepath.Join(filepath.Dir(r.root), "gone", "sessiongate"))
				return bin
			},
			stderr: "is missing",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, "")
			args := []string{"install"}
			if c.agent != "" {
				args = append(args, "--agent", c.agent)
			}
			r.sg(args...)
			onPath := c.setup(t, r, binary)
			pathDir := filepath.Join(filepath.Dir(r.root), "pathbin")
			if err := os.MkdirAll(pathDir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(onPath, filepath.Join(pathDir, "sessiongate")); err != nil {
				t.Fatal(err)
			}
			in, err := json.Marshal(golden(t, r, "claude", "SessionStart", "byname"))
			if err != nil {
				t.Fatal(err)
			}
			res := r.run(r.root, in, []string{"PATH=" + pathDir + string(os.PathListSeparator) + os.Getenv("PATH")},
				"sh", "-c", "sessiongate agent-hook claude SessionStart")
			if res.code != 0 {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", res.code, res.out, res.err)
			}
			out := decodeOne(t, res)
			list := r.sg("session", "list", "--json")
			started := strings.Contains(list, `"id"`)
			if c.deferred && (len(out) != 0 || started) {
				t.Errorf("the by-name call judged the event the local config answers: %v, session started %v", out, started)
			}
			if !c.deferred && !started {
				t.Errorf("no session started: %v\nstderr: %s", out, res.err)
			}
			logb, _ := os.ReadFile(filepath.Join(filepath.Dir(r.root), "wrapper.log"))
			if n := strings.Count(string(logb), "agent-hook claude SessionStart"); c.ranLog && n != 1 || !c.ranLog && n != 0 {
				t.Errorf("the installed binary's wrapper ran %d times, want %v:\n%s", n, c.ranLog, logb)
			}
			if c.stderr != "" && !strings.Contains(res.err, c.stderr) {
				t.Errorf("stderr %q does not say %q", res.err, c.stderr)
			}
		})
	}
}

// wrapper is a script that logs its run and execs the test binary by
// path: a stand-in for the binary install recorded, whose runs show.
func wrapper(t *testing.T, r *repo) string {
	t.Helper()
	dir := filepath.Dir(r.root)
	w := filepath.Join(dir, "installed", "sessiongate")
	writeFile(t, w, "#!/bin/sh\necho \"$*\" >> "+filepath.Join(dir, "wrapper.log")+"\nexec "+binary+" \"$@\"\n")
	if err := os.Chmod(w, 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

// setSG points pre-commit's sg= line at bin.
func setSG(t *testing.T, r *repo, bin string) {
	t.Helper()
	p := filepath.Join(r.root, ".git", "hooks", "pre-commit")
	pc, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(pc), "\n") {
		if strings.HasPrefix(l, "sg=") {
			l = "sg='" + bin + "'"
		}
		lines = append(lines, l)
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o755); err != nil {
		t.Fatal(err)
	}
}
