package scriptrun

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/sessiongate/sessiongate/shellline"
)

// Within is where a line read for the scripts it runs stands: in a
// script's string literal (String, the script's text; List: the line is a
// list of its literals joined) or a statement of a shell script (Shell,
// its text). The zero Within is a line the agent typed.
type Within struct {
	String string
	List   bool
	Shell  string
}

// ReadRun reads a run's file. why is a denial (a script that is not
// there to read during a session); f is nil for nothing to judge (a file
// outside the repository and temp folders, a binary, a python module that
// is not the repository's).
//
// in.String is the script text when the line is one of its string literals
// (CommandLines): a missing file named only there, by a word that is no
// path ("source is untouched", "bun add"), is prose, not a script written
// at run time; one with a slash or a dot, or named again in the script
// (where it could be written), is still denied.
//
// in.Shell is the shell script the line is a statement of: a program it
// runs by its path that one of its compilers makes (`go build && ./tool`,
// `cc -o a.out x.c; ./a.out`) is a compiled program, skipped as one that
// exists is, unless the script also writes that path another way. Bazel
// and CMake builds count: `bazel build //app && bazel-bin/app/app`.
func ReadRun(places Places, dir string, r Run, active bool, in Within) (f *File, why string, err error) {
	inString, inShell := in.String, in.Shell
	cands := []string{r.Path}
	if r.Module {
		cands = append(cands, strings.TrimSuffix(r.Path, ".py")+"/__main__.py")
	}
	for _, p := range cands {
		f, ok, err := places.Read(dir, p)
		switch {
		case errors.Is(err, ErrBinary):
			return nil, "", nil
		case errors.Is(err, ErrNotText):
			if !active {
				return nil, "", nil
			}
			return nil, fmt.Sprintf("`%s` runs %s, which is not text (NUL bytes, or compiled bytecode), so no check can read it", r.Via, r.Path), nil
		case errors.Is(err, ErrNotThere):
			if r.Module || r.Optional {
				continue // an installed module (pytest), not a file here
			}
			if !active || inString != "" && !PathLike(r.Path, inString, in.List) || inShell != "" && r.Lang == "" && Builds(inShell, r.Path) || inShell != "" && slices.Contains(shellline.VenvScripts(inShell), path.Clean(filepath.ToSlash(r.Path))) {
				return nil, "", nil
			}
			return nil, fmt.Sprintf("`%s` runs %s, which does not exist when the line is read (written on the same line, or by another script), so no check can read it", r.Via, r.Path), nil
		case err != nil:
			return nil, "", fmt.Errorf("read the script %s: %w", r.Path, err)
		case ok:
			return f, "", nil
		}
	}
	return nil, "", nil
}

// PyModuleFiles are the repository's (or a temp folder's) files that
// importing mods runs: looked up in the importing file's folder (fileDir;
// a relative import only there), the line's folder (cwd, which `python3
// -c` and `-m` put first on sys.path) and PYTHONPATH's folders. A module
// found in none is installed, not the agent's writing.
func PyModuleFiles(places Places, mods []string, cwd, fileDir, pyPath string) []string {
	var out []string
	seen := map[string]bool{}
	for _, m := range mods {
		var dirs []string
		if strings.HasPrefix(m, ".") {
			d := fileDir
			if d == "" {
				d = cwd
			}
			for up := len(m) - len(strings.TrimLeft(m, ".")); up > 1; up-- {
				d = filepath.Dir(d)
			}
			dirs = []string{d}
		} else {
			if fileDir != "" {
				dirs = append(dirs, fileDir)
			}
			dirs = append(dirs, cwd)
			for _, p := range filepath.SplitList(pyPath) {
				if p == "" {
					continue
				}
				if !filepath.IsAbs(p) {
					p = filepath.Join(cwd, p)
				}
				dirs = append(dirs, p)
			}
		}
		for _, d := range dirs {
			for _, c := range ModuleFiles(m) {
				abs := filepath.Join(d, filepath.FromSlash(c))
				if !seen[abs] && places.Has(abs) {
					seen[abs] = true
					out = append(out, abs)
				}
			}
		}
	}
	return out
}
