package shellline

import (
	"path"
	"slices"
	"strings"
)

// treeWrite names what a line added to a test script writes into the
// repository's tree as a whole folder or archive ("the files of fixed/
// (cp -r) into ."), "" when it writes none there. Lazy pass 25: `cp -r
// tests/data/fixed/. .` (also rsync, tar x, unzip, cpio -i, 7z x,
// `python3 -m zipfile -e`, `git checkout REV -- .`, `git stash pop`,
// `git cherry-pick -n`) above the unchanged exec line put a working
// greet.py in place for the gate's run and verify's rerun: the files it
// writes are not named on the line, so writesSource read nothing. A
// folder a build writes, a dot folder, a data folder (testdata/,
// fixtures/, data/) or a place outside the repository is the run's own:
// unpacking fixtures there is honest.
//
// The line is read alone, from the repository's folder; ReadScript reads
// it where it stands in its script (the variables and cds above it).
func treeWrite(line string) string {
	if !strings.ContainsAny(line, "crtuz7gpfsi") {
		return ""
	}
	return ReadScript(line).anyWrite()
}

// callTreeWrite is treeWrite for one simple command whose words w (its
// wrappers stripped) have their run-time places filled in (placeWalk.words),
// run in the folder cwd.
func callTreeWrite(w []string, cwd string) string {
	if len(w) == 0 {
		return ""
	}
	name := CommandName(w[0])
	if name == "find" { // find ... -exec cp -r {} . \;
		if i := slices.Index(w, "-exec"); i > 0 && i+1 < len(w) {
			w, name = w[i+1:], CommandName(w[i+1])
			if j := slices.IndexFunc(w, func(s string) bool { return s == ";" || s == `\;` || s == "+" }); j > 0 {
				w = w[:j]
			}
			if name == "cp" || name == "mv" || name == "install" {
				if d := joinPlace(cwd, lastArg(w)); lastArg(w) != "" && !ownDest(d) {
					return "the files find hands to " + name + " into " + d
				}
			}
			return ""
		}
	}
	dest, what := "", ""
	args, flags := splitArgs(w[1:])
	switch name {
	case "cp", "rsync", "ditto":
		rec := name == "ditto" || hasFlag(flags, "r", "R", "a") || slices.Contains(flags, "--recursive") || slices.Contains(flags, "--archive")
		if !rec || len(args) < 2 {
			return ""
		}
		var from []string
		for _, a := range args[:len(args)-1] {
			from = append(from, shownPlace(a))
		}
		dest, what = args[len(args)-1], "the files of "+strings.Join(from, " ")+" ("+name+" -r)"
		if t := flagValue(w[1:], "-t", "--target-directory"); t != "" {
			dest = t
		}
	case "tar", "bsdtar", "gtar":
		x := hasFlag(flags, "x") || slices.Contains(flags, "--extract") || slices.Contains(flags, "--get")
		if len(w) > 1 && !strings.HasPrefix(w[1], "-") && strings.Contains(w[1], "x") {
			x = true // tar xf: the old style, letters without a dash
		}
		if !x {
			return ""
		}
		dest, what = ".", "an archive (tar x)"
		if d := flagValue(w[1:], "-C", "--directory"); d != "" {
			dest = d
		}
	case "unzip":
		if hasFlag(flags, "l", "t", "v", "Z") {
			return "" // lists or tests the archive
		}
		dest, what = ".", "an archive (unzip)"
		if d := flagValue(w[1:], "-d", ""); d != "" {
			dest = d
		}
	case "cpio":
		if !hasFlag(flags, "i") && !slices.Contains(flags, "--extract") {
			return ""
		}
		dest, what = ".", "an archive (cpio -i)"
		if d := flagValue(w[1:], "-D", "--directory"); d != "" {
			dest = d
		}
	case "7z", "7za", "7zr":
		if len(args) == 0 || args[0] != "x" && args[0] != "e" {
			return ""
		}
		dest, what = ".", "an archive (7z x)"
		for _, f := range flags {
			if strings.HasPrefix(f, "-o") && len(f) > 2 {
				dest = f[2:]
			}
		}
	case "python", "python3", "python2", "pypy3":
		if i := slices.Index(w, "-m"); i > 0 && i+2 < len(w) && (w[i+1] == "zipfile" || w[i+1] == "tarfile") && (w[i+2] == "-e" || w[i+2] == "--extract") {
			dest, what = w[len(w)-1], "an archive (python3 -m "+w[i+1]+" -e)"
		} else {
			return ""
		}
	case "git":
		if dest, what = gitTreeWrite(w[1:]); dest == "" {
			return ""
		}
	default:
		return ""
	}
	if dest == "" {
		return ""
	}
	if dest = joinPlace(cwd, dest); !ownDest(dest) {
		return what + " into " + dest
	}
	return ""
}

