package shellline

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Round 18 (t4): copies into a folder, and chmod that only adds bits.

// addsOnly reports whether a chmod mode only adds permissions (`u+w`,
// `+x`, `a+rX,g+w`): it takes no read, write or execute bit away, so it
// cannot make a protected file unreadable or a git hook stop running.
// Numeric modes and `-`/`=` are judged as writes of the files.
func addsOnly(mode string) bool {
	if mode == "" {
		return false
	}
	for _, clause := range strings.Split(mode, ",") {
		who, perms, ok := strings.Cut(clause, "+")
		if !ok || strings.Trim(who, "ugoa") != "" || perms == "" || strings.Trim(perms, "rwxXst") != "" {
			return false
		}
	}
	return true
}

// intoFolder reads a copy into a folder: `cp SRC... .`, `rsync SRC .`,
// `cp -t DIR SRC...`, `install -t DIR`, `mv --target-directory=DIR`. It
// returns what lands there: DIR/base(SRC) for each source, or DIR itself
// (any name) for a source copied by its contents (`cp -r x/. .`, rsync's
// `x/`). ok is false for a copy to a named file or to a folder other
// than the line's own (`cp -r a build/`: build is the write, as before).
func intoFolder(name string, args, ops []string) (func([]string) []string, []string, bool) {
	dir := ""
	var srcs []string
	skip := ""
	for i, a := range args {
		switch {
		case (a == "-t" || a == "--target-directory") && i+1 < len(args):
			dir, skip = args[i+1], args[i+1]
		case strings.HasPrefix(a, "--target-directory="):
			dir = strings.TrimPrefix(a, "--target-directory=")
		}
	}
	for _, o := range ops {
		if skip != "" && o == skip {
			skip = ""
			continue
		}
		srcs = append(srcs, o)
	}
	if dir == "" {
		if len(ops) < 2 {
			return nil, nil, false
		}
		dir, srcs = ops[len(ops)-1], ops[:len(ops)-1]
		if c := path.Clean(dir); c != "." {
			return nil, nil, false
		}
	}
	if name == "ln" || len(srcs) == 0 {
		return nil, nil, false
	}
	return func(srcs []string) []string {
		var out []string
		for _, s := range srcs {
			b := path.Base(s)
			if b == "." || b == "/" || name == "rsync" && strings.HasSuffix(s, "/") {
				out = append(out, dir) // its contents: any name
				continue
			}
			out = append(out, path.Join(dir, b))
		}
		return out
	}, srcs, true
}

// outsideVars name folders outside the work tree: the temp folders the
// agent's tools are given. A word starting with one the line does not
// set (`find "$TMPDIR" -name '*.md' -delete`) is not read as any file;
// a line that sets it is read with its value. (A value exported in an
// earlier tool call is not seen: docs/security.md.)
var outsideVars = map[string]bool{"TMPDIR": true, "TMP": true, "TEMP": true, "RUNNER_TEMP": true}

// outsideVar reports whether p is $NAME or "$NAME..." of an outside
// variable the line has not set.
func outsideVar(p syntax.WordPart, vars map[string][][]piece) bool {
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) > 0 {
		p = dq.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	if !ok || pe.Param == nil || pe.Exp != nil || pe.Index != nil || pe.Length || pe.Slice != nil || pe.Repl != nil || pe.Excl {
		return false
	}
	_, set := vars[pe.Param.Value]
	return outsideVars[pe.Param.Value] && !set
}

