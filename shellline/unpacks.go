package shellline

import (
	"path"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Round 18 (t4): commands that write files named inside another file: an
// archive extracted (`tar xf a.tar`, `unzip a.zip`), a patch applied
// (`git apply x.patch`, `git am`, `patch -p1 < x.patch`, or one given in
// a here-document), a stash popped. The words name the file, not what it
// writes: the agent hook reads the archive, the patch or the stash
// (writereach.Members, session/agentindirect.go).

// Unpack is one such command of a line.
type Unpack struct {
	Kind string // "tar", "zip", "patch", "stash"
	// File is the archive or patch file as written (relative to the
	// line's folder after its cd's, or absolute); "" for standard input.
	File string
	// Text is a patch given on the line (a here-document or here-string).
	Text string
	// Dest is the folder the members land in ("" the line's folder).
	Dest string
	// Strip is patch's -pN (git apply's default is 1; -1 unknown), or
	// tar's --strip-components.
	Strip int
	// Made: the line itself makes the archive (`tar c ... f FILE` before,
	// or a `tar c` piped in): its members are unknown, judged as any name.
	Made bool
	// Renamed: tar renames members as it extracts them (--transform,
	// bsdtar -s): their names are unknown, judged as any name.
	Renamed bool
	// Ref is the stash a `git stash pop/apply` takes ("" stash@{0}).
	Ref string
}

// Unpacks lists the line's Unpack commands; nil when it does not parse.
func Unpacks(cmd string) []Unpack {
	_, f, ok := Calls(Unwrap(cmd))
	if !ok {
		return nil
	}
	var out []Unpack
	made := map[string]bool{} // archives a `tar c`/zip on the line writes
	stashed := false          // a `git stash` (push) earlier on the line
	cwd := ""
	piped := map[*syntax.Stmt]bool{} // a pipeline's stages read as one
	syntax.Walk(f, func(n syntax.Node) bool {
		var st *syntax.Stmt
		switch x := n.(type) {
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				stages := PipeStages(x)
				for i, s := range stages[1:] {
					if u, ok := unpackOf(s, cwd); ok && (u.Kind == "tar" || u.Kind == "zip") && u.File == "" {
						u.Made = makesArchive(stages[i])
						out = append(out, u)
						piped[s] = true
					}
				}
			}
			return true
		case *syntax.Stmt:
			st = x
		default:
			return true
		}
		if piped[st] {
			return true
		}
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return true
		}
		words := callWords(c)
		w := unwrapCall(words)
		if len(w) == 0 {
			return true
		}
		// Round 19: a file the line writes (`> f`, a download) is made
		// there: its members are not known when the line is read.
		for _, r := range st.Redirs {
			if r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrAll || r.Op == syntax.AppAll || r.Op == syntax.RdrClob {
				if p, ok := Literal(r.Word); ok && p != "" {
					made[path.Join(cwd, p)] = true
				}
			}
		}
		for _, p := range downloads(w) {
			made[path.Join(cwd, p)] = true
		}
		switch {
		case (w[0] == "cd" || w[0] == "pushd") && len(w) == 2 && w[1] != "":
			cwd = path.Join(cwd, w[1])
			if path.IsAbs(w[1]) {
				cwd = w[1]
			}
		case w[0] == "tar" && tarMode(w) == 'c':
			if a := tarArchive(w); a != "" {
				made[path.Join(cwd, a)] = true
			}
		case w[0] == "zip" && len(w) > 1:
			for _, a := range w[1:] {
				if !strings.HasPrefix(a, "-") {
					made[path.Join(cwd, a)] = true
					break
				}
			}
		case w[0] == "git" && gitSub(w) == "stash":
			switch a := stashAct(w); a {
			case "", "push", "save":
				stashed = true
			}
		}
		if u, ok := unpackOf(st, cwd); ok {
			if u.Kind == "stash" && stashed {
				return true // pops what the line stashed: the tree as it is
			}
			if u.File != "" && made[path.Join(cwd, u.File)] {
				u.Made = true
			}
			if u.Kind == "patch" && u.File == "" && u.Text == "" {
				return true // a patch from a pipe: unknown (docs/security.md)
			}
			out = append(out, u)
		}
		return true
	})
	return out
}

