package shellline

import (
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"mvdan.cc/sh/v3/syntax"
)

// The agent hooks deny a literal write under the git directory, but
// sessiongate's files there (the database, the unchecked-stop note of
// stopnote/) were deleted through what the line computes: `rm
// "$(git rev-parse --git-dir)/sessiongate/unchecked-stops.jsonl"`, a
// variable holding that, a glob (`rm .g*/s*/u*`), `find . -name
// 'unchecked*' -exec rm {} +`, or a Python/Node script that asks git for
// the folder. Deleting the note launders a stop let through a locked
// database. DeletesSessiongateFiles reads a line's deleting commands
// (rm, unlink, mv, truncate, shred, find -delete/-exec rm, a redirect
// that truncates, an interpreter's remove/unlink) and says when their
// target is such a computed or matched path. What only run time knows (a
// path read from a file) stays open (docs/security.md).

// Files sessiongate keeps beside its database, by name.
var keptFiles = []string{"unchecked-stops.jsonl", "sessiongate.db", "sessiongate.db-wal", "sessiongate.db-shm", "sessiongate.db-journal", "event.key"}

// gitDirAsked is a git command that prints the git directory or a path in it.
var gitDirAsked = lazyregexp.New(`rev-parse\b[^;&|)]*--(absolute-git-dir|git-dir|git-common-dir|git-path)\b`)

// interpDelete is an interpreter call that removes, moves or truncates a file.
var interpDelete = lazyregexp.New(`\b(os\.(remove|unlink|rename|replace|truncate|rmdir)|shutil\.(rmtree|move)|unlinkSync|rmSync|rmdirSync|renameSync|truncateSync|fs\.(unlink|rm|rename|truncate)|\.unlink\(|unlink\s*\(?|File\.delete|FileUtils\.(rm|mv))`)

// interpNamesGitDir is code that names the git directory or sessiongate's files.
var interpNamesGitDir = lazyregexp.New(`\.git\b|git-dir|git-common-dir|git_dir|unchecked|sessiongate`)

var deleters = map[string]bool{"rm": true, "unlink": true, "mv": true, "truncate": true, "shred": true, "srm": true}

// DeletesSessiongateFiles says how a line deletes one of sessiongate's
// files by a path it computes or matches ("" when it does not).
func DeletesSessiongateFiles(line string) string {
	_, f, ok := Calls(line)
	if !ok {
		return ""
	}
	asksGitDir := gitDirAsked.MatchString(line)
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		if why != "" {
			return false
		}
		st, ok := n.(*syntax.Stmt)
		if !ok {
			return true
		}
		for _, r := range st.Redirs {
			switch r.Op {
			case syntax.RdrOut, syntax.ClbOut, syntax.RdrAll:
				if t := rawWord(line, r.Word); suspectTarget(t, asksGitDir) {
					why = "a redirect truncates " + t
					return false
				}
			}
		}
		if code, ok := stmtInterpreterCode(st); ok && interpDelete.MatchString(code) && interpNamesGitDir.MatchString(code) {
			why = "an interpreter script deletes a file under the git directory or one of sessiongate's files"
			return false
		}
		call, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		var args []string
		for _, w := range call.Args {
			args = append(args, rawWord(line, w))
		}
		prog := CommandName(strings.Trim(args[0], `"'`))
		switch {
		case deleters[prog]:
			for _, a := range args[1:] {
				if !strings.HasPrefix(a, "-") && suspectTarget(a, asksGitDir) {
					why = "`" + prog + " " + a + "` deletes what may be sessiongate's file in the git directory"
					return false
				}
			}
		case prog == "find":
			why = findDeletesKept(args[1:], asksGitDir)
		}
		return why == ""
	})
	return why
}

// rawWord is a word as written on the line (quotes and expansions kept).
func rawWord(line string, w *syntax.Word) string {
	if w == nil {
		return ""
	}
	s, e := int(w.Pos().Offset()), int(w.End().Offset())
	if s < 0 || e > len(line) || s > e {
		return WordText(w)
	}
	return line[s:e]
}

// suspectTarget: a delete target that names sessiongate's file, expands
// a git-directory path asked of git on the line, or is a glob that can
// match the git directory.
func suspectTarget(t string, asksGitDir bool) bool {
	u := strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(t)
	if strings.Contains(u, "unchecked-stops") {
		return true // no file of the agent's own has the note's name
	}
	// A literal path to a sessiongate.db elsewhere (a test's folder) is
	// resolved by the git-directory write check; one behind an expansion
	// or a glob is not.
	if strings.ContainsAny(u, "$`*?[") {
		for _, name := range keptFiles {
			if strings.Contains(u, name) || strings.Contains(u, "/sessiongate/") {
				return true
			}
		}
	}
	if asksGitDir && (strings.Contains(u, "$") || strings.Contains(u, "`")) {
		return true
	}
	if !strings.ContainsAny(u, "*?[") {
		return false
	}
	first := strings.TrimPrefix(u, "./")
	if i := strings.IndexByte(first, '/'); i >= 0 {
		first = first[:i]
	} else {
		// One component: a glob that matches a file sessiongate keeps, or
		// the git directory itself (find .[g]it -delete).
		if ok, _ := path.Match(first, ".git"); ok && strings.HasPrefix(first, ".") {
			return true
		}
		for _, name := range keptFiles {
			if ok, _ := path.Match(first, name); ok && first != "*" {
				return true
			}
		}
		return false
	}
	// The shell's globs match a dot file only by a literal leading dot.
	ok, _ := path.Match(first, ".git")
	return ok && strings.HasPrefix(first, ".")
}

// findDeletesKept says how find's arguments delete sessiongate's files.
func findDeletesKept(args []string, asksGitDir bool) string {
	deletes := false
	for i, a := range args {
		switch a {
		case "-delete":
			deletes = true
		case "-exec", "-execdir", "-ok", "-okdir":
			if i+1 < len(args) && deleters[CommandName(strings.Trim(args[i+1], `"'`))] {
				deletes = true
			}
		}
	}
	if !deletes {
		return ""
	}
	// Its start points, as rm's targets: `find .g*/s* -type f -delete`
	// empties sessiongate's folder with no name test at all.
	for _, a := range args {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		if suspectTarget(a, asksGitDir) {
			return "find deletes under " + a + ", which may be the git directory"
		}
	}
	for i, a := range args {
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			// A name test whose pattern matches sessiongate's file.
			switch a {
			case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
				if i+1 < len(args) {
					p := strings.NewReplacer(`"`, "", `'`, "", `\`, "").Replace(args[i+1])
					for _, name := range keptFiles {
						if ok, _ := path.Match(path.Base(p), name); ok && path.Base(p) != "*" {
							return "find deletes files named " + p + ", which matches sessiongate's " + name
						}
					}
				}
			}
			continue
		}
		if i > 0 && strings.HasPrefix(args[i-1], "-") {
			continue // an option's value
		}
		if asksGitDir && (strings.Contains(a, "$") || strings.Contains(a, "`")) {
			return "find deletes under " + a + ", the git directory"
		}
	}
	return ""
}
