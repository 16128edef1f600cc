package hooks

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/ancestry"
)

// git runs git in dir with gitenv's environment (inside a hook that keeps
// GIT_INDEX_FILE; replace refs and grafts off) and returns stdout without
// the trailing newline.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := gitenv.Command(ctx, dir, nil, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Errorf("git %s: %s", strings.Join(args, " "), msg)
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// hooksLocation is where git looks for hooks in a repository.
type hooksLocation struct {
	Dir       string // absolute hooks folder
	HooksPath string // core.hooksPath as configured, "" when unset
	Root      string // worktree top level
}

// locateHooks asks git where hooks live: `git rev-parse --git-path hooks`
// follows linked worktrees (hooks are shared through the common dir) and
// core.hooksPath, relative or absolute.
func locateHooks(ctx context.Context, dir string) (hooksLocation, error) {
	out, err := git(ctx, dir, "rev-parse", "--path-format=absolute", "--show-toplevel", "--git-path", "hooks")
	if err != nil {
		return hooksLocation{}, fmt.Errorf("find the hooks folder (run inside a git work tree): %w", err)
	}
	lines := strings.Split(out, "\n")
	if len(lines) != 2 {
		return hooksLocation{}, fmt.Errorf("find the hooks folder: unexpected rev-parse output %q", out)
	}
	loc := hooksLocation{Root: lines[0], Dir: filepath.Clean(lines[1])}
	// core.hooksPath unset is exit status 1 with no output: not an error.
	hp, err := git(ctx, dir, "config", "--get", "core.hooksPath")
	if err == nil {
		loc.HooksPath = hp
	}
	return loc, nil
}

// writeTree returns the tree the index (GIT_INDEX_FILE) would commit.
func writeTree(ctx context.Context, root string) (string, error) {
	return git(ctx, root, "write-tree")
}

// replayOf names the git operation replaying commits in a worktree, seen
// from post-commit: rebase, cherry-pick and revert commit through the
// sequencer, which runs post-commit but never pre-commit. The sequencer
// still holds MERGE_MSG when post-commit runs; `git commit` has removed it.
//
// The marks are files in the git directory, which the agent being policed
// can write: the adversarial pass of issue 25 ran `mkdir .git/rebase-merge`
// and then `git commit --no-verify` from a script, and the commit, made
// before the start gates passed, was recorded as a replay with no BYPASS.
// So a mark counts only when a git that replays commits (rebase,
// cherry-pick, revert, am, pull, merge) is among the hook's ancestors;
// where no ancestry can be read (Windows), the mark alone counts, as before.
func replayOf(gitDir string, chain func() []ancestry.Process) string {
	op := replayMark(gitDir)
	if op == "" {
		return ""
	}
	if chain == nil {
		chain = ancestry.Chain
	}
	procs := chain()
	if len(procs) == 0 || replayingGit(procs) {
		return op
	}
	return ""
}

func replayMark(gitDir string) string {
	marks := []struct{ name, op string }{
		{"rebase-merge", "rebase"},
		{"rebase-apply", "rebase"},
		{"CHERRY_PICK_HEAD", "cherry-pick"},
		{"REVERT_HEAD", "revert"},
		{"sequencer", "sequencer"},
		{"MERGE_MSG", "sequencer"},
	}
	for _, m := range marks {
		if _, err := os.Lstat(filepath.Join(gitDir, m.name)); err == nil {
			return m.op
		}
	}
	return ""
}

// replayCommands are git's commands that commit through the sequencer (or
// run one that does: pull runs rebase, merge --continue runs commit).
var replayCommands = map[string]bool{"rebase": true, "cherry-pick": true, "revert": true, "am": true, "pull": true, "merge": true}

// replayingGit reports whether a git process among procs runs one of
// replayCommands.
func replayingGit(procs []ancestry.Process) bool {
	for _, p := range procs {
		if sub, _, ok := gitCommand(p); ok && replayCommands[sub] {
			return true
		}
	}
	return false
}

// gitCommand reads a git process's command: its first word after git's own
// options (`git -c k=v rebase`), or the command of a dashed program
// (git-rebase), and the arguments after it. ok is false for a process
// that is no git.
func gitCommand(p ancestry.Process) (sub string, args []string, ok bool) {
	f := p.Argv
	if f == nil {
		f = strings.Fields(p.Args)
	}
	if len(f) == 0 {
		return "", nil, false
	}
	prog := filepath.Base(f[0])
	if sub, ok := strings.CutPrefix(prog, "git-"); ok {
		return sub, f[1:], true
	}
	if prog != "git" && p.Name != "git" {
		return "", nil, false
	}
	for i := 1; i < len(f); i++ {
		a := f[i]
		if a == "-c" || a == "-C" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--config-env" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return a, f[i+1:], true
	}
	return "", nil, true
}