// shownPlace is a word as a message shows it: a place the walk filled in
// (placeWalk.word) said in words.
func shownPlace(a string) string {
	switch {
	case strings.HasPrefix(a, "^"):
		return path.Clean(a[1:])
	case a == madeDir || strings.HasPrefix(a, madeDir+"/"):
		return "a folder mktemp -d made" + strings.TrimPrefix(a, madeDir)
	case strings.HasPrefix(a, "$"):
		return "a place set at run time"
	}
	return a
}

// joinPlace is the place p names when the shell is in cwd: a place
// marked as the repository's own (^: `"$R"` where R was set to the
// repository's folder) does not move with cwd; an absolute or run-time
// place stays itself.
func joinPlace(cwd, p string) string {
	switch {
	case strings.HasPrefix(p, "^"):
		return path.Clean(p[1:])
	case p == "" || path.IsAbs(p) || strings.HasPrefix(p, "$") || strings.HasPrefix(p, "~"):
		return p
	case strings.HasPrefix(cwd, "^"):
		return path.Join(cwd[1:], p)
	}
	return path.Join(cwd, p)
}

// maybeNowhere marks a word that is one expansion alone ("$dir",
// "$(cat f)"): empty when the variable is unset or the command prints
// nothing. `cd ""` and `git -C ""` succeed and stay where they were, so
// `cd "$FIXTURES_DIR" && tar xf fixed.tar` with the variable unset unpacked
// into the repository (played: COMPLETE, verify passing). As a write's own
// destination it is still a place the line does not name: `tar -C ""` and
// `cp -r x ""` fail.
const maybeNowhere = "$?"

