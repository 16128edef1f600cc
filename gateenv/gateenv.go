// Package gateenv is the environment a gate's command (and `sessiongate
// run`) runs in: the caller's, without the variables that make an
// interpreter, runner or linker load other code or skip its work, and
// without PATH entries inside the work tree. It needs no session: it reads
// an environment, a PATH and a shell line.
package gateenv

import (
	"github.com/sessiongate/sessiongate/gitenv"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
	"mvdan.cc/sh/v3/syntax"
)

// Variables that make an interpreter, runner or linker load or run code
// other than the project's, or skip its work, set by whoever started
// sessiongate (the agent being policed): PYTHONSTARTUP=/tmp/x.py with
// `os._exit(0)` passes `python -m pytest`, NODE_OPTIONS="--require
// /tmp/x.js" any npm test, MAKEFLAGS=-n any make target, GOFLAGS=-run=^$
// every go test. A gate's command and `sessiongate run` never see them
// (issue 25.7).
var redirectEnv = map[string]bool{
	// Python
	"PYTHONPATH": true, "PYTHONSTARTUP": true, "PYTHONHOME": true, "PYTHONINSPECT": true, "PYTHONUSERBASE": true,
	"PYTHONBREAKPOINT": true, "PYTHONEXECUTABLE": true, "PYTEST_ADDOPTS": true, "PYTEST_PLUGINS": true,
	"PYTHONPYCACHEPREFIX": true, // a folder of planted bytecode (CleanFor sets its own)
	"PYTHONOPTIMIZE":      true, // -O: every assert compiled away (lazy pass 47's B6)
	// Node and npm
	"NODE_OPTIONS": true, "NODE_PATH": true, "NODE_REPL_EXTERNAL_MODULE": true,
	"NODE_TEST_CONTEXT": true, // node --test reads it as a child run's and skips every file (B8)
	// Go
	"GOFLAGS": true, "GOENV": true, "GOWORK": true, "GOROOT": true,
	// linters' config from outside the repository (round 21 c1): a
	// PYLINTRC with exit-zero, SHELLCHECK_OPTS excluding every code,
	// eslint 8/9 back on a legacy .eslintrc
	"PYLINTRC": true, "SHELLCHECK_OPTS": true, "ESLINT_USE_FLAT_CONFIG": true,
	// Ruby, Perl
	"RUBYOPT": true, "RUBYLIB": true, "BUNDLE_GEMFILE": true, "PERL5LIB": true, "PERL5OPT": true, "PERLLIB": true, "PERL5DB": true,
	// prove's switches for every test (-I a fake Test::More) and harness
	// class (round 44's re-check, P1)
	"HARNESS_PERL_SWITCHES": true, "HARNESS_SUBCLASS": true,
	// version managers' hook folders: a hook that swaps the interpreter a
	// shim runs (Y1)
	"PYENV_HOOK_PATH": true, "RBENV_HOOK_PATH": true, "NODENV_HOOK_PATH": true, "GOENV_HOOK_PATH": true,
	// JVM
	"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "JAVA_OPTS": true, "CLASSPATH": true,
	"MAVEN_OPTS": true, "MAVEN_ARGS": true, "GRADLE_OPTS": true,
	// Rust
	"RUSTC_WRAPPER": true, "RUSTC_WORKSPACE_WRAPPER": true, "RUSTC": true, "RUSTFLAGS": true, "CARGO_BUILD_RUSTC_WRAPPER": true,
	"RUSTDOC": true, "RUSTDOCFLAGS": true, "RUSTUP_TOOLCHAIN": true, // the rest of CARGO_*: cargoRedirects
	// the dynamic linker
	"LD_PRELOAD": true, "LD_LIBRARY_PATH": true, "LD_AUDIT": true,
	// shells and make
	"BASH_ENV": true, "ENV": true, "ZDOTDIR": true, "SHELLOPTS": true, "BASHOPTS": true, "PS4": true, "CDPATH": true,
	"MAKEFLAGS": true, "MFLAGS": true, "GNUMAKEFLAGS": true, "MAKEFILES": true,
	// git: another repository, index, object store or config than the worktree's
	"GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true, "GIT_OBJECT_DIRECTORY": true,
	"GIT_ALTERNATE_OBJECT_DIRECTORIES": true, "GIT_COMMON_DIR": true, "GIT_NAMESPACE": true, "GIT_CEILING_DIRECTORIES": true,
	"GIT_CONFIG_PARAMETERS": true, "GIT_CONFIG_COUNT": true, "GIT_EXEC_PATH": true, "GIT_EXTERNAL_DIFF": true,
	"GIT_REPLACE_REF_BASE": true, "GIT_GRAFT_FILE": true, "GIT_NO_REPLACE_OBJECTS": true,
}