// commitValueOptions are git commit's options whose value is the next
// word.
var commitValueOptions = map[string]bool{"-m": true, "--message": true, "-F": true, "--file": true, "-c": true, "-C": true,
	"--reuse-message": true, "--reedit-message": true, "--author": true, "--date": true, "--fixup": true, "--squash": true,
	"--trailer": true, "-t": true, "--template": true, "--cleanup": true, "--pathspec-from-file": true}

// amendingGit reports whether the nearest git among procs (the one
// running the hook) is `git commit --amend` (or an abbreviation of it git
// accepts, --am): the commit it makes replaces HEAD. A git alias for
// commit (`git ci --amend`) counts by its literal --amend. Arguments after
// "--" are paths. The command line is evidence only (an agent can run
// the commit under another name): what it decides is an early refusal,
// and post-commit's ancestry check of the commit itself stays the rule.
func amendingGit(procs []ancestry.Process) bool {
	for _, p := range procs {
		sub, args, ok := gitCommand(p)
		if !ok {
			continue
		}
		if p.Argv == nil {
			// Words of a joined command line: a message that says
			// --amend would read as the option.
			return false
		}
		// The last of --amend and --no-amend wins, as in git; a cluster
		// of short options ending in one that takes a value (-am) takes
		// the next word as it (helper 349: `git commit -am --amend` and
		// `--amend --no-amend` made a new commit and were refused).
		amend := false
		for i := 0; i < len(args); i++ {
			a := args[i]
			if a == "--" {
				break
			}
			switch {
			case a == "--amend" || sub == "commit" && len(a) >= 4 && strings.HasPrefix("--amend", a):
				amend = true
			case a == "--no-amend" || sub == "commit" && len(a) >= 7 && strings.HasPrefix("--no-amend", a):
				amend = false
			case commitValueOptions[a] || shortValueLast(a):
				i++ // its value: a message may say --amend
			}
		}
		return amend
	}
	return false
}

// shortValueLast reports a cluster of git commit's short options whose
// last letter takes the next word as its value (-am, -qsm, -aF). A value
// letter before the end takes the rest of the word (-mfix): no next word.
func shortValueLast(a string) bool {
	if len(a) < 3 || a[0] != '-' || a[1] == '-' {
		return false
	}
	for j := 1; j < len(a); j++ {
		if strings.IndexByte("mFcCt", a[j]) >= 0 {
			return j == len(a)-1
		}
	}
	return false
}

// addTrailers writes trailers into a commit message file, replacing an
// existing trailer with the same key (an amend keeps one Session-Id). A
// commit message has no patch part: with --no-divider a "---" line is text,
// not the end of the message above which git would put the trailers, out of
// sight of git log's %(trailers) (and of sessiongate verify).
func addTrailers(ctx context.Context, root, file string, trailers []string) error {
	// git merge writes its message without a final newline; git
	// interpret-trailers then puts the trailers in the subject's paragraph
	// ("Merge branch 'main' into x" + "Session-Id: ..."), where git parses
	// no trailer. Ending the message first gives a proper trailer block.
	if b, err := os.ReadFile(file); err == nil && len(b) > 0 && b[len(b)-1] != '\n' {
		if err := os.WriteFile(file, append(b, '\n'), 0o644); err != nil {
			return fmt.Errorf("end the message with a newline: %w", err)
		}
	}
	args := []string{"interpret-trailers", "--in-place", "--no-divider", "--if-exists", "replace"}
	for _, t := range trailers {
		args = append(args, "--trailer", t)
	}
	args = append(args, file)
	_, err := git(ctx, root, args...)
	return err
}

// gitVersion returns git's version as text and as [major, minor, patch].
func gitVersion(ctx context.Context) (string, [3]int, error) {
	out, err := git(ctx, "", "version")
	if err != nil {
		return "", [3]int{}, err
	}
	// Compiled here, not at package init: hooks start this binary often.
	m := regexp.MustCompile(`(\d+)\.(\d+)(?:\.(\d+))?`).FindStringSubmatch(out)
	if m == nil {
		return out, [3]int{}, errors.New("cannot read the git version from " + strconv.Quote(out))
	}
	var v [3]int
	for i := range 3 {
		v[i], _ = strconv.Atoi(m[i+1])
	}
	return out, v, nil
}
