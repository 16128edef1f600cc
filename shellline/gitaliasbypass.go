package shellline

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Aliases is what git resolves for `git NAME`: the alias's expansion
// (false when there is none) and whether NAME is git's own command, which
// git runs whatever an alias of that name says. gitalias.GitCommands
// reads them from the repository's, the global and the system config.
type Aliases interface {
	Expand(name string) (string, bool)
	Builtin(name string) bool
}

// aliasBypass judges `git NAME ARGS` (w[i] is NAME, not commit or push)
// as the alias git runs for NAME: from -c on this call (local), set by
// `git config alias.NAME` earlier in the line (defined), or in git's
// config (aliases). `git config alias.c commit`, a harmless alias alone,
// then `git c -n` is `git commit -n`. hooksPath and elsewhere are this
// call's environment, which the alias's git runs under.
func aliasBypass(w []string, i int, configs []string, hooksPath bool, elsewhere string, local, defined map[string]string, aliases Aliases, depth int) string {
	if depth >= maxBypassAliasDepth {
		return ""
	}
	exp, ok := resolveAlias(w[i], local, defined, aliases)
	if !ok {
		return ""
	}
	args := quoteWords(w[i+1:])
	var line string
	if body, shell := strings.CutPrefix(exp, "!"); shell {
		line = body + " " + args // a shell alias runs its text with the arguments
		// git runs it as `sh -c 'BODY "$@"' BODY ARGS`: a function or a
		// `sh -c` in the body, or "$@" before a comment, passes the
		// arguments where the line above does not show them.
		if skipsFlag(w[i+1:]) && (MayCommit(body) || strings.Contains(body, "commit") || strings.Contains(body, "push")) {
			return "`git " + w[i] + "` (a shell alias that commits or pushes, given " + strings.Join(w[i+1:], " ") + ")"
		}
	} else {
		if sub := firstWord(exp); (sub == "commit" || sub == "push") && (hooksPath || elsewhere != "") {
			return "`git " + w[i] + "` (alias of `git " + exp + "`, run without the hooks)"
		}
		pre := ""
		for _, kv := range configs {
			pre += " -c " + quoteWords([]string{kv})
		}
		line = "git" + pre + " " + exp + " " + args
	}
	inner := aliasesWith{defined: defined, next: aliases}
	if how := gitBypass(line, inner, depth+1); how != "" {
		return "`git " + w[i] + "` (alias of `git " + strings.TrimPrefix(exp, "!") + "`: " + how + ")"
	}
	return ""
}

// gitOwn are git's commands that an alias of the same name never replaces,
// for a line judged without git's own list (no repository at hand).
var gitOwn = map[string]bool{
	"add": true, "am": true, "branch": true, "checkout": true, "cherry-pick": true, "clone": true,
	"commit": true, "config": true, "diff": true, "fetch": true, "init": true, "log": true,
	"merge": true, "pull": true, "push": true, "rebase": true, "reset": true, "restore": true,
	"revert": true, "rm": true, "show": true, "stash": true, "status": true, "switch": true, "tag": true,
}

// aliasesWith resolves the aliases a line set before git's own.
type aliasesWith struct {
	defined map[string]string
	next    Aliases
}

func (a aliasesWith) Expand(name string) (string, bool) {
	if v, ok := a.defined[name]; ok {
		return v, true
	}
	if a.next == nil {
		return "", false
	}
	return a.next.Expand(name)
}

func (a aliasesWith) Builtin(name string) bool { return a.next != nil && a.next.Builtin(name) }

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

// configVars are git's environment variables that choose which user or
// system config it reads: HOME and XDG_CONFIG_HOME move the user's
// (~/.gitconfig), GIT_CONFIG_GLOBAL and GIT_CONFIG_SYSTEM name the files.
// A file the agent wrote there can set core.hooksPath, and sessiongate's
// hooks are in the repository's hooks folder, which core.hooksPath from
// any config replaces.
var configVars = map[string]bool{"HOME": true, "XDG_CONFIG_HOME": true, "GIT_CONFIG_GLOBAL": true, "GIT_CONFIG_SYSTEM": true}

// configVarElsewhere reports NAME=VALUE when it points git's config
// elsewhere; /dev/null (no config at all) leaves the hooks where they are.
func configVarElsewhere(k, v string) string {
	if !configVars[k] || v == "/dev/null" {
		return ""
	}
	return k + "=" + v
}

// configElsewhere is configVarElsewhere of a call's NAME=VALUE words
// (env's) and leading assignments.
func configElsewhere(words []string, c *syntax.CallExpr) string {
	for _, a := range words {
		if k, v, ok := strings.Cut(a, "="); ok {
			if kv := configVarElsewhere(k, v); kv != "" {
				return kv
			}
		}
	}
	if c == nil {
		return ""
	}
	for _, a := range c.Assigns {
		if a.Name == nil {
			continue
		}
		v, _ := Literal(a.Value)
		if kv := configVarElsewhere(a.Name.Value, v); kv != "" {
			return kv
		}
	}
	return ""
}