// maybeEmpty reports whether a word's text is a single expansion that may
// be empty: not `$(mktemp ...)`, not `${x:?}` (the shell stops when x is
// unset or empty), nothing literal beside it ("$TMP/go" is /go when TMP is
// empty: outside the repository).
func maybeEmpty(raw string) bool {
	r := strings.TrimSuffix(strings.TrimPrefix(raw, `"`), `"`)
	if strings.Contains(r, "mktemp") || strings.Contains(r, ":?") || !strings.HasPrefix(r, "$") {
		return false
	}
	switch {
	case strings.HasPrefix(r, "$(") && strings.HasSuffix(r, ")") && strings.Count(r, "$(") == 1:
		return true
	case strings.HasPrefix(r, "${") && strings.HasSuffix(r, "}") && strings.Count(r, "$") == 1:
		return !strings.ContainsAny(r[2:len(r)-1], ":-+=/%#") // ${x}, not ${x:-fx} or ${x%/*}
	default:
		return strings.Count(r, "$") == 1 && strings.Trim(r[1:], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == ""
	}
}

// repoPlace reports whether a word's text names the repository's own
// folder when it runs.
func repoPlace(raw string) bool {
	l := strings.ToLower(raw)
	for _, k := range []string{"pwd", "show-toplevel", "show-cdup", "dirname", "bash_source", "$0", "${0", "realpath .", "readlink -f ."} {
		if strings.Contains(l, k) {
			return true
		}
	}
	return false
}

// gitTreeWrite is the folder a git command in a test script writes other
// commits' files into, and what it is; "" when it writes none.
func gitTreeWrite(a []string) (dest, what string) {
	// -C names the work tree git writes: a scratch repository the script
	// made ("$tmp", /tmp/x) is the run's own.
	dir := "."
	for len(a) > 0 && (a[0] == "-C" || a[0] == "-c") && len(a) > 1 {
		if a[0] == "-C" {
			switch {
			case a[1] == maybeNowhere:
				// `git -C ""` runs where it is: the repository.
			case a[1] == "":
				dir = "$"
			default:
				dir = joinPlace(dir, a[1])
			}
		}
		a = a[2:]
	}
	if len(a) == 0 {
		return "", ""
	}
	dest, what = gitSubWrite(a[0], a[1:])
	if dest != "" && dir != "." {
		dest = path.Join(dir, dest)
	}
	return dest, what
}

// gitSubWrite is gitTreeWrite for the subcommand sub and its words.
func gitSubWrite(sub string, rest []string) (dest, what string) {
	switch sub {
	case "stash":
		if len(rest) > 0 && (rest[0] == "pop" || rest[0] == "apply") {
			return ".", "a stash (git stash " + rest[0] + ")"
		}
	case "cherry-pick", "merge", "am", "pull", "revert", "rebase":
		if !slices.Contains(rest, "--abort") && !slices.Contains(rest, "--quit") {
			return ".", "another commit's files (git " + sub + ")"
		}
	case "checkout-index":
		return ".", "the index's files (git checkout-index)"
	case "read-tree":
		if slices.ContainsFunc(rest, func(s string) bool {
			return s == "-u" || strings.HasPrefix(s, "-u") || s == "--reset" && slices.Contains(rest, "-u")
		}) || hasFlag(rest, "u") {
			return ".", "another tree's files (git read-tree -u)"
		}
	case "switch":
		// `switch -c new` with no start point keeps the files; `switch -c
		// new REV` or `switch REV` writes REV's.
		if args, flags := splitArgs(rest); len(args) < 2 && (hasFlag(flags, "c", "C") || slices.Contains(flags, "--create") || slices.Contains(flags, "--force-create")) {
			return "", ""
		}
		return ".", "another branch's files (git switch)"
	case "checkout", "restore":
		i := slices.Index(rest, "--")
		var specs []string
		if i >= 0 {
			specs = rest[i+1:]
		}
		args, flags := splitArgs(rest)
		newBranch := sub == "checkout" && (hasFlag(flags, "b", "B") || slices.Contains(flags, "--orphan"))
		switch {
		case i < 0 && newBranch && len(args) == 2:
			// `checkout -b tmp REV`: REV's files under a new name.
			return ".", "another commit's files (git checkout " + args[1] + ")"
		case i < 0 && newBranch:
			return "", "" // a new branch at HEAD: the same files
		case i < 0 && sub == "checkout" && len(args) == 1:
			return ".", "another commit's files (git checkout " + args[0] + ")"
		}
		for _, s := range specs {
			if e := path.Ext(path.Clean(s)); e == "" || e == "." { // a folder: its files are not named
				return s, "another commit's files (git " + sub + " -- " + s + ")"
			}
		}
	}
	return "", ""
}

// ownDest reports whether a folder a line writes into is the run's own:
// outside the repository, a folder a build writes, a dot folder, or a data
// folder tests read fixtures from.
func ownDest(d string) bool {
	if d == "" || path.IsAbs(d) || strings.HasPrefix(d, "~") || strings.ContainsAny(d, "$*?[") {
		return true
	}
	d = path.Clean(d)
	if strings.HasPrefix(d, "../") || d == ".." {
		return true
	}
	for _, c := range strings.Split(d, "/") {
		switch {
		case c == "build" || c == "dist" || c == "out" || c == "target" || c == "tmp" || c == "node_modules" || c == "__pycache__" || c == "coverage",
			c == "testdata" || c == "fixtures" || c == "__fixtures__" || c == "data" || c == "corpus" || c == "golden",
			strings.HasPrefix(c, ".") && c != "." && c != "..":
			return true
		}
	}
	return false
}

// splitArgs splits words into operands and flags ("--" ends the flags).
func splitArgs(w []string) (args, flags []string) {
	for i, s := range w {
		if s == "--" {
			return append(args, w[i+1:]...), flags
		}
		if strings.HasPrefix(s, "-") && s != "-" {
			flags = append(flags, s)
		} else {
			args = append(args, s)
		}
	}
	return args, flags
}

// hasFlag reports whether a short option letter is among the flags, alone
// or in a cluster (-a, -rf, -xzf).
func hasFlag(flags []string, letters ...string) bool {
	for _, f := range flags {
		if strings.HasPrefix(f, "--") || !strings.HasPrefix(f, "-") {
			continue
		}
		for _, l := range letters {
			if strings.Contains(f[1:], l) {
				return true
			}
		}
	}
	return false
}

// flagValue is the value of an option given as `-C dir`, `-Cdir`,
// `--directory=dir` or `--directory dir`, "" when absent.
//
// A value the shell fills at run time ("$tmp") parses as an empty word; it
// is returned as "$", a place the line does not name (ownDest), not as
// absent, which read `tar -C "$tmp"` as unpacking into the repository.
func flagValue(w []string, short, long string) string {
	for i, s := range w {
		switch {
		case s == short || long != "" && s == long:
			if i+1 < len(w) {
				if w[i+1] == "" {
					return "$"
				}
				return w[i+1]
			}
		case long != "" && strings.HasPrefix(s, long+"="):
			return s[len(long)+1:]
		case len(s) > len(short) && strings.HasPrefix(s, short) && !strings.HasPrefix(s, "--"):
			return s[len(short):]
		}
	}
	return ""
}

func lastArg(w []string) string {
	args, _ := splitArgs(w[1:])
	if len(args) == 0 {
		return ""
	}
	return args[len(args)-1]
}
