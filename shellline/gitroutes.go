package shellline

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Round 20 (t6): git routes GitMoves could not read, because the revision
// is not there, or not spelled, when the line is read:
//
//   - a branch the line fetches from a path or URL (`git pull /tmp/x main`,
//     `git fetch X main && git reset --hard FETCH_HEAD`, `git fetch X
//     main:tmp && git checkout tmp`): git cannot list what it does not have
//     yet, so these are open routes (split the line: fetch, then move in a
//     later call, which GitMoves judges with the fetched revision there);
//   - a ref the line moves first (`git update-ref refs/heads/x REV && git
//     reset --hard x`, `git branch -f x REV`): the move is judged at REV;
//   - a revision the line computes (`$(git rev-parse X)`, `$(cat rev)`,
//     `R=$(cat rev); ... "$R"`): read as X or as the file's first line;
//     anything else computed is an open route (spell it literally);
//   - `git switch --orphan` (removes every tracked file);
//   - an alias given on the line (`git -c alias.x='reset --hard' x REV`).
//
// GitRuns lists the shell lines git itself runs (`rebase -x`, `submodule
// foreach`, `filter-branch --tree-filter`, `bisect run`, a `!` alias given
// with -c): the hook judges them as the line's own commands.

// GitRoute is a git command whose effect on the work tree the hook cannot
// ask git about before the line runs.
type GitRoute struct {
	What string // the command, for a message
	Why  string // why it cannot be read, and what to do instead
}

// unknownWord stands for a word whose value the line computes and the
// hook cannot read.
const unknownWord = "\x00"

// mergeBaseWord stands for `$(git merge-base ...)`: an ancestor, read as
// no move by `git rebase` (`git rebase -i $(git merge-base HEAD main)`
// replays the branch's own commits) and as computed by anything else.
const mergeBaseWord = "\x00mb"

// gitRefWriters: `git update-ref REF NEWREV`, `git branch -f NAME REV`,
// `git tag -f NAME REV`: a ref moved on the line before a move reads it.