// redirectPrefixes are families of such variables.
var redirectPrefixes = []string{"DYLD_", "BASH_FUNC_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_", "NPM_CONFIG_", "YARN_"}

// Clean returns environ without the variables that redirect
// interpreters and runners, and the names it dropped (sorted). PATH stays,
// without its relative entries, those inside root and those in a
// temporary folder: a folder of the work tree (or /tmp/fake) the agent put
// first would answer for `go`, `pytest` or `npm`. Per-user runner
// configuration is turned off (userConfig). keepIndex keeps
// GIT_INDEX_FILE: inside a git hook git sets it to the index being
// committed, which a commit-time check must read.
func Clean(environ []string, root string, keepIndex bool) (env, dropped []string) {
	return CleanFor(environ, Options{Root: root, KeepIndex: keepIndex})
}

// Options says what CleanFor keeps.
type Options struct {
	Root      string // the work tree: no PATH entry inside it
	KeepIndex bool   // keep GIT_INDEX_FILE (inside a git hook)
	// StartPath is the PATH the session started with (StartPathBound
	// set): a PATH entry not on it was added since, by the agent
	// (`PATH=$HOME/fake:$PATH sessiongate session end`), and is dropped.
	StartPath      string
	StartPathBound bool
	// Since is when the session started: an entry not on StartPath is
	// dropped only when its folder changed after it (zero: always).
	Since time.Time
	// StartVars are the pinned variables (PinnedVars) as the session
	// started with them; nil: not pinned (a session from before).
	StartVars map[string]string
}

// PycachePrefix is where a gate's Python looks for and writes bytecode: a
// folder no one can create (under /dev/null, which is no folder), so every
// module is compiled from its source. Python trusts a __pycache__ .pyc
// whose recorded source mtime and size match the .py: the agent compiled
// the start's greet.py, wrote a broken one of the same size, set its mtime
// back (`touch -r`), and the QA gate ran the old code: COMPLETE, clean,
// verify passing (the adversarial pass's stale-bytecode route). A write
// there fails, which Python and pytest's assertion rewriter ignore.
var PycachePrefix = filepath.Join(os.DevNull, "sessiongate-pycache")

// uncachedGoTests adds -count=1 to GOFLAGS (unless a -count is there):
// go test reuses a cached result when the files a test opened keep their
// mtime and size, so a data file the change broke (greeting.txt, "hello"
// made "hullo"), its mtime set back with `touch -r`, printed "ok
// (cached)" at the gate (adversarial pass). A gate's go test runs its
// tests; builds stay cached. A command line's own -count wins over GOFLAGS.
func uncachedGoTests(env []string) []string {
	for i, kv := range env {
		v, ok := strings.CutPrefix(kv, "GOFLAGS=")
		if !ok {
			continue
		}
		for _, f := range strings.Fields(v) {
			if n, _, _ := strings.Cut(strings.Replace(f, "--", "-", 1), "="); n == "-count" {
				return env
			}
		}
		env[i] = strings.TrimSpace("GOFLAGS=" + v + " -count=1")
		return env
	}
	return append(env, "GOFLAGS=-count=1")
}

// CleanFor is Clean with the session's bounds.
func CleanFor(environ []string, o Options) (env, dropped []string) {
	callerGOENV := ""
	temps := tempDirs(environ)
	if o.StartVars != nil {
		environ, dropped = pinned(environ, o.StartVars)
	}
	for _, kv := range environ {
		name, val, _ := strings.Cut(kv, "=")
		switch {
		case o.KeepIndex && name == "GIT_INDEX_FILE":
		case redirects(name):
			if name == "GOENV" {
				callerGOENV = val
			}
			dropped = append(dropped, name)
			continue
		case (name == "CARGO_HOME" || name == "RUSTUP_HOME") && homeInTemp(val, o, temps):
			dropped = append(dropped, name+" in a temporary folder or the work tree")
			continue
		case name == "PATH":
			p, why := neutralPath(val, o, temps)
			kv = "PATH=" + p
			dropped = append(dropped, why...)
		}
		env = append(env, kv)
	}
	set, unread := userConfig(env, callerGOENV)
	env = append(env, set...)
	env = append(env, "PYTHONPYCACHEPREFIX="+PycachePrefix)
	for _, kv := range env {
		if h, ok := strings.CutPrefix(kv, "HOME="); ok {
			if f := userSiteChanged(h, o.Since); f != "" {
				env = append(env, "PYTHONNOUSERSITE=1")
				dropped = append(dropped, "Python's user site ("+f+" changed after the session started)")
			}
		}
	}
	if addopts, why := pytestScope(o.Root); addopts != "" {
		env = append(env, "PYTEST_ADDOPTS="+addopts)
		dropped = append(dropped, why)
	}
	env = uncachedGoTests(env)
	// git in a gate's command, or an observed run, reads history as the
	// gate does: without replace refs and grafts (lazy pass 43, E3: `git
	// replace HEAD <fake>` gave the recent-commits review a forged subject
	// beside HEAD's real id, the replace ref deleted after).
	env = append(env, gitenv.Fixed...)
	dropped = append(dropped, unread...)
	slices.Sort(dropped)
	return env, slices.Compact(dropped)
}