// gitRestores lists the paths `git checkout REV -- PATH...` or `git
// restore --source=REV PATH...` writes from another revision (a
// protected file restored from before it was last accepted is a change
// of it). Without a revision, or with HEAD, git restores what is
// committed or staged now: not listed (`git checkout -- .` discards
// the agent's own edits). args: git's arguments.
func gitRestores(args []string) []string {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if (args[i] == "-C" || args[i] == "-c" || args[i] == "--git-dir" || args[i] == "--work-tree") && i+1 < len(args) {
			i++
		}
		i++
	}
	if i >= len(args) {
		return nil
	}
	sub, rest := args[i], args[i+1:]
	switch sub {
	case "checkout-index", "update-index":
		return indexWrites(sub, rest)
	}
	rev := ""
	var words []string
	dashes := -1
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		switch {
		case dashes >= 0:
			words = append(words, a)
		case a == "--":
			dashes = len(words)
		case sub == "restore" && (a == "-s" || a == "--source") && k+1 < len(rest):
			rev = rest[k+1]
			k++
		case sub == "restore" && strings.HasPrefix(a, "--source="):
			rev = strings.TrimPrefix(a, "--source=")
		case sub == "restore" && strings.HasPrefix(a, "-s") && len(a) > 2:
			rev = a[2:]
		case sub == "checkout" && (a == "-b" || a == "-B" || a == "--orphan"):
			return nil // a new branch
		case strings.HasPrefix(a, "-"):
		default:
			words = append(words, a)
		}
	}
	var paths []string
	switch sub {
	case "checkout":
		switch {
		case dashes > 0:
			rev, paths = words[0], words[dashes:]
		case dashes < 0 && len(words) > 1:
			rev, paths = words[0], words[1:]
		}
	case "restore":
		paths = words
	case "reset":
		// git reset REV -- P: P's staged entry from REV, which a later
		// `git checkout -- P` writes (round 23)
		switch {
		case dashes > 0:
			rev, paths = words[0], words[dashes:]
		case dashes < 0 && len(words) > 1:
			rev, paths = words[0], words[1:]
		}
	}
	if rev == "" || strings.EqualFold(rev, "HEAD") || rev == "@" {
		return nil
	}
	return paths
}

// chmodAddsOnly reports whether a chmod call's mode (its first operand)
// only adds bits. A glob or variable operand of such a chmod is not
// judged (`chmod -R u+w *`); a literal one still is (Writes).
func chmodAddsOnly(args []string) bool {
	for _, a := range args[1:] {
		if a == "-R" || a == "--recursive" || a == "-v" || a == "-c" || a == "-f" {
			continue
		}
		return addsOnly(a)
	}
	return false
}

// indexWrites lists what `git checkout-index` writes (its paths, every
// file with -a, under --prefix) and the paths `git update-index` stages
// a content of its own for (--cacheinfo, --index-info from input not
// known: "."): the index is what `git checkout -- P` and the next
// commit take, so a protected file staged this way is a change of it
// (round 23: `git update-index --cacheinfo ...,P && git checkout-index
// -f P` was allowed).
func indexWrites(sub string, rest []string) []string {
	var paths []string
	prefix := ""
	all, info := false, false
	for k := 0; k < len(rest); k++ {
		a := rest[k]
		switch {
		case a == "--":
		case sub == "checkout-index" && (a == "-a" || a == "--all"):
			all = true
		case sub == "checkout-index" && strings.HasPrefix(a, "--prefix="):
			prefix = strings.TrimPrefix(a, "--prefix=")
		case sub == "update-index" && a == "--cacheinfo" && k+1 < len(rest):
			if f := strings.Split(rest[k+1], ","); len(f) == 3 {
				paths = append(paths, f[2])
				k++
			} else if k+3 < len(rest) {
				paths = append(paths, rest[k+3])
				k += 3
			}
		case sub == "update-index" && (a == "--index-info" || a == "--stdin"):
			info = true
		case strings.HasPrefix(a, "-"):
		case sub == "checkout-index":
			paths = append(paths, a)
		}
	}
	if all || info {
		paths = append(paths, ".")
	}
	if prefix != "" {
		if strings.HasSuffix(prefix, "/") && !strings.HasPrefix(prefix, ".") {
			return nil // an export into a folder of its own
		}
		for i, p := range paths {
			paths[i] = prefix + p
		}
	}
	return paths
}