// GitRoutes reads a POSIX line's git commands in order (the same walk as
// GitMoves) and returns the moves it can judge only with what the line
// itself computes (a ref set on the line, a revision read from a file or
// from `git rev-parse`) and the routes it cannot judge at all. read
// returns a file's content (relative to the line's folder), false when it
// cannot; nil reads nothing.
func GitRoutes(cmd string, read func(string) (string, bool)) (moves []GitMove, open []GitRoute) {
	if !strings.Contains(cmd, "git") {
		return nil, nil
	}
	_, f, ok := Calls(Unwrap(cmd))
	if !ok {
		return nil, nil
	}
	vars := map[string]string{}        // NAME=VALUE on the line; unknownWord when computed otherwise
	refs := map[string]string{}        // refs moved on the line -> the revision (unknownWord: unknown)
	lineAliases := map[string]string{} // git config alias.NAME VALUE on the line
	fetched := map[string]bool{}       // refs the line fetches (FETCH_HEAD, refspec destinations)
	cwd := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		if d, ok := st.Cmd.(*syntax.DeclClause); ok {
			// export NAME=VALUE: later calls of the line get it too
			// (envAlias reads git's environment config from it).
			for _, a := range d.Args {
				if a.Name != nil && a.Value != nil {
					vars[a.Name.Value] = wordValue(a.Value, vars, cwd, read)
				}
			}
			return true
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok {
			return true
		}
		for _, a := range c.Assigns {
			if a.Name == nil {
				continue
			}
			if a.Value == nil {
				vars[a.Name.Value] = ""
				continue
			}
			vars[a.Name.Value] = wordValue(a.Value, vars, cwd, read)
		}
		if len(c.Args) == 0 {
			return true
		}
		raw := make([]string, len(c.Args))
		for i, a := range c.Args {
			raw[i] = wordValue(a, vars, cwd, read)
		}
		w := unwrapCall(raw)
		if len(w) == 0 {
			return true
		}
		if (w[0] == "cd" || w[0] == "pushd") && len(w) == 2 && w[1] != "" && w[1] != unknownWord {
			cwd = joinCwd(cwd, w[1])
			return true
		}
		if w[0] != "git" {
			return true
		}
		if envAlias(vars, w) {
			what := strings.ReplaceAll(strings.Join(w, " "), unknownWord, "$(...)")
			open = append(open, GitRoute{What: what, Why: "it gives git an alias through the environment (GIT_CONFIG_KEY_n, GIT_CONFIG_PARAMETERS or --config-env), which the hook's alias lookup does not see; put the alias in the repository's config or on the line with `git -c alias.NAME=...`"})
			return true
		}
		lit := literalArgs(c)
		if x := inlineAlias(w); len(x) != len(w) {
			w, lit = x, false // GitMoves does not read inline aliases
		}
		i := gitSubIndex(w)
		if i >= len(w) {
			return true
		}
		// An alias the line itself sets (`git config alias.x 'reset
		// --hard' && git x REV`): git's config does not hold it yet.
		if exp, ok := lineAliases[strings.ToLower(w[i])]; ok && !strings.HasPrefix(exp, "!") {
			w = append(append(append([]string{}, w[:i]...), strings.Fields(exp)...), w[i+1:]...)
			lit = false
		}
		sub, rest := w[i], w[i+1:]
		if sub == "config" {
			if name, val, ok := configAlias(rest); ok { // gitconfigset.go
				lineAliases[name] = val
			}
		}
		what := strings.ReplaceAll(strings.Join(w, " "), unknownWord, "$(...)")
		switch sub {
		case "fetch":
			fetched["FETCH_HEAD"] = true
			for _, a := range rest {
				if _, dst, ok := strings.Cut(a, ":"); ok && !strings.Contains(a, "://") && dst != "" {
					fetched[refShort(dst)] = true
				}
			}
			return true
		case "update-ref":
			pos := positional(rest, map[string]bool{"-m": true})
			if len(pos) >= 2 && !hasWord(rest, "-d") {
				refs[refShort(pos[0])] = pos[1]
			}
			return true
		case "branch", "tag":
			if hasWord(rest, "-d") || hasWord(rest, "-D") || hasWord(rest, "--delete") {
				return true
			}
			pos := positional(rest, map[string]bool{"-m": true, "-u": true, "--set-upstream-to": true, "-F": true})
			if len(pos) == 2 && (hasWord(rest, "-f") || hasWord(rest, "--force") || sub == "branch") {
				refs[refShort(pos[0])] = pos[1]
			}
			return true
		case "pull":
			pos := positional(rest, map[string]bool{"-s": true, "-X": true, "--strategy": true, "--strategy-option": true, "-j": true, "--jobs": true, "--depth": true})
			if len(pos) >= 1 && (pos[0] == unknownWord || strings.ContainsAny(pos[0], "/:") || pos[0] == ".." || strings.HasSuffix(pos[0], ".git") || isRepoDir(pos[0], cwd, read)) && pos[0] != "." {
				open = append(open, GitRoute{What: what, Why: "it pulls from a path or URL: what it brings in is not in the repository when the line is read"})
			}
			return true
		case "reset":
			// The index route: `git reset REV -- P` stages REV's P, which a
			// later `git checkout -- P` writes; judged as REV's P here.
			if !movesTree(sub, rest) && !hasWord(rest, "--soft") {
				pos := positional(rest, nil)
				if len(pos) >= 2 && revWord(pos[0]) && !strings.EqualFold(pos[0], "HEAD") && pos[0] != "@" {
					moves = append(moves, GitMove{What: what, Target: pos[0], Args: []string{"HEAD", pos[0] + "^{commit}"}, Paths: pos[1:]})
				}
				return true
			}
		case "switch":
			if hasWord(rest, "--orphan") {
				open = append(open, GitRoute{What: what, Why: "`git switch --orphan` removes every tracked file from the work tree, the protected ones with them (`git checkout --orphan` keeps them)"})
				return true
			}
		}
		if !movesTree(sub, rest) {
			return true
		}
		// The revision words of a tree move: resolved through the line.
		ws := append([]string{}, w...)
		computed, fromLine := false, false
		for k := i + 1; k < len(ws); k++ {
			a := ws[k]
			if a == "--" {
				break
			}
			if a == mergeBaseWord && sub == "rebase" {
				return true // onto a fork point of HEAD: its own commits replayed
			}
			if a == unknownWord || a == mergeBaseWord {
				computed = true
				continue
			}
			if fetched[refShort(a)] {
				open = append(open, GitRoute{What: what, Why: "it moves the work tree to " + a + ", which the same line fetches: git cannot list its files before the fetch; fetch in one call, then run this in the next"})
				return true
			}
			if rev, ok := refs[refShort(a)]; ok {
				if rev == unknownWord {
					computed = true
					continue
				}
				ws[k], fromLine = rev, true
			}
		}
		if computed {
			open = append(open, GitRoute{What: what, Why: "its revision is computed on the line (a command substitution or a variable the hook cannot read); spell the revision literally (run `git rev-parse ...` first)"})
			return true
		}
		if !fromLine && lit {
			return true // literal words: GitMoves judges it
		}
		if m, ok := gitMove(ws); ok {
			m.What = what
			moves = append(moves, m)
		}
		return true
	})
	return moves, open
}