func callWords(c *syntax.CallExpr) []string {
	var ws []string
	for _, a := range c.Args {
		s, _ := Literal(a)
		ws = append(ws, s)
	}
	return ws
}

// unpackOf reads one statement as an Unpack.
func unpackOf(st *syntax.Stmt, cwd string) (Unpack, bool) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || len(c.Args) == 0 {
		return Unpack{}, false
	}
	w := unwrapCall(callWords(c))
	if len(w) == 0 {
		return Unpack{}, false
	}
	var u Unpack
	stdin := func() (string, string) { // a file redirected in, or text
		for _, r := range st.Redirs {
			if r.Op == syntax.RdrIn {
				s, _ := Literal(r.Word)
				return s, ""
			}
			if t, ok := stdinText(r); ok {
				return "", t
			}
		}
		return "", ""
	}
	join := func(p string) string {
		if p == "" || path.IsAbs(p) || cwd == "" {
			return p
		}
		return path.Join(cwd, p)
	}
	switch w[0] {
	case "tar", "bsdtar":
		if tarMode(w) != 'x' {
			return Unpack{}, false
		}
		u = Unpack{Kind: "tar", File: tarArchive(w), Dest: cwd}
		for i, a := range w {
			cluster := i == 1 && !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--")
			switch {
			case cluster && strings.ContainsRune(a, 'O'):
				return Unpack{}, false // xOf: members go to standard output
			case a == "-O" || a == "--to-stdout" || a == "--to-command" || strings.HasPrefix(a, "--to-command="):
				return Unpack{}, false // members go to a pipe, not to files
			case a == "--strip-components" && i+1 < len(w):
				u.Strip, _ = strconv.Atoi(w[i+1])
			case strings.HasPrefix(a, "--strip-components="):
				u.Strip, _ = strconv.Atoi(strings.TrimPrefix(a, "--strip-components="))
			case a == "--transform" || a == "--xform" || strings.HasPrefix(a, "--transform=") || strings.HasPrefix(a, "--xform=") || w[0] == "bsdtar" && a == "-s":
				u.Renamed = true // members land under names the archive does not hold
			case (a == "-C" || a == "--directory") && i+1 < len(w):
				u.Dest = join(w[i+1])
			case strings.HasPrefix(a, "--directory="):
				u.Dest = join(strings.TrimPrefix(a, "--directory="))
			}
		}
		if u.File == "-" {
			u.File = ""
		}
		if u.File == "" {
			u.File, _ = stdin()
		}
		u.File = join(u.File)
	case "unzip":
		u = Unpack{Kind: "zip", Dest: cwd}
		for i := 1; i < len(w); i++ {
			a := w[i]
			switch {
			case a == "-d" && i+1 < len(w):
				u.Dest = join(w[i+1])
				i++
			case a == "-l" || a == "-t" || a == "-v" || a == "-Z" || a == "-p" || a == "-c":
				return Unpack{}, false // lists or prints, writes nothing
			case strings.HasPrefix(a, "-"):
			case u.File == "":
				u.File = join(a)
			}
		}
		if u.File == "" {
			return Unpack{}, false
		}
	case "patch":
		u = Unpack{Kind: "patch", Strip: -1, Dest: cwd}
		for i := 1; i < len(w); i++ {
			a := w[i]
			switch {
			case a == "--dry-run":
				return Unpack{}, false
			case (a == "-i" || a == "--input") && i+1 < len(w):
				u.File = join(w[i+1])
				i++
			case (a == "-d" || a == "--directory") && i+1 < len(w):
				u.Dest = join(w[i+1])
				i++
			case a == "-p" && i+1 < len(w):
				u.Strip, _ = strconv.Atoi(w[i+1])
				i++
			case strings.HasPrefix(a, "-p"):
				if n, err := strconv.Atoi(a[2:]); err == nil {
					u.Strip = n
				}
			}
		}
		if u.File == "" {
			u.File, u.Text = stdin()
			u.File = join(u.File)
		}
	case "git":
		switch sub := gitSub(w); sub {
		case "apply", "am":
			u = Unpack{Kind: "patch", Strip: 1, Dest: cwd}
			rest := w[gitSubIndex(w)+1:]
			for i := 0; i < len(rest); i++ {
				a := rest[i]
				switch {
				case a == "--check" || a == "--stat" || a == "--numstat" || a == "--summary" || a == "--abort" || a == "--skip" || a == "--continue" || a == "--show-current-patch" || a == "--quit":
					if a != "--stat" && a != "--numstat" && a != "--summary" || !containsStr(rest, "--apply") {
						return Unpack{}, false // reads or ends, writes nothing new
					}
				case a == "--cached" || a == "--index" || a == "-3" || a == "--3way":
				case strings.HasPrefix(a, "-p") && len(a) > 2:
					if n, err := strconv.Atoi(a[2:]); err == nil {
						u.Strip = n
					}
				case strings.HasPrefix(a, "--directory="):
					u.Dest = join(strings.TrimPrefix(a, "--directory="))
				case strings.HasPrefix(a, "-"):
				case u.File == "":
					u.File = join(a)
				}
			}
			if u.File == "" {
				u.File, u.Text = stdin()
				u.File = join(u.File)
			}
		case "stash":
			act := stashAct(w)
			if act != "pop" && act != "apply" && act != "branch" {
				return Unpack{}, false
			}
			u = Unpack{Kind: "stash"}
			rest := w[gitSubIndex(w)+2:]
			if act == "branch" && len(rest) > 0 {
				rest = rest[1:] // the new branch's name; the stash follows
			}
			for _, a := range rest {
				if !strings.HasPrefix(a, "-") {
					u.Ref = a
				}
			}
		default:
			return Unpack{}, false
		}
	default:
		return Unpack{}, false
	}
	return u, true
}

