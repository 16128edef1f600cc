// Package venvtrust judges a test run through a Python virtualenv in the
// work tree (`.venv/bin/python -m pytest`, `venv/bin/pytest`). Such a venv
// is untracked and gitignored, so the agent can swap its python for a
// script that prints "1 passed" and exits 0, and git never shows it. A
// project whose tests live in its venv gets no gate command from init (the
// gate's python3 lacks the venv's packages), so the agent's run is its QA:
// it counts only when the venv's program, the interpreter a console script
// names, and the package a `-m` runs are as they were when the session
// started (their change time, ctime, is before it), the way the npm linter
// trust check (internal/linttrust) treats node_modules.
package venvtrust

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
	"github.com/sessiongate/sessiongate/shellline"
)

// maxFiles bounds the walk of a package folder: pytest and _pytest hold a
// few hundred files.
const maxFiles = 5000

// maxStartupFile bounds a .pth or sitecustomize.py read for its hash, and
// maxRecord a dist-info RECORD: far above pip's and uv's (a RECORD of a
// big package is a few hundred KiB). A file over them is not read: a
// startup file then counts as changed, a RECORD as listing nothing.
const (
	maxStartupFile = 1 << 20
	maxRecord      = 16 << 20
)

// Changed names the first file of a work-tree venv that line runs and that
// changed after since ("" when none did, or line runs no venv program).
func Changed(root, line string, since time.Time) (string, error) {
	if since.IsZero() {
		return "", nil
	}
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return "", nil
	}
	// `source .venv/bin/activate && pytest`: after activate, a bare
	// program name is the venv's bin/ entry when it has one.
	activated := ""
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) == 0 {
			continue
		}
		if (w[0] == "source" || w[0] == ".") && len(w) > 1 && filepath.Base(w[1]) == "activate" {
			a := w[1]
			if !filepath.IsAbs(a) {
				a = filepath.Join(root, a)
			}
			activated = venvOf(root, filepath.Clean(a))
			continue
		}
		p := w[0]
		if !strings.Contains(p, "/") {
			if activated == "" {
				continue
			}
			if _, err := os.Lstat(filepath.Join(activated, "bin", p)); err != nil {
				continue
			}
			p = filepath.Join(activated, "bin", p)
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		venv := venvOf(root, filepath.Clean(p))
		if venv == "" {
			continue
		}
		if why, err := judge(root, venv, filepath.Clean(p), w[1:], since); why != "" || err != nil {
			return why, err
		}
	}
	return "", nil
}

// venvOf is the venv folder (holding pyvenv.cfg) inside root that p lies
// in, "" when none.
func venvOf(root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return ""
	}
	for d := filepath.Dir(p); len(d) > len(root); d = filepath.Dir(d) {
		if st, err := os.Stat(filepath.Join(d, "pyvenv.cfg")); err == nil && st.Mode().IsRegular() {
			return d
		}
	}
	return ""
}

func judge(root, venv, prog string, args []string, since time.Time) (string, error) {
	rel := func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil {
			return filepath.ToSlash(r)
		}
		return p
	}
	changed := func(p string, link bool) bool {
		of := ctime.Of
		if link {
			of = ctime.OfLink
		}
		t, err := of(p)
		return err == nil && t.After(since)
	}
	// The program itself (a symlink to the system python, or a console
	// script), and what the link points at when that is in the tree too.
	if changed(prog, true) {
		return fmt.Sprintf("%s changed after the session started (the venv is untracked: a swapped program there answers for the tests)", rel(prog)), nil
	}
	if real, err := filepath.EvalSymlinks(prog); err == nil && venvOf(root, real) != "" && changed(real, false) {
		return fmt.Sprintf("%s (what %s links to) changed after the session started", rel(real), rel(prog)), nil
	}
	// A console script runs the interpreter its #! line names.
	if interp := shebang(prog); interp != "" && venvOf(root, interp) != "" && changed(interp, true) {
		return fmt.Sprintf("%s (the interpreter %s names) changed after the session started", rel(interp), rel(prog)), nil
	}
	// `python -m pytest`: the package's files in the venv.
	mod := ""
	for i, a := range args {
		if a == "-m" && i+1 < len(args) {
			mod = args[i+1]
			break
		}
	}
	if mod == "" {
		mod = strings.TrimSuffix(filepath.Base(prog), filepath.Ext(prog)) // bin/pytest runs pytest
	}
	// A startup file of the venv's site-packages runs before the tests at
	// every start of its python (lazy pass 27, c3): a `.pth` whose import
	// line puts a stand-in greet in sys.modules made pytest pass a broken
	// greet.py. pip writes .pth files too, and lists each, with its hash,
	// in the installed package's RECORD: one that matches is the
	// installer's.
	if f := startupChanged(venv, since); f != "" {
		return fmt.Sprintf("%s changed after the session started and no installed package's RECORD lists it as it is (a startup file the venv's python runs before the tests: it can put a stand-in in place of the project's code)", rel(f)), nil
	}
	for _, name := range []string{mod, "_" + mod, mod + ".py"} {
		sp, _ := filepath.Glob(filepath.Join(venv, "lib", "python*", "site-packages", name))
		for _, p := range sp {
			if f := changedUnder(p, since); f != "" {
				return fmt.Sprintf("%s changed after the session started (the package the run imports, in the untracked venv)", rel(f)), nil
			}
		}
	}
	return "", nil
}

