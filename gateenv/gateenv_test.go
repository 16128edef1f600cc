package gateenv_test

import (
	"errors"
	"github.com/sessiongate/sessiongate/gitenv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/sessiongate/sessiongate/gateenv"
)

// TestClean: what a gate's command never sees, and what it keeps. The
// engine's tests (session/cleanenv_test.go) run real commands under it.
func TestClean(t *testing.T) {
	root := t.TempDir()
	inTree := filepath.Join(root, "bin")
	if err := os.Mkdir(inTree, 0o755); err != nil {
		t.Fatal(err)
	}
	// A folder outside the tree that is a link into it answers as the tree does.
	link := filepath.Join(t.TempDir(), "tools")
	if err := os.Symlink(inTree, link); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name      string
		environ   []string
		keepIndex bool
		want      []string // the environment left
		dropped   []string
	}{
		{"nothing to drop", []string{"HOME=/home/u", "CI=1", "TZ=UTC"}, false, []string{"HOME=/home/u", "CI=1", "TZ=UTC"}, nil},
		{"interpreters and runners", []string{"PYTHONSTARTUP=/tmp/x.py", "HOME=/h", "NODE_OPTIONS=--require x", "GOFLAGS=-run=^$", "MAKEFLAGS=-n"}, false,
			[]string{"HOME=/h"}, []string{"GOFLAGS", "MAKEFLAGS", "NODE_OPTIONS", "PYTHONSTARTUP"}},
		// Lazy pass 47: asserts compiled away, node --test skipping every file.
		{"runners told to do less", []string{"PYTHONOPTIMIZE=1", "NODE_TEST_CONTEXT=child", "HOME=/h"}, false,
			[]string{"HOME=/h"}, []string{"NODE_TEST_CONTEXT", "PYTHONOPTIMIZE"}},
		{"prove's switches and a version manager's hooks (round 44's re-check)", []string{"HARNESS_PERL_SWITCHES=-I/tmp/lib", "PYENV_HOOK_PATH=/tmp/h", "HOME=/h"}, false,
			[]string{"HOME=/h"}, []string{"HARNESS_PERL_SWITCHES", "PYENV_HOOK_PATH"}},
		{"families, any case", []string{"npm_config_script_shell=/bin/true", "DYLD_INSERT_LIBRARIES=x", "BASH_FUNC_go%%=() { true; }", "GIT_CONFIG_KEY_0=core.hooksPath"}, false,
			nil, []string{"BASH_FUNC_go%%", "DYLD_INSERT_LIBRARIES", "GIT_CONFIG_KEY_0", "npm_config_script_shell"}},
		// A clean filter of the agent's for the gate command's own git (issue 25.7).
		{"git config from the environment", []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=filter.x.clean", "GIT_CONFIG_VALUE_0=sed s/+/-/",
			"GIT_CONFIG_PARAMETERS='filter.x.clean'='cat'", "HOME=/h"}, false,
			[]string{"HOME=/h"}, []string{"GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_VALUE_0"}},
		{"the index outside a hook", []string{"GIT_INDEX_FILE=/tmp/other"}, false, nil, []string{"GIT_INDEX_FILE"}},
		{"the index a hook commits", []string{"GIT_INDEX_FILE=.git/index.lock"}, true, []string{"GIT_INDEX_FILE=.git/index.lock"}, nil},
		{"PATH inside the tree", []string{"PATH=" + inTree + ":/usr/bin"}, false, []string{"PATH=/usr/bin"}, []string{"PATH entries inside the work tree"}},
		{"PATH relative or empty", []string{"PATH=bin::/usr/bin"}, false, []string{"PATH=/usr/bin"}, []string{"PATH entries inside the work tree"}},
		{"PATH through a link into the tree", []string{"PATH=" + link + ":/bin"}, false, []string{"PATH=/bin"}, []string{"PATH entries inside the work tree"}},
		{"PATH in a temporary folder", []string{"PATH=/tmp/fake:/var/tmp/x/bin:/usr/bin"}, false, []string{"PATH=/usr/bin"}, []string{"PATH entries in a temporary folder"}},
		{"PATH outside the tree", []string{"PATH=/usr/local/bin:/usr/bin"}, false, []string{"PATH=/usr/local/bin:/usr/bin"}, nil},
		{"a name like one, but not it", []string{"PYTHONPATHS=x", "MY_GOFLAGS=y"}, false, []string{"PYTHONPATHS=x", "MY_GOFLAGS=y"}, nil},
		// Round 26 c11: cargo's variables win over its config files.
		{"cargo's runner, profile, alias", []string{"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=true", "CARGO_PROFILE_TEST_DEBUG_ASSERTIONS=false", "CARGO_ALIAS_T=check", "CARGO_ENCODED_RUSTFLAGS=x", "RUSTDOCFLAGS=--test-args=--skip", "RUSTUP_TOOLCHAIN=fake"}, false,
			nil, []string{"CARGO_ALIAS_T", "CARGO_ENCODED_RUSTFLAGS", "CARGO_PROFILE_TEST_DEBUG_ASSERTIONS", "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER", "RUSTDOCFLAGS", "RUSTUP_TOOLCHAIN"}},
		{"cargo's home in /tmp or the tree", []string{"CARGO_HOME=/tmp/ch", "RUSTUP_HOME=" + inTree}, false,
			nil, []string{"CARGO_HOME in a temporary folder or the work tree", "RUSTUP_HOME in a temporary folder or the work tree"}},
		{"cargo's honest settings", []string{"CARGO_HOME=/home/u/.cargo", "CARGO_NET_OFFLINE=true", "CARGO_TERM_COLOR=never", "CARGO_TARGET_DIR=/home/u/target", "CARGO_BUILD_JOBS=2", "CARGO_INCREMENTAL=0"}, false,
			[]string{"CARGO_HOME=/home/u/.cargo", "CARGO_NET_OFFLINE=true", "CARGO_TERM_COLOR=never", "CARGO_TARGET_DIR=/home/u/target", "CARGO_BUILD_JOBS=2", "CARGO_INCREMENTAL=0"}, nil},
		{"GOENV is dropped, and off", []string{"GOENV=/tmp/agent-env"}, false, nil, []string{"GOENV"}},
		{"the caller's bytecode folder is dropped, and ours set", []string{"PYTHONPYCACHEPREFIX=/home/u/planted"}, false, nil, []string{"PYTHONPYCACHEPREFIX"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, dropped := gateenv.Clean(c.environ, root, c.keepIndex)
			want := append(slices.Clone(c.want), offUserConfig...)
			if !slices.Equal(env, want) || !slices.Equal(dropped, c.dropped) {
				t.Errorf("Clean(%q) = %q dropping %q, want %q dropping %q", c.environ, env, dropped, c.want, c.dropped)
			}
		})
	}
}

