package agenthook

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/sessiongate/sessiongate/gitrepo"
	"github.com/sessiongate/sessiongate/hooks"
	"github.com/sessiongate/sessiongate/selfbinary"
)

// The committed agent hook configs call `sessiongate` by name: a committed
// file carries no machine-local path. A `sessiongate` the agent puts on
// PATH (`npm i -g ./shim`, ~/.local/bin) answers those calls, and no check
// inside this binary can see that, since the shim runs instead. So install
// also writes the agent's machine-local config where the agent has one
// (Claude Code: .claude/settings.local.json, git-ignored) calling the
// binary by absolute path; Claude Code runs the hooks of both files and a
// deny from either one denies.
//
// Both files answer every event, so the by-name call defers: when the
// machine-local config holds, for this event, exactly the hook install
// writes and its binary is there, the by-name call answers nothing and
// records nothing. Deferring was chosen over deduplicating events in the
// runner: Claude Code runs the matching hooks of one event in parallel,
// SessionStart, UserPromptSubmit and Stop carry no event id to dedupe on,
// and a dedupe would need a lock or table shared by two processes on
// every call; the deferral is one small file read. A shim in the by-name
// slot still runs: its allow does not outvote the deny of the hook the
// local config runs, and its updatedInput (a rewritten tool call) is
// caught afterwards by the PostToolUse comparison (inputrewritten.go).
// Copilot reads every .github/hooks/*.json, so its git-ignored
// sessiongate.local.json is its machine-local config.
//
// Where an agent has no machine-local config (Codex, Cursor, Gemini CLI:
// theirs are user-wide, every project's), a by-name call that
// is a real sessiongate but not the one the git hooks exec (`install`
// recorded its absolute path in pre-commit's sg= line) execs that one, so
// the agent hooks and the git hooks judge with the same binary. A shim
// cannot be caught here; the git hooks and verify's reconciliation are
// what catch it (docs/agents.md).

// execRecorded replaces the process (syscall.Exec); a variable so tests
// can see the call without losing the test process.
var execRecorded = syscall.Exec

// ByName reports whether argv0 is a bare command name (found on PATH), not
// a path: how the committed configs call sessiongate.
func ByName(argv0 string) bool {
	return argv0 != "" && !strings.ContainsAny(argv0, `/\`)
}

// byName runs before stdin is read, for a process started by name: it
// defers to the machine-local config (true: answered, exit) or execs the
// binary install recorded (returns only when it did not).
func (r *Runner) byName(ctx context.Context, codec Codec, agent, event string) bool {
	dir := r.Dir
	if p := r.getenv(projectEnv[agent]); p != "" && filepath.IsAbs(p) {
		dir = p
	}
	repo, err := gitrepo.Find(ctx, dir, r.getenv)
	if err != nil {
		return false // the handler says what is wrong
	}
	if bin := r.localHook(ctx, repo, dir, agent, event); bin != "" {
		// Read the payload the agent writes (a closed pipe is an error in
		// some CLIs), answer nothing, record nothing.
		_, _ = io.Copy(io.Discard, io.LimitReader(r.Stdin, MaxInput+1))
		r.answer(codec, unreadEvent(agent, event), &Answer{})
		return true
	}
	bin := installedBinary(ctx, repo, r.getenv)
	if bin == "" || selfbinary.Is(repo.Root(), bin) {
		return false
	}
	if fi, err := os.Stat(bin); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: the sessiongate the git hooks run (%s) is missing; this is %s from PATH, not that one: run `sessiongate install` again\n", agent, event, bin, selfPath())
		return false
	}
	argv := append([]string{bin}, r.Argv[1:]...)
	err = execRecorded(bin, argv, os.Environ())
	fmt.Fprintf(r.Stderr, "sessiongate: agent-hook %s %s: run %s, the sessiongate the git hooks run, instead of %s from PATH: %v\n", agent, event, bin, selfPath(), err)
	return false
}

// localHook returns the binary of the machine-local config's hook for
// event when that config holds exactly what install writes for it and
// the binary is an executable file that is this sessiongate or the one
// the git hooks exec; "" otherwise.
func (r *Runner) localHook(ctx context.Context, repo *gitrepo.Repo, dir, agent, event string) string {
	root := repo.Root()
	if agent == "claude" && dir != root {
		// Claude Code reads .claude/ of the folder it was started in.
		root = dir
	}
	bin := hooks.LocalHookBinary(root, agent, event)
	if bin == "" {
		return ""
	}
	if fi, err := os.Stat(bin); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return ""
	}
	// The local config is git-ignored and plain JSON the agent can
	// rewrite: pointed at a script that answers {}, a deferral to it left
	// no hook judging. Defer only to a binary that is this one or the
	// one install recorded for the git hooks (doctor checks those).
	if !selfbinary.Is(root, bin) && bin != installedBinary(ctx, repo, r.getenv) {
		return ""
	}
	return bin
}

func selfPath() string {
	p, err := os.Executable()
	if err != nil {
		return "this binary"
	}
	return p
}
