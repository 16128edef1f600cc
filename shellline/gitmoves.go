package shellline

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Round 19 (t4): git commands that write the work tree from another
// revision without naming a file: `git reset --hard REV`, `git checkout
// BRANCH`, `git switch`, `git rebase`, `git merge`, `git cherry-pick`,
// `git revert`, `git read-tree -u`, and a patch git makes on the same
// line (`git diff A B | git apply`, `git diff ... > f && git apply f`).
// The words name revisions, not files: the agent hook asks git which
// files those revisions change (session/agentgitmoves.go), one git call
// per such command, none for any other line.

// GitMove is one such command, as the git query that lists the files it
// can write: `git diff --name-only ARGS -- PATHS` (Log false) or `git log
// --format= --name-only ARGS -- PATHS` (Log true). Args are revisions
// (never starting with "-") and the few options the query keeps
// (--cached, -N, --no-walk).
type GitMove struct {
	What string // the command, for a message ("git reset --hard relaxed")
	// Target is the revision whose files the work tree takes (reset,
	// checkout, switch, read-tree, merge, rebase, pull); "" for a replay
	// or a patch, whose result is no revision's content.
	Target string
	Log    bool
	Args   []string
	Paths  []string
}

// GitMoves lists the line's GitMoves; nil when it does not parse or has
// none. A revision word that is not literal, or starts with "-", is not
// asked about (nothing is run with the agent's options).
func GitMoves(cmd string) []GitMove {
	if !strings.Contains(cmd, "git") {
		return nil
	}
	_, f, ok := Calls(Unwrap(cmd))
	if !ok {
		return nil
	}
	var out []GitMove
	patches := map[string]GitMove{} // patch files a git command on the line writes
	cwd := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				stages := PipeStages(x)
				for i, s := range stages[1:] {
					if appliesStdin(s) {
						if m, ok := patchMaker(stages[i]); ok {
							out = append(out, m)
						}
					}
				}
			}
		case *syntax.Stmt:
			c, ok := x.Cmd.(*syntax.CallExpr)
			if !ok || len(c.Args) == 0 {
				return true
			}
			w := unwrapCall(callWords(c))
			if len(w) == 0 {
				return true
			}
			if (w[0] == "cd" || w[0] == "pushd") && len(w) == 2 && w[1] != "" {
				cwd = path.Join(cwd, w[1])
				if path.IsAbs(w[1]) {
					cwd = w[1]
				}
				return true
			}
			if w[0] != "git" {
				// patch -i FILE / patch < FILE of a patch made on the line.
				if u, ok := unpackOf(x, cwd); ok && u.Kind == "patch" && u.File != "" {
					if m, ok := patches[u.File]; ok {
						out = append(out, m)
					}
				}
				return true
			}
			if m, ok := patchMaker(x); ok {
				for _, r := range x.Redirs {
					if r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrAll || r.Op == syntax.AppAll || r.Op == syntax.RdrClob {
						if p, ok := Literal(r.Word); ok && p != "" {
							patches[joinCwd(cwd, p)] = m
						}
					}
				}
				if o := outputOpt(w); o != "" {
					patches[joinCwd(cwd, o)] = m
				}
				return true
			}
			if u, ok := unpackOf(x, cwd); ok && u.Kind == "patch" && u.File != "" {
				if m, ok := patches[u.File]; ok {
					out = append(out, m) // git apply / am of that file
				}
				return true
			}
			if m, ok := gitMove(w); ok {
				out = append(out, m)
			}
		}
		return true
	})
	return out
}

func joinCwd(cwd, p string) string {
	if cwd == "" || path.IsAbs(p) {
		return p
	}
	return path.Join(cwd, p)
}

// outputOpt is git's --output=FILE / -o FILE of a patch maker, "".
func outputOpt(w []string) string {
	for i, a := range w {
		switch {
		case strings.HasPrefix(a, "--output="):
			return strings.TrimPrefix(a, "--output=")
		case a == "--output" && i+1 < len(w):
			return w[i+1]
		}
	}
	return ""
}

