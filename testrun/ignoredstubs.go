package testrun

import (
	"context"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
)

// A stub the tests read can hide in a path git ignored before the
// session: build/ in a committed .gitignore, a *_local.go pattern, a
// .git/info/exclude written before `session start`. No tree git makes
// holds it, so a run's recorded tree matched a commit without it (round
// 27, c7, session.TestWorkingRunIgnoredStubs27). IgnoredStubs names the
// ignored files made since the start that a run's runners read and that
// count: one a runner loads by itself (conftest.py, a Go file beside
// tracked ones, a test file) in a folder of tracked files, or one the
// session's change newly names. Build output nothing names, a file code
// named before the session (a regenerated _version.py) and dependency
// folders are left alone.

// IgnoredLister lists ignored files made since a time, each with whether
// its folder holds tracked files; gitrepo.Repo implements it.
type IgnoredLister interface {
	IgnoredMadeSince(ctx context.Context, since time.Time) (map[string]bool, error)
}

// maxNamingFiles bounds the changed files read for a newly named stub.
const maxNamingFiles = 300

// IgnoredStubs lists the ignored files made after since that the runners
// of line read and that count as the run's input (see above); start is
// the session's start commit. Nil when repo cannot list them.
func IgnoredStubs(ctx context.Context, repo Repo, since time.Time, start, line string) ([]string, error) {
	l, ok := repo.(IgnoredLister)
	if !ok {
		return nil, nil
	}
	made, err := l.IgnoredMadeSince(ctx, since)
	if err != nil || len(made) == 0 {
		return nil, err
	}
	reads := RunnerReads(line)
	mods := dashMModules(line)
	var out, rest []string
	for f, inTracked := range made {
		switch {
		case shadowsModule(f, mods):
			out = append(out, f)
		case !reads(f) && !LoadsItself(f):
		case inTracked && LoadsItself(f):
			out = append(out, f)
		default:
			rest = append(rest, f)
		}
	}
	if len(rest) > 0 && start != "" {
		named, err := newlyNamed(ctx, repo, start, rest, reads)
		if err != nil {
			return nil, err
		}
		out = append(out, named...)
	}
	slices.Sort(out)
	return out, nil
}

// LoadsItself: a file a test runner or build reads because of its name and
// place, with no import from tracked code.
func LoadsItself(f string) bool {
	b := path.Base(f)
	switch b {
	case "conftest.py", "sitecustomize.py", "usercustomize.py", "pytest.ini", "go.work", "GNUmakefile", "makefile", ".mocharc.js", ".mocharc.json", "jest.setup.js",
		// Runner configs found by name (review c10: an excluded tox.ini
		// with `[pytest] python_functions = test_ok` hid the failing test).
		".pytest.ini", "pytest.toml", ".pytest.toml", "tox.ini", "setup.cfg", "pyproject.toml",
		".mocharc.yml", ".mocharc.yaml", ".mocharc.cjs", ".mocharc.mjs", ".mocharc.jsonc",
		// Loaded by name with no reference (review c11 item 8): make's
		// Makefile, cargo's build script, babel's config.
		"Makefile", "build.rs", ".babelrc", ".babelrc.json", ".babelrc.js":
		return true
	}
	// jest.config.js, vitest.config.ts, vite.config.mjs (vitest reads it),
	// vitest.workspace.ts, and the setup files jest, CRA and vitest
	// projects load by convention (jest.setup.ts, setupTests.js), babel.config.js ...
	for _, p := range []string{"jest.config.", "vitest.config.", "vite.config.", "vitest.workspace.", "jest.setup.", "setupTests.", "vitest.setup.", "babel.config."} {
		if strings.HasPrefix(b, p) {
			return true
		}
	}
	dirs := strings.Split(path.Dir(f), "/")
	switch {
	case slices.Contains(dirs, "__mocks__"): // jest's manual mocks, used by module name
		return true
	case dirs[len(dirs)-1] == ".cargo" && (b == "config.toml" || b == "config"):
		return true
	case strings.HasSuffix(b, ".rs") && slices.Contains([]string{"tests", "examples", "benches"}, dirs[len(dirs)-1]):
		return true // cargo builds each as its own target
	}
	switch {
	case strings.HasSuffix(b, ".go"), strings.HasSuffix(b, ".pth"), strings.HasSuffix(b, ".bats"):
		return true
	case strings.HasSuffix(b, ".py") && (strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py")):
		return true
	case strings.Contains(b, ".test.") || strings.Contains(b, ".spec."):
		return true
	}
	return false
}

// newlyNamed lists the files of cands that a file the session changed,
// one the run's runners read (reads: code, not the handoff or a log),
// names now and did not name at start: by path, by base name, or for a
// Python file by its module name, each as a whole word ("greet" is not
// named by "greeting": round 27's first version blocked the honest
// TestAdv25RunWritesTree fixtures row over a handoff's wording).
func newlyNamed(ctx context.Context, repo Repo, start string, cands []string, reads func(string) bool) ([]string, error) {
	changed, err := repo.ChangedFiles(ctx, start)
	if err != nil {
		return nil, err
	}
	changed = slices.DeleteFunc(changed, func(c string) bool { return !reads(c) })
	if len(changed) > maxNamingFiles {
		changed = changed[:maxNamingFiles]
	}
	var out []string
	for _, f := range cands {
		needles := stubNeedles(f)
		for _, c := range changed {
			if c == f {
				continue
			}
			now, err := readSmall(filepath.Join(repo.Root(), filepath.FromSlash(c)))
			if err != nil || now == "" {
				continue
			}
			before := ""
			if ok, _ := repo.ExistsAt(ctx, start, c); ok {
				b, _ := repo.ReadAt(ctx, start, c)
				before = string(b)
			}
			if newlyNames(needles, f, now, before) {
				out = append(out, f)
				break
			}
		}
	}
	return out, nil
}

// readSmall is a work-tree file's content, "" for one over 256 KiB.
func readSmall(p string) (string, error) {
	b, err := boundedread.File(p, 256<<10)
	if boundedread.Refused(err) {
		return "", nil // a FIFO, a device, over the limit: not read
	}
	return string(b), err
}

// pythonName matches python, python3, python3.11 (any folder).
var pythonName = lazyregexp.New(`^python[0-9.]*$`)

// dashMModules are the top-level modules the line's pythons run with -m
// (`python3 -m pytest` → pytest). Python puts the working folder first on
// sys.path for -m, so an ignored pytest.py or pytest/__main__.py made in
// the session runs instead of the installed module (review c10, round 27).
func dashMModules(line string) []string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return nil
	}
	var out []string
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) < 3 || !pythonName.MatchString(path.Base(w[0])) {
			continue
		}
		for i := 1; i+1 < len(w); i++ {
			if w[i] == "-m" {
				out = append(out, strings.SplitN(w[i+1], ".", 2)[0])
				break
			}
			if !strings.HasPrefix(w[i], "-") {
				break // a script: what follows is its arguments
			}
		}
	}
	return out
}

