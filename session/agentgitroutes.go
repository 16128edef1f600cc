package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/gitalias"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/shellline"
)

// maxRevFile bounds a file read as a revision (`git checkout "$(cat rev)"`).
const maxRevFile = 4096

// gitRouteWrites judges the git routes gitMoveWrites cannot read from the
// line's literal words (round 20, shellline.GitRoutes): a branch fetched
// on the same line from a path or URL, a ref moved on the line before the
// tree is moved to it, a revision computed on the line or read from a
// file, `git switch --orphan`, an alias (given with -c, or in git's config
// for a subcommand git does not have built in), and the shell lines git
// runs itself (`rebase -x`, `submodule foreach`, `filter-branch`, `bisect
// run`, a `!` alias), judged as the line's own commands. No git call for a
// line without such a command; the alias table costs two, only for a line
// whose git subcommand is not one of git's everyday commands.
func (e *Engine) gitRouteWrites(ctx context.Context, root string, call ToolCall, lines []string, repoID int64) *AgentVerdict {
	if call.Shell == shellline.PowerShell {
		return nil
	}
	dir := root
	if call.Dir != "" && filepath.IsAbs(call.Dir) && len(inWorktree(root, []string{call.Dir})) > 0 {
		dir = call.Dir
	}
	read := func(p string) (string, bool) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxRevFile {
			return "", false
		}
		b, err := boundedread.File(p, maxRevFile)
		return string(b), err == nil
	}
	var moves []shellline.GitMove
	var runs []string
	var judge func(ls []string, depth int) *AgentVerdict
	judge = func(ls []string, depth int) *AgentVerdict {
		for _, l := range ls {
			ms, open := shellline.GitRoutes(l, read)
			if len(open) > 0 {
				return &AgentVerdict{Deny: true, Gate: "protected files",
					Reason: "the shell command runs `" + shortInner(open[0].What) + "`: " + open[0].Why + "; the hook cannot tell whether it changes a protected file (SESSION-PROTOCOL.md, sessiongate.yaml, .claude/...), which may not change during a session",
					Next:   "split it: fetch or compute the revision in one call, then move to it by name in the next (the hook then asks git what it changes)"}
			}
			moves = append(moves, ms...)
			runs = append(runs, shellline.GitRuns(l)...)
		}
		if depth > 0 {
			return nil
		}
		// Aliases in git's config, only for a subcommand that may be one.
		var uncommon [][]string
		for _, l := range ls {
			uncommon = append(uncommon, shellline.GitUncommon(l)...)
		}
		if len(uncommon) == 0 {
			return nil
		}
		gc := gitalias.Load(ctx, root)
		var expanded []string
		for _, w := range uncommon {
			exp, ok := gc.Aliases[strings.ToLower(w[0])]
			if !ok {
				continue
			}
			if body, shell := strings.CutPrefix(exp, "!"); shell {
				runs = append(runs, strings.TrimSpace(body+" "+strings.Join(w[1:], " ")))
				continue
			}
			expanded = append(expanded, "git "+exp+" "+strings.Join(w[1:], " "))
		}
		for _, l := range expanded {
			moves = append(moves, shellline.GitMoves(l)...)
		}
		return judge(expanded, depth+1)
	}
	if rv := judge(lines, 0); rv != nil {
		return rv
	}
	if len(runs) > 0 {
		// What git runs is a line of its own: its writes, its git moves.
		all := append([]string{}, runs...)
		for _, r := range runs {
			all = append(all, shellline.Inner(r)...)
		}
		if rv := e.innerWrites(root, call, all); rv != nil {
			rv.Reason = "git runs a shell command itself: " + rv.Reason
			return rv
		}
		for _, r := range all {
			moves = append(moves, shellline.GitMoves(r)...)
		}
	}
	if len(moves) == 0 {
		return nil
	}
	return e.judgeGitMoves(ctx, root, moves, repoID)
}