// appliesStdin reports whether a pipeline stage applies a patch from its
// standard input: `git apply` (not --check/--stat), `git am`, `patch`.
func appliesStdin(s *syntax.Stmt) bool {
	u, ok := unpackOf(s, "")
	return ok && u.Kind == "patch" && u.File == "" && u.Text == ""
}

// revWord is a word the query may take as a revision: literal, no
// option, no space.
func revWord(a string) bool {
	return a != "" && !strings.HasPrefix(a, "-") && !strings.ContainsAny(a, " \t\n")
}

// patchMaker reads a statement that writes a patch of revisions: `git
// diff [--cached] [A [B]] [-- P...]`, `git show REV...`, `git
// format-patch [-N] REV|A..B`, `git log -p ...`.
func patchMaker(s *syntax.Stmt) (GitMove, bool) {
	c, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return GitMove{}, false
	}
	w := unwrapCall(callWords(c))
	if len(w) < 2 || w[0] != "git" {
		return GitMove{}, false
	}
	i := gitSubIndex(w)
	if i >= len(w) {
		return GitMove{}, false
	}
	sub, rest := w[i], w[i+1:]
	m := GitMove{What: "git " + sub}
	var revs []string
	count := ""
	dashes := false
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		switch {
		case dashes:
			if a != "" {
				m.Paths = append(m.Paths, a)
			}
		case a == "--":
			dashes = true
		case a == "--cached" || a == "--staged":
			if sub == "diff" {
				m.Args = append(m.Args, "--cached")
			}
		case (a == "-o" || a == "--output-directory" || a == "--output") && k+1 < len(rest):
			k++
		case len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "0123456789") == "":
			count = a // -1, -3: the last N commits
		case a == "-n" && k+1 < len(rest):
			count = "-" + rest[k+1]
			k++
		case strings.HasPrefix(a, "-"):
		case revWord(a):
			revs = append(revs, a)
		default:
			return GitMove{}, false // a revision the hook cannot read
		}
	}
	switch sub {
	case "diff", "diff-index", "diff-tree":
		if len(revs) > 2 {
			return GitMove{}, false
		}
		m.Args = append(m.Args, revs...)
		if sub == "diff-tree" && len(revs) == 1 && !strings.Contains(revs[0], "..") {
			m.Args = []string{revs[0] + "^", revs[0]}
		}
	case "show":
		if len(revs) == 0 {
			revs = []string{"HEAD"}
		}
		m.Log, m.Args = true, append([]string{"--no-walk", "-m", "--first-parent"}, revs...)
	case "format-patch":
		m.Log = true
		switch {
		case count != "":
			if len(revs) == 0 {
				revs = []string{"HEAD"}
			}
			m.Args = append([]string{count}, revs...)
		case len(revs) == 1 && !strings.Contains(revs[0], ".."):
			m.Args = []string{revs[0] + "..HEAD"}
		default:
			m.Args = revs
		}
	case "log":
		if len(revs) == 0 {
			revs = []string{"HEAD"}
		}
		m.Log = true
		if count != "" {
			m.Args = append(m.Args, count)
		}
		m.Args = append(m.Args, revs...)
	default:
		return GitMove{}, false
	}
	m.What = strings.Join(w, " ")
	return m, true
}

