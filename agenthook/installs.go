package agenthook

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
)

// A build or an installer puts programs in a PATH folder without the line
// naming the file: `go build -o ~/.local/bin/sessiongate ./shim`, `go
// install ./shim/sessiongate`, `npm i -g ./shim` or `pip install --user
// ./shim` whose package declares a `sessiongate` bin or script. Either is a
// shim every later hook runs (issue 25). `git` is the other name the hooks
// need from PATH: a `git` ahead of the real one can add `-c
// core.hooksPath=/dev/null` to every commit the agent makes.

// homeWord is a word starting at the home folder.
var homeWord = lazyregexp.New(`(^|[\s=:"'])(?:~|\$HOME|\$\{HOME\})/`)

// pwdWord is a word starting at the shell's folder.
var pwdWord = lazyregexp.New(`(^|[\s=:"'])(?:\$PWD|\$\{PWD\})/`)

// shadowNames are the programs a shim of would disarm the hooks.
var shadowNames = map[string]bool{"sessiongate": true, "git": true}

func shadowName(p string) bool {
	return shadowNames[strings.TrimSuffix(filepath.Base(p), ".exe")]
}

// installsShadow says why a shell line builds or installs a program named
// sessiongate or git onto PATH ("" when it does not). Only local sources
// are read (a package's own bin names); a registry package is not fetched.
func installsShadow(line, dir string, getenv func(string) string) string {
	pathDirs := map[string]bool{}
	for _, d := range filepath.SplitList(getenv("PATH")) {
		if filepath.IsAbs(d) {
			pathDirs[filepath.Clean(d)] = true
		}
	}
	home := getenv("HOME")
	abs := func(cwd, p string) string {
		switch {
		case p == "~" && home != "":
			p = home
		case strings.HasPrefix(p, "~/") && home != "":
			p = filepath.Join(home, p[2:])
		case strings.HasPrefix(p, "$HOME/") && home != "":
			p = filepath.Join(home, p[6:])
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		return filepath.Clean(p)
	}
	why := func(what, name string) string {
		return "sessiongate: `" + what + "` puts a `" + name + "` on PATH, which the agent's and git's hooks run by name from PATH: a replacement there would answer every hook, so the agent being policed may not install one"
	}
	if home != "" && filepath.IsAbs(home) && !strings.ContainsAny(home, " \t'\"$`\\") {
		// The parse leaves ~ and $HOME words unread; they name the home
		// folder here.
		line = homeWord.ReplaceAllString(line, "${1}"+home+"/")
	}
	if !strings.ContainsAny(dir, " \t'\"$`\\") {
		// $PWD likewise: a source's own name is what counts
		// (`ln -s $PWD/shim/sessiongate ~/.local/bin/`).
		line = pwdWord.ReplaceAllString(line, "${1}"+dir+"/")
	}
	for _, l := range append([]string{line}, shellline.Inner(line)...) {
		cwd := dir
		for _, p := range shellline.Programs(l) {
			w := shellline.StripWrappers(p)
			if len(w) == 0 {
				continue
			}
			prog := strings.TrimSuffix(filepath.Base(w[0]), ".exe")
			args := w[1:]
			what := strings.Join(w, " ")
			switch {
			case prog == "cd" && len(args) == 1:
				cwd = abs(cwd, args[0])
			case prog == "go" && len(args) > 0 && args[0] == "build":
				out, pkgs := goBuildArgs(args[1:])
				if out == "" {
					// No -o: one package's binary lands in the folder
					// the line is in (`cd ~/.local/bin && go build ...`).
					if pathDirs[cwd] && len(pkgs) <= 1 {
						for _, n := range goBinNames(cwd, pkgs, abs) {
							return why(what, n)
						}
					}
					continue
				}
				o := abs(cwd, out)
				if pathDirs[o] || strings.HasSuffix(out, "/") {
					// -o into a folder: each main package's binary takes
					// its folder's name (`-o DIR/ ./tools/...`).
					if pathDirs[strings.TrimSuffix(o, "/")] {
						for _, n := range goBinNames(cwd, pkgs, abs) {
							return why(what, n)
						}
					}
					continue
				}
				if shadowName(o) && pathDirs[filepath.Dir(o)] {
					return why(what, filepath.Base(o))
				}
			case prog == "go" && len(args) > 0 && args[0] == "install":
				// Into GOBIN or GOPATH/bin, wherever they point: every main
				// package the patterns match (`./...` included).
				_, pkgs := goBuildArgs(args[1:])
				for _, n := range goBinNames(cwd, pkgs, abs) {
					return why(what, n)
				}
			case prog == "cp" || prog == "mv" || prog == "ln" || prog == "install" || prog == "rsync":
				if n := copiesShadow(prog, args, cwd, abs, pathDirs, globWords(l)); n != "" {
					return why(what, n)
				}
			case prog == "npm" || prog == "pnpm" || prog == "yarn" || prog == "bun":
				if n := npmShadow(args, cwd, abs); n != "" {
					return why(what, n)
				}
			case strings.HasPrefix(prog, "pip") || prog == "pipx" || prog == "uv" || strings.HasPrefix(prog, "python"):
				if n := pipShadow(prog, args, cwd, abs); n != "" {
					return why(what, n)
				}
			}
		}
	}
	return ""
}

// goBuildArgs splits go build/install arguments into -o's value and the
// packages.
func goBuildArgs(args []string) (out string, pkgs []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if strings.HasPrefix(a, "--o") {
			a = a[1:] // the go command takes --o as -o
		}
		switch {
		case a == "-o" && i+1 < len(args):
			out = args[i+1]
			i++
		case strings.HasPrefix(a, "-o="):
			out = a[3:]
		case strings.HasPrefix(a, "-"):
			// Flags with a separate value would be misread as packages;
			// a wrong package name only misses a shim, never blocks.
		default:
			pkgs = append(pkgs, a)
		}
	}
	return out, pkgs
}