// exportsConfigElsewhere is configElsewhere of the line's export
// statements (`export HOME=/tmp/h; git commit -m x`, `declare -x`), and
// of its assignments on their own: HOME and XDG_CONFIG_HOME are exported
// in every shell, so `HOME=/tmp/h; git commit` moves git's config too, and
// after `set -a` any assignment is exported. Read on the line as given,
// before a `sh -c` in it is unwrapped: `GIT_CONFIG_GLOBAL=/tmp/g sh -c
// 'git commit'` passes the variable to the inner git.
func exportsConfigElsewhere(f *syntax.File) string {
	found := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.DeclClause:
			if exports(x) {
				for _, a := range x.Args {
					if a.Name != nil && found == "" {
						v, _ := Literal(a.Value)
						found = configVarElsewhere(a.Name.Value, v)
					}
				}
			}
		case *syntax.CallExpr:
			for _, a := range x.Assigns {
				if a.Name != nil && found == "" {
					v, _ := Literal(a.Value)
					found = configVarElsewhere(a.Name.Value, v)
				}
			}
			for _, w := range x.Args {
				// env's NAME=VALUE words, env -i's too
				if l, ok := Literal(w); ok && found == "" {
					if k, v, ok := strings.Cut(l, "="); ok {
						found = configVarElsewhere(k, v)
					}
				}
			}
		}
		return found == ""
	})
	return found
}

// exports reports whether a declaration exports its names: export, or
// declare/typeset/local with -x.
func exports(d *syntax.DeclClause) bool {
	switch d.Variant.Value {
	case "export":
		return true
	case "declare", "typeset", "local":
		for _, a := range d.Args {
			if a.Name == nil && a.Value != nil {
				if l, ok := Literal(a.Value); ok && strings.HasPrefix(l, "-") && strings.Contains(l, "x") {
					return true
				}
			}
		}
	}
	return false
}

// CommitsWithoutHooks names a git command of the line that makes commits
// git's commit hooks never see, "" when none does: `commit-tree` (then
// `update-ref` moves the branch to it), `hash-object -t commit`,
// `fast-import`, `replay` and `filter-branch`. pre-commit is where a
// session's gates are checked; such a commit was caught only afterwards,
// as a bypass (lazy-agent pass 34). aliases resolves `git x` as git does
// (nil: only aliases set on the line).
func CommitsWithoutHooks(line string, aliases Aliases) string {
	return commitsWithoutHooks(line, aliases, 0)
}

func commitsWithoutHooks(line string, aliases Aliases, depth int) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok || depth >= maxBypassAliasDepth {
		return ""
	}
	defined := map[string]string{}
	for _, c := range calls {
		w := unwrapCall(expandedWords(c))
		if len(w) == 0 || w[0] != "git" {
			continue
		}
		i, configs := gitGlobals(w)
		if i >= len(w) {
			continue
		}
		local := aliasConfigs(configs)
		sub, args := w[i], w[i+1:]
		switch sub {
		case "commit-tree", "fast-import", "replay", "filter-branch":
			return "`git " + sub + "`"
		case "hash-object":
			commit := false
			for k, a := range args {
				if a == "-tcommit" || a == "--type=commit" || (a == "-t" || a == "--type") && k+1 < len(args) && args[k+1] == "commit" {
					commit = true
				}
			}
			if commit && slices.Contains(args, "-w") { // without -w it only computes an id
				return "`git hash-object -t commit -w`"
			}
			continue
		case "config":
			for k := 0; k+1 < len(args); k++ {
				if name, ok := strings.CutPrefix(strings.ToLower(args[k]), "alias."); ok {
					defined[name] = args[k+1]
				}
			}
			continue
		}
		exp, ok := resolveAlias(sub, local, defined, aliases)
		if !ok {
			continue
		}
		inner := "git " + exp
		if body, shell := strings.CutPrefix(exp, "!"); shell {
			inner = body
		}
		if how := commitsWithoutHooks(inner+" "+quoteWords(args), aliasesWith{defined: defined, next: aliases}, depth+1); how != "" {
			return "`git " + sub + "` (alias of `git " + strings.TrimPrefix(exp, "!") + "`: " + how + ")"
		}
	}
	return ""
}