// literalArgs reports whether every word of a call is literal.
func literalArgs(c *syntax.CallExpr) bool {
	for _, a := range c.Args {
		if _, ok := Literal(a); !ok {
			return false
		}
	}
	return true
}

// movesTree reports whether a git subcommand with these words writes the
// work tree from a revision (the commands gitMove reads).
func movesTree(sub string, rest []string) bool {
	switch sub {
	case "reset":
		return hasWord(rest, "--hard") || hasWord(rest, "--keep") || hasWord(rest, "--merge")
	case "checkout", "switch", "merge", "rebase", "cherry-pick", "revert", "read-tree":
		return true
	}
	return false
}

// inlineAlias expands `git -c alias.NAME=VALUE ... NAME ARGS` when VALUE
// is a git command (a `!` alias is a shell line: GitRuns).
func inlineAlias(w []string) []string {
	i := gitSubIndex(w)
	if i >= len(w) {
		return w
	}
	for k := 1; k < i; k++ {
		if w[k] != "-c" || k+1 >= i {
			continue
		}
		kv := w[k+1]
		name, val, ok := strings.Cut(kv, "=")
		name, isAlias := strings.CutPrefix(strings.ToLower(name), "alias.")
		if !ok || !isAlias || name != strings.ToLower(w[i]) || strings.HasPrefix(val, "!") {
			continue
		}
		out := append([]string{}, w[:i]...)
		out = append(out, strings.Fields(val)...)
		return append(out, w[i+1:]...)
	}
	return w
}

// refShort is a ref's short name: refs/heads/x, heads/x and x are x.
func refShort(r string) string {
	r = strings.TrimPrefix(r, "+")
	for _, p := range []string{"refs/heads/", "refs/tags/", "refs/remotes/", "heads/", "tags/"} {
		if s, ok := strings.CutPrefix(r, p); ok {
			return s
		}
	}
	return r
}

// positional lists the words that are no option, skipping the values of
// the valued options.
func positional(rest []string, valued map[string]bool) []string {
	var pos []string
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		switch {
		case a == "--":
			return append(pos, rest[k+1:]...)
		case valued[a]:
			k++
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			pos = append(pos, a)
		}
	}
	return pos
}

func hasWord(ws []string, w string) bool {
	for _, a := range ws {
		if a == w {
			return true
		}
	}
	return false
}

// wordValue is a word's value where the line says it: a literal, a
// variable set earlier on the line, `$(git rev-parse [--verify] [-q] X)`
// (X), `$(cat F)` / `$(< F)` (F's first line, read with read);
// unknownWord otherwise.
func wordValue(w *syntax.Word, vars map[string]string, cwd string, read func(string) (string, bool)) string {
	if s, ok := Literal(w); ok {
		return s
	}
	var b strings.Builder
	var part func(p syntax.WordPart) bool
	part = func(p syntax.WordPart) bool {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			b.WriteString(x.Value)
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if !part(q) {
					return false
				}
			}
		case *syntax.ParamExp:
			if x.Param == nil || x.Exp != nil || x.Repl != nil || x.Slice != nil || x.Length || x.Excl {
				return false
			}
			key := x.Param.Value
			if x.Index != nil {
				// ${A[0]} of an array mapfile filled (round 22): kept as "A[0]"
				iw, ok := x.Index.(*syntax.Word)
				if !ok {
					return false
				}
				i, ok := Literal(iw)
				if !ok {
					return false
				}
				key += "[" + i + "]"
			}
			v, ok := vars[key]
			if !ok || v == unknownWord {
				return false
			}
			b.WriteString(v)
		case *syntax.CmdSubst:
			v, ok := substValue(x, cwd, read)
			if !ok {
				return false
			}
			b.WriteString(v)
		default:
			return false
		}
		return true
	}
	if len(w.Parts) == 1 {
		if cs, ok := w.Parts[0].(*syntax.CmdSubst); ok && isMergeBase(cs) {
			return mergeBaseWord
		}
		if dq, ok := w.Parts[0].(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
			if cs, ok := dq.Parts[0].(*syntax.CmdSubst); ok && isMergeBase(cs) {
				return mergeBaseWord
			}
		}
	}
	for _, p := range w.Parts {
		if !part(p) {
			return unknownWord
		}
	}
	return b.String()
}