// redirects reports a variable of redirectEnv or of a redirectPrefixes
// family, whatever its case (npm reads npm_config_*).
func redirects(name string) bool {
	up := strings.ToUpper(name)
	return redirectEnv[up] || cargoRedirects(up) || slices.ContainsFunc(redirectPrefixes, func(p string) bool { return strings.HasPrefix(up, p) })
}

func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && filepath.IsLocal(rel)
}

// LookPath finds a program on the PATH of env (as Clean left it), not
// on sessiongate's own: the caller's PATH may put a folder of the work tree
// first.
func LookPath(env []string, name string) (string, error) {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, d := range filepath.SplitList(path) {
		p := filepath.Join(d, name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// harmlessGoflags: a GOFLAGS value of flags that change no test's
// outcome or what is built (`-count=1`, the gate's own, `-v`,
// `-timeout=5m`, `-p=2`), so `GOFLAGS=-count=1 go test ./...` counts as
// an observed run (round 18 review: it was a false block). `-run`,
// `-short`, `-list`, `-tags`, `-race` (it sets the race build tag: a
// `//go:build !race` test is not built), `-overlay`, `-exec`, `-mod` and
// anything else keep GOFLAGS a redirect.
func harmlessGoflags(v string) bool {
	fields := strings.Fields(v)
	if len(fields) == 0 {
		return false
	}
	for _, f := range fields {
		if !harmlessGoflagRE.MatchString(f) {
			return false
		}
	}
	return true
}

var harmlessGoflagRE = lazyregexp.New(`^--?(?:count=[1-9][0-9]{0,3}|v|v=true|timeout=[0-9]+[smh]?(?:[0-9]+[smh])*|p=[1-9][0-9]{0,2}|x)$`)

// RedirectsSet lists the redirecting variables (redirectEnv) a shell
// line sets for what it runs: `PYTHONSTARTUP=x pytest`, `env NODE_OPTIONS=...
// npm test`, `export GOFLAGS=...; go test`. A run that set one is not the
// run a gate would make, so it proves nothing as observed evidence.
func RedirectsSet(line string) []string {
	_, f, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return nil
	}
	var out []string
	note := func(name, value string, literal bool) {
		if name == "GOFLAGS" && literal && harmlessGoflags(value) {
			return // GOFLAGS=-count=1 go test: the gate's own value
		}
		// PATH too: `PATH=/tmp/fake:$PATH go test` runs the go the agent put there.
		if redirects(name) || name == "PATH" || pinnedSet(name) {
			out = append(out, name)
		}
	}
	noteAssign := func(a *syntax.Assign) {
		v, lit := "", true
		if a.Value != nil {
			v, lit = shellline.Literal(a.Value)
		}
		note(a.Name.Value, v, lit)
	}
	// `PATH=/tmp/fake:$PATH sh -c 'go test ./...'`: the wrapper's own
	// assignments reach its script's commands.
	for _, a := range shellline.WrapperAssigns(line) {
		noteAssign(a)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.CallExpr:
			for _, a := range x.Assigns {
				if a.Name != nil {
					noteAssign(a)
				}
			}
			var words []string
			for _, w := range x.Args {
				s, _ := shellline.Literal(w)
				words = append(words, s)
			}
			// env NAME=VALUE ..., also behind other wrappers (timeout 60 env ...).
			if len(words) > 0 {
				if shellline.IsWrapper(shellline.CommandName(words[0])) {
					for i, w := range words {
						if shellline.CommandName(w) != "env" {
							continue
						}
						for _, a := range words[i+1:] {
							if name, v, ok := strings.Cut(a, "="); ok && !strings.HasPrefix(a, "-") {
								note(name, v, true)
							}
						}
						break
					}
				}
			}
		case *syntax.DeclClause: // export NAME=VALUE
			for _, a := range x.Args {
				if a.Name != nil {
					noteAssign(a)
				}
			}
		}
		return true
	})
	slices.Sort(out)
	return slices.Compact(out)
}