// offUserConfig is what Clean adds: per-user runner configuration off.
var offUserConfig = []string{"GOENV=off", "npm_config_userconfig=" + filepath.Join(os.DevNull, "npmrc"), "npm_config_globalconfig=" + filepath.Join(os.DevNull, "global-npmrc"),
	"PYTHONPYCACHEPREFIX=" + gateenv.PycachePrefix, "GOFLAGS=-count=1", "GIT_NO_REPLACE_OBJECTS=1", "GIT_GRAFT_FILE=" + gitenv.NoGrafts}

// TestLookPath: the program is looked up on the cleaned PATH, never
// sessiongate's own, and only an executable file answers.
func TestLookPath(t *testing.T) {
	dir := t.TempDir()
	for name, mode := range map[string]os.FileMode{"tool": 0o755, "notexec": 0o644} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir) // sessiongate's own PATH has it; the env given does not
	cases := []struct {
		name string
		env  []string
		prog string
		want string // "" for not found
	}{
		{"on the env's PATH", []string{"PATH=/nonexistent:" + dir}, "tool", filepath.Join(dir, "tool")},
		{"not executable", []string{"PATH=" + dir}, "notexec", ""},
		{"a folder", []string{"PATH=" + dir}, "adir", ""},
		{"only on the process's PATH", []string{"PATH=/nonexistent"}, "tool", ""},
		{"no PATH at all", []string{"HOME=/h"}, "tool", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := gateenv.LookPath(c.env, c.prog)
			if got != c.want || (c.want == "") != errors.Is(err, exec.ErrNotFound) {
				t.Errorf("LookPath(%q, %q) = %q, %v; want %q", c.env, c.prog, got, err, c.want)
			}
		})
	}
}

