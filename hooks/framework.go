package hooks

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/session"
)

// InstallCommand is how a user gets the CLI onto PATH.
const InstallCommand = "go install github.com/sessiongate/sessiongate/cmd/sessiongate@latest"

// underFramework reports whether the pre-commit framework runs this hook
// (it sets PRE_COMMIT=1 for every hook it runs).
func (rt *Runtime) underFramework() bool { return rt.getenv("PRE_COMMIT") != "" }

// noCommitInProgress reports a pre-commit hook the framework runs outside a
// commit (`pre-commit run --all-files`, the usual CI step): git sets
// GIT_INDEX_FILE for every commit hook it runs, the framework alone does not.
func (rt *Runtime) noCommitInProgress(hook string) bool {
	return hook == session.HookPreCommit && rt.underFramework() && rt.getenv("GIT_INDEX_FILE") == ""
}

// passNoCommit is pre-commit outside a commit: nothing is being committed,
// so there is nothing to block; say so, and where the session's gates are
// checked instead.
func (rt *Runtime) passNoCommit() int {
	fmt.Fprintln(rt.Stderr, "sessiongate: no commit in progress (pre-commit run outside git commit): nothing to check here.")
	fmt.Fprintln(rt.Stderr, "  commits are checked when git runs the hook; a session's gates: sessiongate session status, sessiongate session gate")
	return ExitAllow
}

// cliHint is the line a block message adds under the framework when
// `sessiongate` is not on PATH: the framework keeps its copy of the binary
// inside its own environment, so the commands the message names would not
// be found.
func (rt *Runtime) cliHint() string {
	if !rt.underFramework() || cliOnPath(rt.getenv("PATH")) {
		return ""
	}
	return "`sessiongate` is not on PATH (the pre-commit framework keeps its copy in its own environment): " + InstallCommand + " (or @ the rev of .pre-commit-config.yaml), with $(go env GOPATH)/bin on PATH"
}

// cliOnPath looks for sessiongate on PATH, leaving out the folder of this
// binary (the framework's environment puts it first).
func cliOnPath(path string) bool {
	self := ""
	if p, err := os.Executable(); err == nil {
		self = filepath.Dir(p)
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" || dir == self || strings.Contains(dir, string(filepath.Separator)+"pre-commit"+string(filepath.Separator)) {
			continue
		}
		if p, err := exec.LookPath(filepath.Join(dir, "sessiongate")); err == nil && p != "" {
			return true
		}
	}
	return false
}