// tarMode is 'x' for an extraction, 'c' for a creation, 0 otherwise.
func tarMode(w []string) byte {
	for i, a := range w[1:] {
		switch {
		case a == "--extract" || a == "--get":
			return 'x'
		case a == "--create":
			return 'c'
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") || i == 0:
			f := strings.TrimPrefix(a, "-")
			if strings.ContainsRune(f, 'x') {
				return 'x'
			}
			if strings.ContainsRune(f, 'c') {
				return 'c'
			}
		}
	}
	return 0
}

// tarArchive is the archive a tar call reads or writes (its f option's
// value, or --file), "" when none is named (standard input/output).
func tarArchive(w []string) string {
	for i, a := range w[1:] {
		i++ // index in w
		switch {
		case strings.HasPrefix(a, "--file="):
			return strings.TrimPrefix(a, "--file=")
		case a == "--file" && i+1 < len(w):
			return w[i+1]
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") || i == 1:
			f := strings.TrimPrefix(a, "-")
			if k := strings.IndexByte(f, 'f'); k >= 0 {
				if k < len(f)-1 && strings.HasPrefix(a, "-") {
					return f[k+1:] // -fFILE
				}
				if i+1 < len(w) {
					return w[i+1]
				}
			}
		}
	}
	return ""
}

// makesArchive reports whether a pipeline stage writes an archive to its
// output: `tar c...`, or a subshell or block ending in one.
func makesArchive(s *syntax.Stmt) bool {
	found := false
	syntax.Walk(s, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			if w := unwrapCall(callWords(c)); len(w) > 0 && (w[0] == "tar" || w[0] == "bsdtar") && tarMode(w) == 'c' {
				found = true
			}
		}
		return !found
	})
	return found
}

// gitSubIndex is the index of git's subcommand in w (w[0] is git).
func gitSubIndex(w []string) int {
	i := 1
	for i < len(w) && strings.HasPrefix(w[i], "-") {
		if (w[i] == "-C" || w[i] == "-c" || w[i] == "--git-dir" || w[i] == "--work-tree") && i+1 < len(w) {
			i++
		}
		i++
	}
	return i
}