// MayCommit reports whether a line runs git in a way that can make a
// commit or push one: commit, push, merge, pull, am, cherry-pick, rebase,
// revert, stash (apply and pop re-enter no hook, but `git stash` makes
// commits), or a subcommand that is not git's own (an alias). The agent
// hook pays a git call for such a line only (session/hooksdir.go).
func MayCommit(line string) bool {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return strings.Contains(line, "git")
	}
	for _, c := range calls {
		w := unwrapCall(expandedWords(c))
		if len(w) == 0 || w[0] != "git" {
			continue
		}
		i, _ := gitGlobals(w)
		if i >= len(w) {
			continue
		}
		switch sub := w[i]; {
		case sub == "commit" || sub == "push" || sub == "merge" || sub == "pull" || sub == "am" ||
			sub == "cherry-pick" || sub == "rebase" || sub == "revert" || sub == "stash":
			return true
		case !gitOwn[sub] && !gitReads[sub]:
			return true
		}
	}
	return false
}

// gitReads are git commands that make no commit, beside gitOwn's.
var gitReads = map[string]bool{
	"rev-parse": true, "ls-files": true, "grep": true, "blame": true, "remote": true, "describe": true,
	"shortlog": true, "reflog": true, "cat-file": true, "ls-tree": true, "show-ref": true, "for-each-ref": true,
	"worktree": true, "version": true, "help": true, "check-ignore": true, "diff-tree": true, "diff-files": true,
	"diff-index": true, "merge-base": true, "rev-list": true, "name-rev": true, "var": true, "symbolic-ref": true,
	"mv": true, "notes": true, "bisect": true, "clean": true, "gc": true, "range-diff": true, "whatchanged": true,
	"format-patch": true, "archive": true, "submodule": true, "sparse-checkout": true, "lfs": true,
}

// skipsFlag reports whether args hold a flag that skips git's hooks for a
// commit or push: -n (alone or in a group), --no-verify or a prefix of it.
func skipsFlag(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if longOption(a, "--no-verify", len("--no-veri")) || shortFlag(a, 'n') {
			return true
		}
	}
	return false
}

// LandsUnchecked names a git command of the line that lands a commit on
// a branch past pre-commit, "" when none does: `git stash create` and
// `stash store` (a commit of the work tree, made for a rev), a branch
// moved onto the stash (`merge`, `reset`, `cherry-pick`, `rebase`,
// `branch -f`, `update-ref` naming `stash@{...}` or `refs/stash`). The
// round-35 review landed work with each while the session ran. (`git am`
// and `rebase --exec` stay allowed: applying a colleague's patch and
// testing each commit are honest, and the line rebase runs is judged as
// the agent's own, agenthook's TestGitRoutesAtTheHook.)
func LandsUnchecked(line string) string {
	calls, _, ok := Calls(Unwrap(line))
	if !ok {
		return ""
	}
	for _, c := range calls {
		w := unwrapCall(expandedWords(c))
		if len(w) == 0 || w[0] != "git" {
			continue
		}
		i, _ := gitGlobals(w)
		if i >= len(w) {
			continue
		}
		sub, args := w[i], w[i+1:]
		switch sub {
		case "stash":
			if len(args) > 0 && (args[0] == "create" || args[0] == "store") {
				return "`git stash " + args[0] + "`"
			}
		}
		switch sub {
		case "merge", "reset", "cherry-pick", "rebase", "branch", "update-ref", "switch", "checkout":
			for _, a := range args {
				if strings.HasPrefix(a, "stash@{") || a == "stash" && sub != "branch" || a == "refs/stash" || strings.HasPrefix(a, "refs/stash@{") {
					return "`git " + sub + " " + a + "`"
				}
			}
		}
	}
	return ""
}

// resolveAlias is the expansion git runs for `git sub`: an alias given
// with -c on the call (local), set earlier on the line (defined), or in
// git's config (aliases); false when sub is git's own command or no alias.
// git finds its own commands by exact name and aliases in any case: `git
// COMMIT -n` runs alias.commit (round 35). The common commands are known
// here, so `git status` asks nothing of aliases, which may read git's
// config.
func resolveAlias(sub string, local, defined map[string]string, aliases Aliases) (string, bool) {
	name := strings.ToLower(sub)
	if gitOwn[sub] || name == "" || strings.HasPrefix(name, "-") {
		return "", false
	}
	exp, ok := local[name]
	if !ok {
		exp, ok = defined[name]
	}
	if !ok && aliases != nil {
		exp, ok = aliases.Expand(name)
	}
	if !ok || aliases != nil && aliases.Builtin(sub) {
		return "", false
	}
	return exp, true
}

// aliasConfigs are the aliases among a git call's -c settings, by
// lower-case name.
func aliasConfigs(configs []string) map[string]string {
	out := map[string]string{}
	for _, kv := range configs {
		if k, v, ok := strings.Cut(kv, "="); ok {
			if name, ok := strings.CutPrefix(strings.ToLower(k), "alias."); ok {
				out[name] = v
			}
		}
	}
	return out
}