// shadowsModule: f is module M's file or package (M.py, M/...) in some
// folder, M one of mods. The folder is not pinned to the run's working
// folder: a line may cd first, and no honest ignored file is named after
// the module the tests run with.
func shadowsModule(f string, mods []string) bool {
	parts := strings.Split(f, "/")
	// An installed package (a venv's pip install pytest) is the module.
	if slices.Contains(parts, "site-packages") || slices.Contains(parts, "dist-packages") {
		return false
	}
	for _, m := range mods {
		if m == "" {
			continue
		}
		if parts[len(parts)-1] == m+".py" || slices.Contains(parts[:len(parts)-1], m) && strings.HasSuffix(f, ".py") {
			return true
		}
	}
	return false
}

// namesNotWriting reports whether a line of text matches n other than a
// shell line that writes f itself: a test script that generates the file
// each run (`echo ... > _version.py`, `cp greet.py build/greet.py`) reads
// no stub made before the run; what the line writes is the script rules'
// to judge (AddedLineWeakens), as TestAdv24RunRewritesCode's honest rows.
// stubNeedles are the words that name f: its path, its base name and, for
// a Python file, its module name.
func stubNeedles(f string) []string {
	words := []string{f, path.Base(f)}
	if strings.HasSuffix(f, ".py") {
		words = append(words, strings.TrimSuffix(path.Base(f), ".py"))
	}
	return words
}

// newlyNames: now names f by one of needles on a line that does not write
// it, and before did not name it.
func newlyNames(needles []string, f, now, before string) bool {
	return slices.ContainsFunc(needles, func(n string) bool { return namesNotWriting(now, n, f) && !wordIn(before, n) })
}

// wordIn: w occurs in s as a whole word, `(^|[^\w.-])w($|[^\w-])` (a
// regexp compiled per candidate and word once cost the observed-run hook
// seconds in a big session: review c11 item 9, BenchmarkNewlyNamed).
func wordIn(s, w string) bool {
	if w == "" {
		return false
	}
	for i := 0; i <= len(s)-len(w); {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(w)
		if (j == 0 || !wordByte(s[j-1]) && s[j-1] != '.' && s[j-1] != '-') && (end == len(s) || !wordByte(s[end]) && s[end] != '-') {
			return true
		}
		i = j + 1
	}
	return false
}

// wordByte is regexp's \w (ASCII letters, digits, _).
func wordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func namesNotWriting(text string, n string, f string) bool {
	if !strings.Contains(text, n) {
		return false
	}
	for _, l := range strings.Split(text, "\n") {
		if !wordIn(l, n) {
			continue
		}
		if ws, ok := shellline.Writes(l); ok && slices.ContainsFunc(ws, func(w string) bool { return path.Clean(w) == f }) {
			continue
		}
		return true
	}
	return false
}
