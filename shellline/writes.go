package shellline

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Writes lists the files a shell command line writes by plain means:
// output redirections (>, >>, &>, >|) and the file operands of the
// commands that exist to write files (tee, touch, rm, truncate, cp, mv, ln,
// install, sed -i, dd of=). Only words the shell would not expand count
// (a quoted or plain literal; "$f" is unknown and skipped), and /dev/...
// never counts. ok is false when the line does not parse as shell.
//
// It is not a sandbox: a program can write files any way it likes (an
// editor, a script, python -c). It catches the common way an agent writes
// code through the shell (`cat > src/x.go <<EOF`), so that the start gates
// mean the same for the shell as for the Write tool.
func Writes(cmd string) (paths []string, ok bool) {
	// The parse Calls keeps (the other questions of a hook ask it too),
	// of the script when the line is one `sh -c SCRIPT`.
	_, f, ok := Calls(Unwrap(cmd))
	if !ok {
		return nil, false
	}
	// cd moves where the relative paths after it land (`cd .claude &&
	// echo {} > settings.json`); "" is where the line starts.
	cwd := ""
	dotGlob := dotGlobOn.MatchString(cmd)
	add := func(p string) {
		if p == "" || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "-") {
			return
		}
		if cwd != "" && !path.IsAbs(p) {
			p = path.Join(cwd, p)
		}
		paths = append(paths, p)
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Stmt:
			if code, ok := stmtInterpreterCode(x); ok {
				for _, p := range interpreterWrites(code) {
					add(p)
				}
			}
		case *syntax.Redirect:
			switch x.Op {
			case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut:
				// Any descriptor: `exec 3>F` truncates F as `>F` does, and
				// `1<>F` writes into it (round 20).
				if p, lit := Literal(x.Word); lit {
					add(p)
				}
			}
		case *syntax.CallExpr:
			var args []string
			for _, bw := range x.Args {
				for _, w := range braceWords(bw) {
					s, lit := Literal(w)
					if !lit {
						s = "" // an expansion: unknown, skipped
						if g, ok := globPattern(w); ok {
							s = globMark + g // find reads its start points' patterns
						}
					}
					args = append(args, s)
				}
			}
			for _, script := range wrappedScript(args) {
				// `su -c SCRIPT`, `flock L -c SCRIPT`, `watch SCRIPT`...
				if inner, ok := Writes(script); ok {
					for _, p := range inner {
						add(p)
					}
				}
			}
			args = unwrapCall(args)
			if len(args) == 0 || CommandName(args[0]) != "find" {
				for i, a := range args {
					if strings.HasPrefix(a, globMark) {
						args[i] = "" // a glob: unknown, as before
					}
				}
			}
			if script, ok := shellScript(args); ok {
				// `env sh -c '...'`: the script's writes are the line's.
				if inner, ok := Writes(script); ok {
					for _, p := range inner {
						add(p)
					}
				}
			}
			if len(args) == 2 && (args[0] == "cd" || args[0] == "pushd") && args[1] != "" && args[1] != "-" {
				if path.IsAbs(args[1]) {
					cwd = args[1]
				} else {
					cwd = path.Join(cwd, args[1])
				}
			}
			ops := append(writtenOperands(args), moreWrittenOperands(args)...)
			if len(args) > 0 && args[0] == "find" {
				ops = append(findDeletes(args[1:], dotGlob), findExecWrites(args[1:])...)
			}
			for _, p := range ops {
				add(p)
			}
		}
		return true
	})
	return paths, true
}