// substValue reads `$(git rev-parse [opts] X)` as X and `$(cat F)` or
// `$(< F)` as F's first line.
func substValue(x *syntax.CmdSubst, cwd string, read func(string) (string, bool)) (string, bool) {
	if len(x.Stmts) != 1 {
		return "", false
	}
	st := x.Stmts[0]
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(st.Redirs) == 0 {
		// $(sort F | head -1): the pipeline's first line (round 22)
		return firstLine(pipeText(PipeStages(b), cwd, read))
	}
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok && st.Cmd != nil {
		return "", false
	}
	var args []*syntax.Word
	if c != nil {
		args = c.Args
	}
	var ws []string
	for _, a := range args {
		s, ok := Literal(a)
		if !ok {
			return "", false
		}
		ws = append(ws, s)
	}
	file, last := "", false
	switch {
	case len(ws) == 0 && len(st.Redirs) == 1 && st.Redirs[0].Op == syntax.RdrIn:
		s, ok := Literal(st.Redirs[0].Word)
		if !ok {
			return "", false
		}
		file = s
	case len(ws) == 2 && ws[0] == "cat" && len(st.Redirs) == 0:
		file = ws[1]
	case len(ws) >= 3 && (ws[0] == "head" || ws[0] == "tail") && len(st.Redirs) == 0 && oneLine(ws[1:len(ws)-1]):
		// $(head -1 F), $(tail -n 1 F): F's first or last line (round 21 review)
		file, last = ws[len(ws)-1], ws[0] == "tail"
	case len(ws) >= 3 && ws[0] == "git" && ws[1] == "rev-parse" && len(st.Redirs) == 0:
		var pos []string
		for _, a := range ws[2:] {
			switch a {
			case "--verify", "-q", "--quiet", "--short", "--end-of-options":
			default:
				if strings.HasPrefix(a, "-") {
					return "", false
				}
				pos = append(pos, a)
			}
		}
		if len(pos) != 1 {
			return "", false
		}
		return pos[0], true
	case len(ws) >= 2 && len(c.Assigns) == 0:
		// $(sed -n 1p F), $(awk 'NR==1' F), $(grep -m1 . F) (round 22)
		return firstLine(pipeText(x.Stmts, cwd, read))
	default:
		return "", false
	}
	if read == nil || file == "" {
		return "", false
	}
	body, ok := read(joinCwd(cwd, path.Clean(file)))
	if !ok {
		return "", false
	}
	body = strings.TrimSpace(body)
	if last {
		if i := strings.LastIndexByte(body, '\n'); i >= 0 {
			body = body[i+1:]
		}
	}
	first, _, _ := strings.Cut(body, "\n")
	return strings.TrimSpace(first), true
}

// oneLine: head's or tail's options ask for one line (-1, -n1, -n 1,
// --lines=1).
func oneLine(opts []string) bool {
	switch strings.Join(opts, " ") {
	case "-1", "-n1", "-n 1", "--lines=1", "--lines 1":
		return true
	}
	return false
}

// GitRuns lists the shell lines a POSIX line's git commands run
// themselves: `git rebase -x/--exec CMD`, `git submodule foreach CMD`,
// `git filter-branch --tree-filter CMD` (and the other filters), `git
// bisect run CMD ARGS`, and `git -c alias.NAME='!CMD' NAME ARGS`.
func GitRuns(cmd string) []string {
	if !strings.Contains(cmd, "git") {
		return nil
	}
	calls, _, ok := Calls(Unwrap(cmd))
	if !ok {
		return nil
	}
	var out []string
	shellAliases := map[string]string{} // git config alias.NAME '!CMD' on the line
	for _, c := range calls {
		w := unwrapCall(c.Words)
		if len(w) < 2 || w[0] != "git" {
			continue
		}
		i := gitSubIndex(w)
		if i >= len(w) {
			continue
		}
		sub, rest := w[i], w[i+1:]
		if body, ok := shellAliases[strings.ToLower(sub)]; ok {
			out = append(out, strings.TrimSpace(body+" "+strings.Join(rest, " ")))
		}
		if sub == "config" {
			if name, val, ok := configAlias(rest); ok && strings.HasPrefix(val, "!") {
				shellAliases[name] = val[1:]
			}
		}
		for k := 1; k+1 < i; k++ { // a shell alias given on the line
			if w[k] != "-c" {
				continue
			}
			name, val, ok := strings.Cut(w[k+1], "=")
			if n, isAlias := strings.CutPrefix(strings.ToLower(name), "alias."); ok && isAlias && n == strings.ToLower(sub) {
				if body, shell := strings.CutPrefix(val, "!"); shell {
					out = append(out, strings.TrimSpace(body+" "+strings.Join(rest, " ")))
				}
			}
		}
		switch sub {
		case "rebase":
			for k, a := range rest {
				switch {
				case (a == "-x" || a == "--exec") && k+1 < len(rest):
					out = append(out, rest[k+1])
				case strings.HasPrefix(a, "--exec="):
					out = append(out, strings.TrimPrefix(a, "--exec="))
				}
			}
		case "submodule":
			for k, a := range rest {
				if a == "foreach" {
					args := positional(rest[k+1:], nil)
					switch {
					case len(args) == 1:
						out = append(out, args[0]) // one word: a shell line
					case len(args) > 1:
						out = append(out, quoteWords(args))
					}
					break
				}
			}
		case "filter-branch":
			for k, a := range rest {
				if strings.HasSuffix(a, "-filter") && strings.HasPrefix(a, "--") && k+1 < len(rest) {
					out = append(out, rest[k+1])
				}
			}
		case "bisect":
			if len(rest) > 1 && rest[0] == "run" {
				out = append(out, quoteWords(rest[1:]))
			}
		}
	}
	return out
}