// goBinName is the name go gives a package's binary: its path's last
// element (the folder's own name for "." and the like), past @version.
func goBinName(absPkg, pkg string) string {
	pkg, _, _ = strings.Cut(pkg, "@")
	if strings.HasPrefix(pkg, ".") || filepath.IsAbs(pkg) {
		pkg = absPkg
	}
	return filepath.Base(strings.TrimSuffix(pkg, "/..."))
}

// goBinNames are the shadow names among the binaries go build or install
// makes of pkgs (none: the package in cwd). A local pattern (`./...`,
// `./tools/...`) is read from disk: each main package below it is named
// after its folder, so a `tools/sessiongate` among them is a shim.
func goBinNames(cwd string, pkgs []string, abs func(cwd, p string) string) []string {
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	var names []string
	for _, pkg := range pkgs {
		root, pattern := strings.CutSuffix(pkg, "...")
		local := strings.HasPrefix(pkg, ".") || filepath.IsAbs(pkg)
		if !pattern || !local {
			if n := goBinName(abs(cwd, pkg), pkg); shadowName(n) {
				names = append(names, n)
			}
			continue
		}
		names = append(names, goMainShadows(abs(cwd, strings.TrimSuffix(root, "/")))...)
	}
	return names
}

// goMainShadows walks root as go's `...` does (past folders starting with
// . or _ and testdata) for main packages in a folder with a shadow name.
// Only such folders' files are opened, so the walk costs a directory
// listing per folder.
func goMainShadows(root string) []string {
	var names []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		n := d.Name()
		if p != root && (strings.HasPrefix(n, ".") || strings.HasPrefix(n, "_") || n == "testdata") {
			return filepath.SkipDir
		}
		if shadowName(n) && mainPackage(p) {
			names = append(names, n)
		}
		return nil
	})
	return names
}

// mainPackage reports whether a folder holds a Go file of package main.
func mainPackage(dir string) bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		b, err := boundedread.File(filepath.Join(dir, e.Name()), boundedread.DefaultLimit)
		if err == nil && goPackageMain.Match(b) {
			return true
		}
	}
	return false
}

// globWord is a word of literal text with a glob character.
var globWord = lazyregexp.New("(?:^|\\s)([^\\s$`'\"|;&<>()]*[*?\\[][^\\s$`'\"|;&<>()]*)")

// globWords are the line's glob words (`shims/*`), which the parse leaves
// unread.
func globWords(l string) []string {
	var out []string
	for _, m := range globWord.FindAllStringSubmatch(l, -1) {
		out = append(out, m[1])
	}
	return out
}

var goPackageMain = lazyregexp.New(`(?m)^package\s+main\b`)

// copiesShadow is a shadow name a copy, move, link or install puts into a
// PATH folder under the source's own name (`cp shim/sessiongate
// ~/.local/bin/`, `install -t ~/bin git`); a destination that names the
// file itself is a literal write target, judged with the others.
func copiesShadow(prog string, args []string, cwd string, abs func(cwd, p string) string, pathDirs map[string]bool, globs []string) string {
	var words []string
	dest := ""
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-t" && i+1 < len(args):
			dest = args[i+1]
			i++
		case strings.HasPrefix(a, "--target-directory="):
			dest = strings.TrimPrefix(a, "--target-directory=")
		case prog == "install" && (a == "-m" || a == "-o" || a == "-g" || a == "-S") && i+1 < len(args):
			i++ // install's options with a value
		case strings.HasPrefix(a, "-"):
		default:
			words = append(words, a)
		}
	}
	srcs := words
	if dest == "" {
		switch {
		case len(words) >= 2:
			dest, srcs = words[len(words)-1], words[:len(words)-1]
		case len(words) == 1 && prog == "ln":
			dest = cwd // `ln -s /x/sessiongate` links into the line's folder
		default:
			return ""
		}
	}
	if !pathDirs[abs(cwd, dest)] {
		return ""
	}
	for i := 0; i < len(srcs); i++ {
		s := srcs[i]
		if s == "" {
			// A word the parse does not read: a glob is read from the
			// line's text; anything else (`cp "$S" ~/.local/bin/`) may be
			// the shim.
			if len(globs) == 0 {
				return "sessiongate"
			}
			srcs = append(srcs, globs...)
			globs = nil
			continue
		}
		if n := strings.TrimSuffix(filepath.Base(strings.TrimSuffix(s, "/")), ".exe"); shadowName(n) {
			return n
		}
		// A glob (`cp shims/* DIR`) or a folder's contents (`rsync -a
		// shims/ DIR`, `cp -r shims/. DIR`): the names on disk.
		names, _ := filepath.Glob(abs(cwd, s))
		for _, m := range names {
			if fi, err := os.Stat(m); err == nil && fi.IsDir() {
				if ents, err := os.ReadDir(m); err == nil {
					for _, e := range ents {
						if shadowName(e.Name()) {
							return strings.TrimSuffix(e.Name(), ".exe")
						}
					}
				}
				continue
			}
			if shadowName(m) {
				return strings.TrimSuffix(filepath.Base(m), ".exe")
			}
		}
	}
	return ""
}