// writtenOperands picks the file operands a write command changes.
func writtenOperands(args []string) []string {
	if len(args) == 0 {
		return nil
	}
	name := CommandName(args[0])
	if name == "find" {
		return findDeletes(args[1:], false)
	}
	var ops []string // operands, flags dropped
	for i := 1; i < len(args); i++ {
		a := args[i]
		if name == "truncate" && (a == "-s" || a == "-r" || a == "--size" || a == "--reference") {
			i++ // the size or reference file, not a file written
			continue
		}
		if name == "sqlite3" && (a == "-cmd" || a == "-separator" || a == "-newline" || a == "-nullvalue") {
			i++ // the option's value
			continue
		}
		if a != "" && !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	switch name {
	case "tee", "touch", "rm", "truncate", "shred", "unlink":
		return ops
	case "mv":
		if dir, srcs, ok := intoFolder(name, args[1:], ops); ok {
			return append(srcs, dir(srcs)...)
		}
		return ops // the sources go away, the destination changes
	case "chmod", "chown", "chgrp": // the first operand is the mode or owner
		for _, a := range args[1:] {
			if strings.HasPrefix(a, "-") && strings.Trim(a[1:], "rwxXst") == "" && len(a) > 1 {
				return ops // chmod -x FILE: the mode looked like a flag
			}
		}
		if len(ops) > 1 {
			return ops[1:]
		}
	case "cp", "ln", "install", "rsync":
		if dir, srcs, ok := intoFolder(name, args[1:], ops); ok {
			return dir(srcs) // indirectwrites.go
		}
		if len(ops) > 1 {
			return ops[len(ops)-1:]
		}
	case "sed", "perl":
		for _, a := range args[1:] {
			if a == "-i" || strings.HasPrefix(a, "-i") && name == "sed" || a == "--in-place" || strings.HasPrefix(a, "-pi") || strings.HasPrefix(a, "-i.") {
				if len(ops) > 1 {
					return ops[1:] // the first operand is the script
				}
			}
		}
	case "sqlite3":
		// sqlite3 DB [SQL]: the database is written when the SQL writes, or
		// when the SQL is not on the line (read from standard input).
		if containsStr(args, "-readonly") || len(ops) == 0 {
			return nil
		}
		db, sql := ops[0], ""
		if name == "sqlite3" && len(args) > 2 {
			for i := 1; i < len(args); i++ {
				if args[i] == "-cmd" || args[i] == "-separator" || args[i] == "-newline" || args[i] == "-nullvalue" {
					i++
					continue
				}
				if args[i] == db {
					if i+1 < len(args) {
						sql = strings.Join(args[i+1:], " ")
					}
					break
				}
			}
		}
		if sql == "" || sqlWrites(sql) {
			return []string{db}
		}
		return nil
	case "git":
		return gitRestores(args[1:]) // indirectwrites.go
	case "dd":
		for _, a := range args[1:] {
			if p, ok := strings.CutPrefix(a, "of="); ok {
				return []string{p}
			}
		}
	}
	return nil
}

// shellScript is the script of a `sh -c SCRIPT` call (bash, dash, zsh,
// ksh, busybox's sh alike), when it is a literal.
func shellScript(args []string) (string, bool) {
	if len(args) < 3 {
		return "", false
	}
	switch args[0] {
	case "sh", "bash", "dash", "zsh", "ksh", "ash":
	default:
		return "", false
	}
	for i, a := range args[1 : len(args)-1] {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			return args[i+2], args[i+2] != ""
		}
	}
	return "", false
}

// sqlWrites reports whether SQL text holds a statement that changes a
// database (a dot-command or a SELECT does not).
func sqlWrites(sql string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(sql), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r == '_')
	}) {
		switch w {
		case "insert", "update", "delete", "replace", "drop", "create", "alter", "attach", "vacuum", "pragma", "reindex", "upsert":
			return true
		}
	}
	return false
}

// sessiongateFiles are names find could meet under .git/sessiongate.
var sessiongateFiles = []string{"sessiongate", "sessiongate.db", "sessiongate.db-wal", "sessiongate.db-shm", "conversations", "0123abcd.json"}

// findDeletes lists what `find START... EXPR` deletes (-delete, or -exec
// rm/unlink/shred): its start points other than "." (`find .git/sessiongate
// -name '*.db' -delete`); a file its literal -name names at the start; and
// .git/sessiongate when a start point holds .git, it is not pruned, and no
// -name pattern rules out sessiongate's files (`find . -name '*.db'
// -delete` takes the database; `find . -name '*.pyc' -delete` does not).
func findDeletes(args []string, dotGlob bool) []string {
	var starts []string
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" || a == `\(` {
			break
		}
		starts = append(starts, a)
	}
	expr := args[i:]
	deletes, pruned, intoGit := false, false, false
	var names, literal []string // patterns; -name values that are plain names
	unnamed := true
	for k := 0; k < len(expr); k++ {
		switch a := expr[k]; a {
		case "-delete":
			deletes = true
		case "-exec", "-execdir", "-ok", "-okdir":
			if k+1 < len(expr) {
				switch CommandName(expr[k+1]) {
				case "rm", "unlink", "shred", "truncate", "mv":
					deletes = true
				}
			}
		case "-prune":
			pruned = true
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex":
			if k+1 < len(expr) {
				k++
				unnamed = false
				names = append(names, expr[k])
				if (a == "-name" || a == "-iname") && expr[k] != "" && !strings.ContainsAny(expr[k], "*?[/") {
					literal = append(literal, expr[k])
				}
				intoGit = intoGit || a != "-name" && a != "-iname" && strings.Contains(expr[k], ".git")
			}
		}
	}
	if !deletes {
		return nil
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	var out []string
	for _, s := range starts {
		if g, ok := strings.CutPrefix(s, globMark); ok {
			// A glob start point holds the git directory only when it can
			// match it: `*` matches no dot folder, so `find ./*/dist
			// -delete` stays in the work tree's sub-folders.
			if !globReachesGitDir(g, dotGlob) || pruned {
				continue
			}
			s = "."
		}
		clean := path.Clean(s)
		if clean != "." {
			out = append(out, s)
		}
		for _, n := range literal {
			out = append(out, path.Join(s, n))
		}
		holdsGit := clean == "." || !strings.Contains(clean, "/") && !strings.HasPrefix(clean, ".git")
		if clean != "." && !path.IsAbs(clean) {
			holdsGit = false // a sub-folder of the work tree holds no .git
		}
		if !holdsGit || pruned {
			continue
		}
		reaches := unnamed || intoGit
		for _, n := range names {
			for _, f := range sessiongateFiles {
				if m, err := path.Match(n, f); err == nil && m || strings.Contains(n, "sessiongate") {
					reaches = true
				}
			}
		}
		if reaches {
			out = append(out, path.Join(s, ".git", "sessiongate"))
		}
	}
	return out
}
