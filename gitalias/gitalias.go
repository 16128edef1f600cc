package gitalias

import (
	"context"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/shellline"
)

// A git alias hides the command it runs: with `git config alias.x
// cherry-pick` set before the session, `git x REV` landed work in INIT
// past the plumbing denial (session.ShellGitWrite), which judged "x". GitCommands
// is what git itself resolves: the aliases of the repository's, the
// global and the system config (`git config --get-regexp`), and the
// commands git knows. session.ShellGitWriteIn judges an alias by its expansion; a
// `!` shell alias by the shell line it runs, denied when that line does
// more than run git; and a subcommand git neither knows nor has an alias
// for (an alias set earlier in the same line, `git config alias.x ... &&
// git x`) as unknown, so it is denied before the start gates pass.

// GitCommands is the alias table and the known commands of one repository.
type GitCommands struct {
	Aliases map[string]string // name (lower case) -> expansion
	Known   map[string]bool   // git's own commands and git-* programs; nil: not known
}

// gitCommandsTime bounds the two git calls of Load.
const gitCommandsTime = 3 * time.Second

// Load reads the aliases and commands git resolves in root.
// Errors leave the part unknown (Known nil: no unknown-command judgement).
func Load(ctx context.Context, root string) *GitCommands {
	ctx, cancel := context.WithTimeout(ctx, gitCommandsTime)
	defer cancel()
	gc := &GitCommands{Aliases: map[string]string{}}
	// Exit 1 with no output when no alias is set.
	if out, err := gitenv.Command(ctx, root, nil, "config", "--null", "--get-regexp", `^alias\.`).Output(); err == nil {
		for _, rec := range strings.Split(string(out), "\x00") {
			k, v, ok := strings.Cut(rec, "\n")
			if name, isAlias := strings.CutPrefix(strings.ToLower(k), "alias."); ok && isAlias && name != "" {
				gc.Aliases[name] = strings.TrimSpace(v)
			}
		}
	}
	if out, err := gitenv.Command(ctx, root, nil, "--list-cmds=main,others").Output(); err == nil {
		gc.Known = map[string]bool{}
		for _, c := range strings.Fields(string(out)) {
			gc.Known[c] = true
		}
	}
	return gc
}

// maxAliasDepth bounds alias chains (git refuses loops itself).
const maxAliasDepth = 8

// Resolve judges subcommand sub with args for session.ShellGitWriteIn:
// what it writes ("" nothing) and whether it was resolved here. write is
// the judge of a whole line, called on an alias's expansion.
func (gc *GitCommands) Resolve(sub string, args []string, depth int, write func(line string, gc *GitCommands, depth int) string) (string, bool) {
	if gc == nil {
		return "", false
	}
	if gc.Known != nil && gc.Known[sub] {
		return "", false // git's own command wins over an alias of its name
	}
	exp, ok := gc.Aliases[strings.ToLower(sub)]
	if !ok {
		if gc.Known != nil && sub != "" {
			return "unknown git command " + sub + " (an alias set in the same line?)", true
		}
		return "", false
	}
	if depth >= maxAliasDepth {
		return "alias " + sub + " (too deep to resolve)", true
	}
	if body, shell := strings.CutPrefix(exp, "!"); shell {
		if w := write(body+" "+strings.Join(args, " "), gc, depth+1); w != "" {
			return "alias " + sub + " = !" + shorten.Bytes(body, 80, "...") + " (" + w + ")", true
		}
		if !onlyGit(body) {
			return "alias " + sub + " = !" + shorten.Bytes(body, 80, "...") + " (a shell alias: what it runs is not readable here)", true
		}
		return "", true
	}
	if w := write("git "+exp+" "+strings.Join(args, " "), gc, depth+1); w != "" {
		return "alias " + sub + " = " + shorten.Bytes(exp, 80, "...") + " (" + w + ")", true
	}
	return "", true
}

// onlyGit reports whether every part of a shell line runs git.
func onlyGit(line string) bool {
	parts := shellline.Parts(line)
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		f := strings.Fields(p)
		if len(f) == 0 || f[0] != "git" {
			return false
		}
	}
	return true
}

// Expand is the expansion of alias name (shellline.Aliases).
func (gc *GitCommands) Expand(name string) (string, bool) {
	if gc == nil {
		return "", false
	}
	v, ok := gc.Aliases[strings.ToLower(name)]
	return v, ok
}

// Builtin reports whether name is one of git's own commands, which git
// runs whatever an alias of that name says (shellline.Aliases).
func (gc *GitCommands) Builtin(name string) bool {
	return gc != nil && gc.Known != nil && gc.Known[name]
}