// gitMove reads a git call that moves the work tree to, or replays,
// other revisions.
func gitMove(w []string) (GitMove, bool) {
	i := gitSubIndex(w)
	if i >= len(w) {
		return GitMove{}, false
	}
	sub, rest := w[i], w[i+1:]
	what := strings.Join(w, " ")
	// The options of each that take a value (the value is no revision).
	valued := map[string]bool{"-F": true, "-s": true, "-X": true, "--strategy": true, "--strategy-option": true, "--into-name": true, "--cleanup": true, "--exec": true, "--conflict": true, "--pathspec-from-file": true, "--mainline": true, "--prefix": true, "--index-output": true}
	switch sub {
	case "merge", "cherry-pick", "revert", "pull":
		valued["-m"] = true // a message or a mainline (read-tree's -m is a flag)
	case "rebase":
		valued["-x"] = true // a command to exec (cherry-pick's -x is a flag)
	}
	var pos []string
	flags := map[string]string{}
	dashes := false
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		switch {
		case dashes:
			return GitMove{}, false // paths: a restore (gitRestores)
		case a == "--":
			dashes = true
		case a == "-":
			pos = append(pos, a) // the branch before: @{-1}
		case (a == "-b" || a == "-B" || a == "-c" || a == "-C" || a == "--orphan" || a == "--onto") && k+1 < len(rest):
			flags[a] = rest[k+1]
			k++
		case strings.HasPrefix(a, "--onto="):
			flags["--onto"] = strings.TrimPrefix(a, "--onto=")
		case valued[a] && k+1 < len(rest):
			k++
		case strings.HasPrefix(a, "-"):
			flags[a] = ""
		default:
			pos = append(pos, a)
		}
	}
	has := func(fs ...string) bool {
		for _, f := range fs {
			if _, ok := flags[f]; ok {
				return true
			}
		}
		return false
	}
	tree := func(rev string) (GitMove, bool) { // the tree becomes rev's
		if !revWord(rev) || strings.EqualFold(rev, "HEAD") || rev == "@" {
			return GitMove{}, false
		}
		return GitMove{What: what, Target: rev, Args: []string{"HEAD", rev + "^{commit}"}}, true
	}
	merged := func(rev string) (GitMove, bool) { // rev's changes since the fork
		if !revWord(rev) {
			return GitMove{}, false
		}
		return GitMove{What: what, Target: rev, Args: []string{"HEAD..." + rev}}, true
	}
	switch sub {
	case "reset":
		if !has("--hard", "--keep", "--merge") || len(pos) != 1 {
			return GitMove{}, false
		}
		return tree(pos[0])
	case "checkout", "switch":
		if has("--orphan") {
			return GitMove{}, false
		}
		if has("-b", "-B", "-c", "-C") {
			if len(pos) == 1 {
				return tree(pos[0])
			}
			return GitMove{}, false // a new branch at HEAD
		}
		if len(pos) != 1 {
			return GitMove{}, false // checkout REV PATH: gitRestores
		}
		if pos[0] == "-" {
			return tree("@{-1}")
		}
		return tree(pos[0])
	case "read-tree":
		if !has("-u") || len(pos) == 0 {
			return GitMove{}, false
		}
		return tree(pos[len(pos)-1])
	case "merge":
		if has("--abort", "--continue", "--quit") || len(pos) != 1 {
			return GitMove{}, false
		}
		return merged(pos[0])
	case "rebase":
		if has("--abort", "--continue", "--quit", "--skip", "--edit-todo", "--show-current-patch") {
			return GitMove{}, false
		}
		if onto, ok := flags["--onto"]; ok {
			return merged(onto)
		}
		if len(pos) == 0 {
			return merged("@{upstream}")
		}
		return merged(pos[0])
	case "pull":
		switch {
		case len(pos) == 2 && pos[0] == ".":
			return merged(pos[1])
		case len(pos) == 2 && revWord(pos[0]) && !strings.ContainsAny(pos[0], "/:"):
			return merged(pos[0] + "/" + pos[1])
		case len(pos) == 0:
			return merged("@{upstream}")
		}
		return GitMove{}, false // a URL or path: fetched by the line itself (left open)
	case "cherry-pick", "revert":
		if has("--abort", "--continue", "--quit", "--skip") || len(pos) == 0 {
			return GitMove{}, false
		}
		args := []string{"--no-walk", "-m", "--first-parent"}
		for _, p := range pos {
			if !revWord(p) {
				return GitMove{}, false
			}
			args = append(args, p)
		}
		return GitMove{What: what, Log: true, Args: args}, true
	}
	return GitMove{}, false
}
