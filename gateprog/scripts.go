package gateprog

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/scriptrun"
	"github.com/sessiongate/sessiongate/shellline"
	"github.com/sessiongate/sessiongate/testrun"
)

// A gate's `make test` or `./scripts/test.sh` runs `pytest`, `go` or
// `jest` by name from the script, not the line: judging only the line's
// first words let `ln -sf /bin/true ~/.local/bin/pytest`, called from the
// team's own script, answer for the tests (round 27 left it open). The
// scripts and recipes a line runs are read (in the work tree, bounded)
// and the programs they name judged like the line's.

const (
	maxScriptDepth    = 4   // scripts run by scripts run by the line
	maxScriptPrograms = 256 // programs named in them, in all
)

// walkScripts reads the work tree's scripts, makefile recipes,
// package.json scripts and just/task/mise/pixi recipes that line runs:
// out are the programs they name, a bare name (looked up on PATH) or an
// absolute path (a relative one resolved where the script runs; a bare
// name npm finds in the package's node_modules/.bin, that file); mods
// their `python -m MOD` runs.
func walkScripts(line, root string) *scriptWalk {
	w := &scriptWalk{places: scriptrun.Places{Root: root}, root: root, seen: map[string]bool{}}
	if root != "" {
		w.line(line, root, "", 0)
	}
	return w
}

type scriptWalk struct {
	places scriptrun.Places
	root   string
	seen   map[string]bool // files read and programs found
	out    []string
	mods   [][2]string // `python -m MOD` runs: the interpreter (bare, or absolute) and MOD
}

func (w *scriptWalk) add(p string) {
	if p == "" || w.seen["p:"+p] || len(w.out) >= maxScriptPrograms {
		return
	}
	w.seen["p:"+p] = true
	w.out = append(w.out, p)
}

// line takes the scripts a line (run in dir) runs; at depth > 0 the
// line's own programs too (it is a script's statement; npmDir: of an npm
// script, whose package's node_modules/.bin npm puts first on PATH).
func (w *scriptWalk) line(line, dir, npmDir string, depth int) {
	if depth > maxScriptDepth || len(w.out) >= maxScriptPrograms {
		return
	}
	if depth > 0 {
		w.programsOf(line, dir, npmDir)
	}
	for _, r := range scriptrun.Find(line) {
		rdir := dir
		if r.Dir != "" {
			rdir = filepath.Join(dir, filepath.FromSlash(r.Dir))
		}
		switch {
		case r.NpmScript != "":
			f := w.read(rdir, r.Path, r.NpmScript)
			if f == nil {
				continue
			}
			pdir := filepath.Dir(f.Abs)
			for _, st := range scriptrun.Statements(scriptrun.NpmScript(f.Text, r.NpmScript)) {
				w.line(st.Text, pdir, pdir, depth+1)
			}
		case r.Lang == scriptrun.Make && r.DefaultMakefile:
			mdir := filepath.Join(rdir, filepath.FromSlash(r.Path))
			for _, n := range scriptrun.DefaultMakefiles {
				if f := w.read(mdir, n, ""); f != nil {
					w.makeRun(r, f, mdir, depth)
					break
				}
			}
		case r.Lang == scriptrun.Make:
			if f := w.read(rdir, r.Path, ""); f != nil {
				w.makeRun(r, f, rdir, depth)
			}
		case r.Path != "" && !r.Module && !r.Conftest && !r.GoPackage && r.Suite == "" && (r.Lang == scriptrun.Shell || r.Lang == ""):
			f := w.read(rdir, r.Path, "")
			if f == nil || f.Lang != scriptrun.Shell {
				continue
			}
			for _, st := range scriptrun.Statements(f.Text) {
				w.line(st.Text, rdir, "", depth+1)
			}
		}
	}
	// just, task, mise and pixi recipes (make's and npm's are above).
	for _, t := range shellline.ScriptTargets(line) {
		if t.Tool == "make" || t.Tool == "npm" {
			continue
		}
		rel, b, err := testrun.ScriptFile(dir, t)
		if err != nil || b == nil || w.seen["r:"+rel+":"+t.Name] {
			continue
		}
		w.seen["r:"+rel+":"+t.Name] = true
		body, ok := testrun.ScriptBody(t, b)
		if !ok {
			continue
		}
		// The first line is "name: deps"; the rest are commands.
		lines := strings.Split(body, "\n")
		for _, l := range lines[1:] {
			w.line(l, filepath.Join(dir, filepath.FromSlash(t.Dir)), "", depth+1)
		}
	}
}

func (w *scriptWalk) makeRun(r scriptrun.Run, f *scriptrun.File, mdir string, depth int) {
	var vars []string
	if r.MakeVars != "" {
		vars = strings.Split(r.MakeVars, "\n")
	}
	for _, st := range scriptrun.MakeStmts(r, []scriptrun.MakeFile{{Name: f.Rel, Text: f.Text}}, vars) {
		w.line(st.Text, mdir, "", depth+1)
	}
}

// read reads a script of the work tree once per part (an npm script's
// name; nil when it is elsewhere, missing, binary, or read already).
func (w *scriptWalk) read(dir, p, part string) *scriptrun.File {
	f, ok, err := w.places.Read(dir, p)
	if err != nil || !ok || f == nil || !f.InRepo || w.seen["f:"+f.Abs+":"+part] {
		return nil
	}
	w.seen["f:"+f.Abs+":"+part] = true
	return f
}

// programsOf adds the programs a script's line runs; npmDir is the
// package folder of an npm script, whose node_modules/.bin npm puts
// first on PATH.
func (w *scriptWalk) programsOf(line, dir, npmDir string) {
	for _, m := range moduleRuns(line) {
		if strings.Contains(m[0], "/") && !filepath.IsAbs(m[0]) {
			m[0] = filepath.Join(dir, m[0])
		}
		w.mods = append(w.mods, m)
	}
	for _, p := range programs(line) {
		if strings.Contains(p, "$") || strings.Contains(p, "`") {
			continue // computed: not known here
		}
		if !strings.Contains(p, "/") {
			if npmDir != "" {
				if bin := filepath.Join(npmDir, "node_modules", ".bin", p); exists(bin) {
					w.add(bin)
					continue
				}
			}
			w.add(p)
			continue
		}
		if strings.HasPrefix(p, "~") {
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		w.add(filepath.Clean(p))
	}
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