// commonGit is git's everyday commands: a line whose git subcommands are
// all here needs no alias lookup (two git calls) at the hook.
var commonGit = map[string]bool{"add": true, "am": true, "apply": true, "archive": true, "bisect": true, "blame": true, "branch": true, "bundle": true, "cat-file": true, "checkout": true, "cherry-pick": true, "clean": true, "clone": true, "commit": true, "config": true, "describe": true, "diff": true, "diff-tree": true, "fetch": true, "format-patch": true, "grep": true, "init": true, "log": true, "ls-files": true, "ls-remote": true, "ls-tree": true, "merge": true, "merge-base": true, "mv": true, "notes": true, "pull": true, "push": true, "read-tree": true, "rebase": true, "reflog": true, "remote": true, "reset": true, "restore": true, "rev-list": true, "rev-parse": true, "revert": true, "rm": true, "shortlog": true, "show": true, "stash": true, "status": true, "submodule": true, "switch": true, "tag": true, "update-ref": true, "worktree": true, "version": true, "help": true, "filter-branch": true, "gc": true, "fsck": true, "show-ref": true, "symbolic-ref": true, "var": true, "update-index": true}

// GitUncommon lists the git calls of a POSIX line whose subcommand is not
// one of git's everyday commands (it may be an alias), each as the words
// from the subcommand on.
func GitUncommon(cmd string) [][]string {
	if !strings.Contains(cmd, "git") {
		return nil
	}
	calls, _, ok := Calls(Unwrap(cmd))
	if !ok {
		return nil
	}
	var out [][]string
	for _, c := range calls {
		w := unwrapCall(c.Words)
		if len(w) < 2 || w[0] != "git" {
			continue
		}
		if i := gitSubIndex(w); i < len(w) && w[i] != "" && !commonGit[w[i]] {
			out = append(out, w[i:])
		}
	}
	return out
}

// isMergeBase reports whether a substitution is `git merge-base A B`
// naming HEAD (or @) among its revisions: the fork point of HEAD.
func isMergeBase(x *syntax.CmdSubst) bool {
	if len(x.Stmts) != 1 {
		return false
	}
	c, ok := x.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) < 4 {
		return false
	}
	ws := make([]string, len(c.Args))
	for i, a := range c.Args {
		s, ok := Literal(a)
		if !ok {
			return false
		}
		ws[i] = s
	}
	return ws[0] == "git" && ws[1] == "merge-base" && (hasWord(ws[2:], "HEAD") || hasWord(ws[2:], "@"))
}

// isRepoDir reports whether a word names a repository folder (git falls
// back to a path when no remote has the name: `git pull o main`).
func isRepoDir(name, cwd string, read func(string) (string, bool)) bool {
	if read == nil {
		return false
	}
	for _, h := range []string{"/.git/HEAD", "/HEAD"} {
		if _, ok := read(joinCwd(cwd, name+h)); ok {
			return true
		}
	}
	return false
}

// firstLine is a text's first line, trimmed, when ok and not empty.
func firstLine(text string, ok bool) (string, bool) {
	first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if first = strings.TrimSpace(first); !ok || first == "" {
		return "", false
	}
	return first, true
}
