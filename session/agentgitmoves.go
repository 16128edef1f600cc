package session

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/shellline"
)

// gitMoveTime bounds each git call that lists the files a revision
// change writes.
const gitMoveTime = 3 * time.Second

// maxGitMoves bounds the git calls one line leads to.
const maxGitMoves = 4

// gitMoveWrites judges the git commands of a POSIX line that write the
// work tree from other revisions without naming a file
// (shellline.GitMoves: reset --hard REV, checkout/switch BRANCH, rebase,
// merge, cherry-pick, revert, read-tree -u, a patch git makes on the line
// and applies). It asks git which files those revisions change, one call
// per such command and only for such a line, and denies when one is
// protected. A revision git does not know (a path given to checkout, a
// branch the line has not fetched yet) answers nothing: git's own
// command fails on it, or the gates see the change afterwards.
func (e *Engine) gitMoveWrites(ctx context.Context, root string, call ToolCall, lines []string, repoID int64) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	// The line and the lines it runs without naming them (eval, sh -c).
	var moves []shellline.GitMove
	seen := map[string]bool{}
	for _, l := range lines {
		for _, m := range shellline.GitMoves(l) {
			if k := fmt.Sprint(m.Log, m.Args, m.Paths); !seen[k] {
				seen[k] = true
				moves = append(moves, m)
			}
		}
	}
	return e.judgeGitMoves(ctx, root, moves, repoID)
}

// judgeGitMoves asks git which files each move writes (at most
// maxGitMoves calls) and denies when one is protected.
func (e *Engine) judgeGitMoves(ctx context.Context, root string, moves []shellline.GitMove, repoID int64) *AgentVerdict {
	if len(moves) > maxGitMoves {
		moves = moves[:maxGitMoves]
	}
	var accepted map[string][]string // loaded once, on the first protected file
	for _, m := range moves {
		for _, name := range gitMoveFiles(ctx, root, m) {
			if rel, ok := e.ProtectedRel(root, filepath.Join(root, filepath.FromSlash(name))); ok {
				// A target whose content a person accepted (`protocol
				// accept` after updating the protocol on main) is what the
				// gates will accept too: bringing it in is honest.
				if m.Target != "" && repoID != 0 {
					if accepted == nil {
						accepted = map[string][]string{}
						if rows, err := e.Store.TrustedFiles(ctx, repoID); err == nil {
							accepted = trustedOf(rows)
						}
					}
					if personAccepted(accepted[rel], revContentSHA(ctx, root, m.Target, rel)) {
						continue
					}
				}
				return &AgentVerdict{Deny: true, Gate: "protected files",
					Reason: fmt.Sprintf("the shell command runs `%s`, which writes %s from another revision (git lists it as changed there); it may not change during a session: it decides how the session is policed", shortInner(m.What), rel),
					Next:   "leave it as it is: take only the files you need (`git checkout REV -- src/`, `git diff A B -- src/ | git apply`), or ask the user to bring that revision in; a person who wants the change makes it and runs `sessiongate protocol accept`"}
			}
		}
	}
	return nil
}

// gitMoveFiles runs a GitMove's query and returns the repository-relative
// names it lists; nil when git cannot answer.
func gitMoveFiles(ctx context.Context, root string, m shellline.GitMove) []string {
	ctx, cancel := context.WithTimeout(ctx, gitMoveTime)
	defer cancel()
	args := []string{"diff", "--no-ext-diff", "--no-textconv", "--name-only", "-z"}
	if m.Log {
		args = []string{"log", "--no-ext-diff", "--no-textconv", "--format=", "--name-only", "-z"}
	}
	args = append(append(append(args, m.Args...), "--"), m.Paths...)
	out, err := gitenv.Command(ctx, root, nil, args...).Output()
	if err != nil {
		return nil
	}
	var names []string
	for _, n := range strings.FieldsFunc(string(out), func(r rune) bool { return r == 0 || r == '\n' }) {
		names = append(names, n)
	}
	return names
}

// revContentSHA is the sha256 of a file's content at a revision, "" when
// git cannot say.
func revContentSHA(ctx context.Context, root, rev, rel string) string {
	ctx, cancel := context.WithTimeout(ctx, gitMoveTime)
	defer cancel()
	out, err := gitenv.Command(ctx, root, nil, "cat-file", "blob", rev+":"+rel).Output()
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(out)
	return hex.EncodeToString(sum[:])
}

// personAccepted reports whether sha is among a path's accepted contents
// by a person's accept (a content trusted on first use alone is not).
func personAccepted(trusted []string, sha string) bool {
	return sha != "" && slices.Contains(trusted, sha) && !slices.Contains(trusted, firstUseMark+sha)
}