// TestRedirectsSet: the redirecting variables a shell line sets for what
// it runs, wherever the line sets them; other variables do not count.
func TestRedirectsSet(t *testing.T) {
	cases := []struct {
		line string
		want string // comma-separated, "" for none
	}{
		{"./test.sh", ""},
		{"CI=1 TZ=UTC go test ./...", ""},
		// pass 27: where runners read per-user config, which a gate pins
		{"CARGO_HOME=/tmp/x cargo test", "CARGO_HOME"},
		{"HOME=/tmp/fh cargo test", "HOME"},
		{"env XDG_CONFIG_HOME=/tmp/c go test ./...", "XDG_CONFIG_HOME"},
		{"CARGO_TERM_COLOR=always CARGO_TARGET_DIR=/tmp/t cargo test", ""},
		{"env TZ=UTC ./test.sh", ""},
		{"PYTHONSTARTUP=/tmp/exit0.py pytest", "PYTHONSTARTUP"},
		// pass 28 (c6): a plugin of the agent's loaded by name
		{"PYTEST_PLUGINS=plug python3 -m pytest", "PYTEST_PLUGINS"},
		{"export PYTEST_PLUGINS=plug; pytest", "PYTEST_PLUGINS"},
		{"env NODE_OPTIONS='--require /tmp/x.js' npm test", "NODE_OPTIONS"},
		{"export GOFLAGS=-run=^$; go test ./...", "GOFLAGS"},
		{"timeout 60 env LD_PRELOAD=/tmp/x.so ./test.sh", "LD_PRELOAD"},
		{"sh -c 'MAKEFLAGS=-n make test'", "MAKEFLAGS"},
		{"npm_config_script_shell=/bin/true GOFLAGS=-n npm test", "GOFLAGS,npm_config_script_shell"},
		{"PATH=/tmp/fake:$PATH go test ./...", "PATH"},
		{"export PATH=$HOME/fake:$PATH; go test ./...", "PATH"},
		// the wrapper's own assignments reach its script (round 18 review)
		{"PATH=/tmp/fake:$PATH sh -c 'go test ./...'", "PATH"},
		{`PYTHONSTARTUP=/tmp/exit0.py bash -c "pytest"`, "PYTHONSTARTUP"},
		{`CI=1 sh -c "GOFLAGS=-run=^$ bash -c 'go test ./...'"`, "GOFLAGS"},
		{"TZ=UTC sh -c 'go test ./...'", ""},
		// GOFLAGS of flags that change no outcome is the gate's own kind
		{"GOFLAGS=-count=1 go test ./...", ""},
		{`export GOFLAGS="-count=1 -v"; go test ./...`, ""},
		{"env GOFLAGS=-v go test ./...", ""},
		{"env GOFLAGS=-race go test ./...", "GOFLAGS"}, // the race build tag: a //go:build !race test is left out
		{"GOFLAGS=-count=1 sh -c 'go test ./...'", ""},
		{`GOFLAGS="-count=1 -run=^$" go test ./...`, "GOFLAGS"},
		{"GOFLAGS=-short go test ./...", "GOFLAGS"},
		{"GOFLAGS=-count=0 go test ./...", "GOFLAGS"},
		{"GOFLAGS=-tags=fake go test ./...", "GOFLAGS"},
		{"GOFLAGS=$X go test ./...", "GOFLAGS"},
		{"GOFLAGS= go test ./...", "GOFLAGS"},
		// a linter's config from outside the repository (round 21 c1)
		{"PYLINTRC=/tmp/quiet.rc pylint src", "PYLINTRC"},
		{"export SHELLCHECK_OPTS='-e SC2086'; shellcheck a.sh", "SHELLCHECK_OPTS"},
		{"ESLINT_USE_FLAT_CONFIG=false npx eslint src", "ESLINT_USE_FLAT_CONFIG"},
		{"TZ=UTC pylint src", ""},
		{"echo PYTHONSTARTUP=x", ""}, // an argument, not an assignment
		{"if then (", ""},            // not shell: nothing read
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			if got := strings.Join(gateenv.RedirectsSet(c.line), ","); got != c.want {
				t.Errorf("RedirectsSet(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}

// TestCleanTempLink: a TMPDIR that is a link drops PATH entries under the
// folder it points to, as well as under the link, while an entry beside
// them is kept (the temporary folders are resolved once per call, not per
// entry). Outside /tmp, which is dropped whole: under the user cache.
func TestCleanTempLink(t *testing.T) {
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skip("no user cache folder:", err)
	}
	base, err := os.MkdirTemp(cache, "gateenv-templink-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	real, link, other := filepath.Join(base, "real"), filepath.Join(base, "tmp"), filepath.Join(base, "tools", "bin")
	for _, d := range []string{filepath.Join(real, "fake"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	cases := []struct {
		name, path, want string
		dropped          []string
	}{
		{"under the link's target", filepath.Join(real, "fake") + ":" + other, other, []string{"PATH entries in a temporary folder"}},
		{"under the link", filepath.Join(link, "fake") + ":" + other, other, []string{"PATH entries in a temporary folder"}},
		{"honest entries kept", other + ":/usr/bin", other + ":/usr/bin", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env, dropped := gateenv.Clean([]string{"TMPDIR=" + link, "PATH=" + c.path}, root, false)
			want := append([]string{"TMPDIR=" + link, "PATH=" + c.want}, offUserConfig...)
			if !slices.Equal(env, want) || !slices.Equal(dropped, c.dropped) {
				t.Errorf("Clean = %q dropping %q, want %q dropping %q", env, dropped, want, c.dropped)
			}
		})
	}
}
