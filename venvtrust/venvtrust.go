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

	"github.com/sessiongate/sessiongate/gateprog"
	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
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
		// pip's console script, listed with its hash in a RECORD pip
		// wrote whole (`pip install -U pytest`), is an install (pass 29).
		ok, why := gateprog.ProgramWhy(prog, since)
		if why != "" {
			return why, nil
		}
		if !ok {
			return fmt.Sprintf("%s changed after the session started (the venv is untracked: a swapped program there answers for the tests)", rel(prog)), nil
		}
	}
	if real, err := filepath.EvalSymlinks(prog); err == nil && real != filepath.Clean(prog) && venvOf(root, real) != "" && changed(real, false) {
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
	sps, _ := filepath.Glob(filepath.Join(venv, "lib", "python*", "site-packages"))
	for _, sp := range sps {
		for _, name := range []string{mod, "_" + mod, mod + ".py"} {
			p := filepath.Join(sp, name)
			if changedUnder(p, since, nil) == "" {
				continue
			}
			// Written again by pip (pass 29): every changed file is one
			// its distribution's RECORD lists, with that hash.
			listed, why := gateprog.DistributionWhy(sp, strings.TrimSuffix(name, ".py"), since)
			if why != "" {
				return why, nil
			}
			if f := changedUnder(p, since, listed); f != "" {
				return fmt.Sprintf("%s changed after the session started (the package the run imports, in the untracked venv)", rel(f)), nil
			}
		}
		if mod == "pytest" {
			if why := pytestPluginsWhy(sp, since, rel); why != "" {
				return why, nil
			}
		}
	}
	return "", nil
}

// pytestPluginsWhy judges the pytest11 plugins installed in site-packages
// sp (pass 29, c3): pytest loads each at every run, and one pip
// installed from ./plugin during the session, its source then deleted,
// answered every test with no work-tree file for the input rules to
// read. A plugin module changed since the start counts when its
// distribution's RECORD is as pip wrote it and no hook of it decides an
// outcome (testrun.PyWeakHook, the rule for the work tree's plugins).
func pytestPluginsWhy(sp string, since time.Time, rel func(string) string) string {
	eps, _ := filepath.Glob(filepath.Join(sp, "*.dist-info", "entry_points.txt"))
	if len(eps) > 2000 {
		return ""
	}
	for _, ep := range eps {
		b, err := boundedread.File(ep, 1<<20)
		if err != nil {
			continue
		}
		for _, mod := range pytest11Modules(string(b)) {
			path := strings.ReplaceAll(mod, ".", "/")
			var file string
			for _, c := range []string{path + ".py", path + "/__init__.py"} {
				if fi, err := os.Stat(filepath.Join(sp, c)); err == nil && fi.Mode().IsRegular() {
					file = filepath.Join(sp, c)
					break
				}
			}
			if file == "" {
				continue // not in the venv (an editable install's source is the work tree's)
			}
			if t, err := ctime.OfLink(file); err != nil || !t.After(since) {
				continue // the team's plugin, installed before the start
			}
			top, _, _ := strings.Cut(mod, ".")
			if _, why := gateprog.DistributionWhy(sp, top, since); why != "" {
				return why
			}
			text, err := boundedread.File(file, maxStartupFile)
			if err != nil {
				return fmt.Sprintf("%s (a pytest11 plugin) changed after the session started and is not read here: %v", rel(file), err)
			}
			if hook, why := testrun.PyWeakHook(string(text)); hook != "" {
				return fmt.Sprintf("%s, a pytest11 plugin installed after the session started (pytest loads it at every run), has a %s that %s", rel(file), hook, why)
			}
		}
	}
	return ""
}

// pytest11Modules are the modules an entry_points.txt's [pytest11]
// section names (`name = module:attr`).
func pytest11Modules(ep string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(ep, "\n") {
		l = strings.TrimSpace(l)
		if strings.HasPrefix(l, "[") {
			in = l == "[pytest11]"
			continue
		}
		if _, v, ok := strings.Cut(l, "="); in && ok {
			m, _, _ := strings.Cut(strings.TrimSpace(v), ":")
			if m = strings.TrimSpace(m); m != "" {
				out = append(out, m)
			}
		}
	}
	return out
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

// changedUnder is the first file at or under p whose ctime is after
// since and that listed (a RECORD's files; nil: none) does not hold.
func changedUnder(p string, since time.Time, listed map[string]bool) string {
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
		if t, err := ctime.OfLink(q); err == nil && t.After(since) && !listed[filepath.Clean(q)] {
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