// npmShadow is a shadow name among the bins of a local package installed
// globally (`npm i -g ./dir`, `npm link` in or to a folder, `yarn global
// add`, `pnpm add -g`).
func npmShadow(args []string, cwd string, abs func(cwd, p string) string) string {
	global, link, install := false, false, false
	var specs []string
	for i, a := range args {
		switch {
		case a == "-g" || a == "--global" || a == "--location=global" || i == 0 && a == "global":
			global = true
		case a == "link" || a == "ln":
			link, install = true, true
		case a == "i" || a == "install" || a == "add" || a == "isntall":
			install = true
		case strings.HasPrefix(a, "-"):
		default:
			if install {
				specs = append(specs, a)
			}
		}
	}
	if !install || !global && !link {
		return ""
	}
	if link && len(specs) == 0 {
		specs = []string{"."}
	}
	for _, s := range specs {
		d := abs(cwd, strings.TrimPrefix(s, "file:"))
		b, err := boundedread.File(filepath.Join(d, "package.json"), boundedread.DefaultLimit)
		if err != nil {
			continue
		}
		var pkg struct {
			Name string          `json:"name"`
			Bin  json.RawMessage `json:"bin"`
		}
		if json.Unmarshal(b, &pkg) != nil {
			continue
		}
		var one string
		var many map[string]string
		switch {
		case json.Unmarshal(pkg.Bin, &one) == nil:
			// A string bin takes the package's name, past its scope.
			if n := pkg.Name[strings.LastIndex(pkg.Name, "/")+1:]; shadowName(n) {
				return n
			}
		case json.Unmarshal(pkg.Bin, &many) == nil:
			for n := range many {
				if shadowName(n) {
					return n
				}
			}
		}
	}
	return ""
}

// scriptEntry is an entry named sessiongate or git; scriptSection a
// section of pyproject.toml or setup.cfg that lists console scripts.
var (
	scriptEntry   = lazyregexp.New(`^\s*["']?(sessiongate|git)["']?\s*=`)
	setupPyEntry  = lazyregexp.New(`["']\s*(sessiongate|git)\s*=`)
	scriptSection = lazyregexp.New(`^\s*\[\s*(project\.scripts|project\.gui-scripts|tool\.poetry\.scripts|options\.entry_points)\s*\]`)
)

// consoleScript is a shadow name a Python package's metadata declares as
// a script ("" when none).
func consoleScript(name string, b []byte) string {
	if name == "setup.py" {
		if m := setupPyEntry.FindSubmatch(b); m != nil {
			return string(m[1])
		}
		return ""
	}
	in := false
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "[") {
			in = scriptSection.MatchString(l)
			continue
		}
		if m := scriptEntry.FindStringSubmatch(l); in && m != nil {
			return m[1]
		}
	}
	return ""
}

// pipShadow is a shadow name among the console scripts of a local package
// pip, pipx or `uv tool` installs.
func pipShadow(prog string, args []string, cwd string, abs func(cwd, p string) string) string {
	if strings.HasPrefix(prog, "python") {
		// python -m pip install ...
		i := 0
		for i+1 < len(args) && !(args[i] == "-m" && strings.HasPrefix(args[i+1], "pip")) {
			i++
		}
		if i+1 >= len(args) {
			return ""
		}
		args = args[i+2:]
	}
	if prog == "uv" {
		if len(args) < 2 || args[0] != "tool" && args[0] != "pip" {
			return ""
		}
		args = args[1:]
	}
	if len(args) == 0 || args[0] != "install" {
		return ""
	}
	for i := 1; i < len(args); i++ {
		a := args[i]
		if a == "-e" || a == "--editable" {
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		d := abs(cwd, a)
		for _, f := range []string{"pyproject.toml", "setup.cfg", "setup.py"} {
			b, err := boundedread.File(filepath.Join(d, f), boundedread.DefaultLimit)
			if err != nil {
				continue
			}
			if n := consoleScript(f, b); n != "" {
				return n
			}
		}
	}
	return ""
}