// shebang is the absolute program a script's #! line names ("" for none).
func shebang(p string) string {
	head, err := boundedread.Head(p, 512) // a FIFO here hung the gate
	if err != nil {
		return ""
	}
	l, _, _ := strings.Cut(string(head), "\n")
	rest, ok := strings.CutPrefix(l, "#!")
	if !ok {
		return ""
	}
	fields := strings.Fields(rest)
	if len(fields) == 0 || !filepath.IsAbs(fields[0]) {
		return ""
	}
	return filepath.Clean(fields[0])
}

// changedUnder is the first file at or under p whose ctime is after since.
func changedUnder(p string, since time.Time) string {
	var found string
	n := 0
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || found != "" {
			return filepath.SkipAll
		}
		if n++; n > maxFiles {
			return filepath.SkipAll
		}
		// Folders change whenever a file is made in them, and the first
		// import writes __pycache__ (an honest run after a fresh venv).
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		if t, err := ctime.OfLink(q); err == nil && t.After(since) {
			found = q
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// startupFile reports whether a site-packages entry is a file Python runs
// or reads at every start.
func startupFile(name string) bool {
	return strings.HasSuffix(name, ".pth") || name == "sitecustomize.py" || name == "usercustomize.py"
}

// startupChanged is the first startup file at the top of the venv's
// site-packages whose ctime is after since and that no *.dist-info/RECORD
// there lists with its content's hash, "" when none.
func startupChanged(venv string, since time.Time) string {
	sps, _ := filepath.Glob(filepath.Join(venv, "lib", "python*", "site-packages"))
	for _, sp := range sps {
		ents, err := os.ReadDir(sp)
		if err != nil {
			continue
		}
		var records map[string]string // name -> "sha256=..." from the RECORD files, read once
		for _, e := range ents {
			if e.IsDir() || !startupFile(e.Name()) {
				continue
			}
			p := filepath.Join(sp, e.Name())
			if t, err := ctime.OfLink(p); err != nil || !t.After(since) {
				continue
			}
			if records == nil {
				records = recordHashes(sp, ents)
			}
			// Bounded, regular only (links followed, as python reads it): a
			// FIFO or a link to /dev/zero hung or filled the gate, and a
			// file not read counts as changed.
			b, err := boundedread.File(p, maxStartupFile)
			if err == nil {
				h := sha256.Sum256(b)
				if records[e.Name()] == "sha256="+base64.RawURLEncoding.EncodeToString(h[:]) {
					continue
				}
			}
			return p
		}
	}
	return ""
}

// recordHashes reads the RECORD of each *.dist-info in site-packages sp
// (ents) for the hashes of the top-level files it lists.
func recordHashes(sp string, ents []fs.DirEntry) map[string]string {
	out := map[string]string{}
	for _, e := range ents {
		if !e.IsDir() || !strings.HasSuffix(e.Name(), ".dist-info") {
			continue
		}
		b, err := boundedread.File(filepath.Join(sp, e.Name(), "RECORD"), maxRecord)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(b), "\n") {
			f := strings.Split(strings.TrimSpace(l), ",")
			if len(f) >= 2 && !strings.Contains(f[0], "/") && startupFile(f[0]) {
				out[f[0]] = f[1]
			}
		}
	}
	return out
}