// GitSub is git's subcommand in w (w[0] is git), past its global options
// (-C DIR, -c NAME=VALUE, --no-pager): "" when there is none.
func GitSub(w []string) string { return gitSub(w) }

// GitSubIndex is the index of git's subcommand in w, past its global
// options (len(w) when there is none).
func GitSubIndex(w []string) int { return gitSubIndex(w) }

func gitSub(w []string) string {
	if i := gitSubIndex(w); i < len(w) {
		return w[i]
	}
	return ""
}

// stashAct is the action of `git stash ACT` ("" for a plain `git stash`).
func stashAct(w []string) string {
	i := gitSubIndex(w) + 1
	if i < len(w) && !strings.HasPrefix(w[i], "-") {
		return w[i]
	}
	return ""
}

// PatchPaths lists the files a patch's text writes (its `diff --git`,
// `---` and `+++` names, a/ and b/ or strip leading parts removed; strip
// -1: patch's own default, the name as written and its last part both).
func PatchPaths(text string, strip int) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		p = strings.TrimSpace(p)
		if i := strings.IndexByte(p, '\t'); i >= 0 {
			p = p[:i]
		}
		p = strings.Trim(p, `"`)
		if p == "" || p == "/dev/null" {
			return
		}
		var cands []string
		switch {
		case strip < 0:
			cands = []string{p, path.Base(p)}
			if _, rest, ok := strings.Cut(p, "/"); ok {
				cands = append(cands, rest)
			}
		default:
			q := p
			for range strip {
				_, rest, ok := strings.Cut(q, "/")
				if !ok {
					break
				}
				q = rest
			}
			cands = []string{q}
		}
		for _, c := range cands {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	for _, l := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "--- "):
			add(l[4:])
		case strings.HasPrefix(l, "diff --git "):
			// diff --git a/X b/Y: both names (a rename writes both).
			f := strings.Fields(l[len("diff --git "):])
			for _, p := range f {
				add(p)
			}
		case strings.HasPrefix(l, "rename to ") || strings.HasPrefix(l, "rename from ") || strings.HasPrefix(l, "copy to "):
			_, name, _ := strings.Cut(l, " to ")
			if name == "" {
				_, name, _ = strings.Cut(l, " from ")
			}
			add("x/" + name) // no a/ b/ prefix on these lines
		}
	}
	return out
}

// downloads lists the files a curl or wget call writes: -o/--output
// FILE, wget's -O FILE, and the URL's last part for curl -O / a plain
// wget.
func downloads(w []string) []string {
	if len(w) == 0 || w[0] != "curl" && w[0] != "wget" {
		return nil
	}
	var out, urls []string
	remote := w[0] == "wget"
	for i := 1; i < len(w); i++ {
		a := w[i]
		switch {
		case w[0] == "curl" && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.HasSuffix(a, "o") && i+1 < len(w):
			out = append(out, w[i+1]) // -o FILE, or a cluster ending in it (-sLo FILE)
			remote = false
			i++
		case (a == "-o" && w[0] == "curl" || a == "-O" && w[0] == "wget" || a == "--output" || a == "--output-document") && i+1 < len(w):
			out = append(out, w[i+1])
			remote = false
			i++
		case strings.HasPrefix(a, "--output-document=") || strings.HasPrefix(a, "--output="):
			_, v, _ := strings.Cut(a, "=")
			out = append(out, v)
			remote = false
		case w[0] == "curl" && (a == "-O" || a == "--remote-name" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'O')):
			remote = true
		case strings.Contains(a, "://"):
			urls = append(urls, a)
		}
	}
	if remote {
		for _, u := range urls {
			if b := path.Base(strings.SplitN(u, "?", 2)[0]); b != "" && b != "/" && b != "." {
				out = append(out, b)
			}
		}
	}
	return out
}
