// Package gateprog judges the programs a gate's command (or an observed
// test run) runs: the gate's PATH keeps only folders that were on it when
// the session started, but a program written into one of those folders
// after the start (`~/go/bin/go` printing "ok", `~/.local/bin/pytest`
// exiting 0, `ln -sf /bin/true node_modules/.bin/jest`, a `.venv/bin/pytest`
// rewritten) still answered for the tests (round 26 left it open). A
// session keeps, at its start, where each runner's name resolved (Start);
// a program that resolves elsewhere now, or that changed after the start
// and is not what an installer writes (a Go module build, a pip/uv console
// script, a rustup proxy, an npm package's bin link), makes the run not
// count. It needs no session: a line, an environment and a start time.
package gateprog

import (
	"bytes"
	"debug/buildinfo"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
)

// Start is what a session keeps at its start: where each program name
// resolved on the gate's PATH ("" when it did not).
type Start struct {
	Programs map[string]string `json:"programs"`
	// At is when it was taken, by the clock file change times are
	// stamped with (a session's own start time may be another clock's).
	At time.Time `json:"at"`
}

// runners are the names recorded at every start besides the protocol's
// own: the programs a test or lint line most often runs, so an observed
// run of one the protocol does not name is judged too. A stat per PATH
// folder each: well under a millisecond.
var runners = []string{"sh", "bash", "go", "gofmt", "python", "python3", "pytest", "uv", "tox", "node", "npm", "npx",
	"yarn", "pnpm", "jest", "vitest", "mocha", "eslint", "ruff", "cargo", "rustc", "make", "just", "git"}

// Record resolves the runners and the programs lines run on env's PATH.
func Record(env []string, lines []string) Start {
	names := slices.Clone(runners)
	for _, l := range lines {
		names = append(names, bareNames(l)...)
	}
	st := Start{Programs: map[string]string{}, At: time.Now()}
	for _, n := range names {
		p, _ := lookPath(env, n)
		st.Programs[n] = p
	}
	return st
}

// Parse reads a Start kept as JSON (ok false when it is not one).
func Parse(detail string) (Start, bool) {
	var st Start
	if json.Unmarshal([]byte(detail), &st) != nil || st.Programs == nil {
		return Start{}, false
	}
	return st, true
}

// bareNames are the programs a line runs by name (no slash).
func bareNames(line string) []string {
	var out []string
	for _, w := range programs(line) {
		if !strings.Contains(w, "/") {
			out = append(out, w)
		}
	}
	return out
}

// programs are the first words of the line's commands, wrappers stripped.
func programs(line string) []string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return nil
	}
	var out []string
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) > 0 && w[0] != "" && !slices.Contains(out, w[0]) {
			out = append(out, w[0])
		}
		// "$(which pytest)" -q runs what PATH names pytest: judge it too.
		if len(w) > 1 && (w[0] == "which" || w[0] == "type" || w[0] == "whence") {
			for _, a := range w[1:] {
				if a != "" && !strings.HasPrefix(a, "-") && !slices.Contains(out, a) {
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// Why names the first program line runs (in root, on env's PATH; `sh`,
// the shell a gate runs it with, always) that resolves elsewhere than at
// the start, or that changed after since and is no installer's; "" when
// none did, or since is zero.
func Why(line string, env []string, root string, st Start, since time.Time) string {
	if since.IsZero() {
		return ""
	}
	if why := cargoConfigWhy(line, env, root, since); why != "" {
		return why
	}
	progs := append([]string{"sh"}, programs(line)...)
	progs = append(progs, npmScriptPrograms(line, root)...)
	sw := walkScripts(line, root)
	progs = append(progs, sw.out...)
	seen := map[string]bool{}
	for _, w := range progs {
		if seen[w] {
			continue
		}
		seen[w] = true
		var p string
		switch {
		case strings.HasPrefix(w, "node_modules/.bin/"):
			p = filepath.Join(root, w)
			if _, err := os.Lstat(p); err != nil {
				continue
			}
		case strings.Contains(w, "/"):
			p = w
			if !filepath.IsAbs(p) {
				p = filepath.Join(root, p)
			}
			if _, err := os.Lstat(p); err != nil {
				continue
			}
			// The work tree's own files (`./bin/app` the line builds) are
			// the committed-tree rules'; an installer's folder in it
			// (a venv, node_modules) is untracked and judged here.
			if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) && !installerFolder(root, rel) {
				continue
			}
		default:
			var err error
			if p, err = lookPath(env, w); err != nil {
				continue
			}
			// A program of this name there at the start, another now:
			// one put before it on PATH. (One installed where there was
			// none is judged as a file below.)
			if was := st.Programs[w]; was != "" && was != p && changed(p, since, true) {
				return fmt.Sprintf("`%s` now runs %s, made after the session started (at the start: %s)", w, p, was)
			}
		}
		if why := judge(w, p, root, env, since); why != "" {
			return why
		}
		if why := entryWhy(p, env, since); why != "" {
			return why
		}
	}
	if why := npxWhy(line, root, env, since); why != "" {
		return why
	}
	// `python -m pytest`: the package the interpreter imports.
	for _, m := range append(moduleRuns(line), sw.mods...) {
		interp := m[0]
		if !strings.Contains(interp, "/") {
			var err error
			if interp, err = lookPath(env, interp); err != nil {
				continue
			}
		} else if !filepath.IsAbs(interp) {
			interp = filepath.Join(root, interp)
		}
		if why := pyModuleWhy(interp, m[1], env, since); why != "" {
			return why
		}
	}
	return ""
}

// changed reports p (the link itself when link) changed after since.
func changed(p string, since time.Time, link bool) bool {
	of := ctime.Of
	if link {
		of = ctime.OfLink
	}
	t, err := of(p)
	return err == nil && t.After(since)
}

// judge names how program p (run as name) changed after since, unless
// what changed is an installer's work.
func judge(name, p, root string, env []string, since time.Time) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	// A FIFO or device where a program should be (`mkfifo -m 755
	// node_modules/.bin/jest`): its size is 0, and reading it hung the gate
	// and the observed-run hook. Not judged here: refused.
	if fi, err := os.Stat(real); err == nil && !fi.IsDir() && !fi.Mode().IsRegular() {
		return fmt.Sprintf("%s is %s, not a program file: not judged here", real, boundedread.Kind(fi.Mode()))
	}
	// mise, asdf and volta shims (a link to mise, re-made by every
	// `mise reshim`): every installed version's program.
	if targets, ok := managerTargets(p, real, name); ok {
		return judgeShim(targets, root, env, since)
	}
	linkChanged := changed(p, since, true)
	if linkChanged && real != filepath.Clean(p) {
		if why := judgeLink(p, real); why != "" {
			return why
		}
	}
	// A pyenv shim (rewritten by every `pyenv rehash`) runs a version's
	// program: that one is judged, whenever the shim was written.
	if b, err := boundedread.File(real, 4095); err == nil {
		if proot, targets := pyenvTargets(b, name); proot != "" {
			return judgeShim(targets, root, env, since)
		}
	}
	if !changed(real, since, false) {
		return ""
	}
	return judgeFile(p, real, root, since)
}

// judgeLink: a link made or re-pointed after the start must point at a
// program of its own name (python3 -> python3.11, jest -> ../jest/bin/jest.js),
// a rustup proxy, or, in node_modules/.bin, the bin its package declares.
// `ln -sf /bin/true node_modules/.bin/jest` is none of those.
func judgeLink(p, real string) string {
	if filepath.Base(real) == "rustup" || stem(filepath.Base(real)) == stem(filepath.Base(p)) {
		return ""
	}
	if npmBinOf(real) {
		return ""
	}
	return fmt.Sprintf("%s was linked to %s after the session started (not a program of its name, nor an installer's link)", p, real)
}

// stem is a program's name without version digits and extension:
// python3.11 and python3 are python; jest.js is jest.
func stem(n string) string {
	n = strings.TrimSuffix(n, filepath.Ext(n))
	if i := strings.IndexFunc(n, func(r rune) bool { return r >= '0' && r <= '9' }); i > 0 {
		n = n[:i]
	}
	return strings.TrimRight(n, "-_.")
}

// npmBinOf reports a link target that a package's package.json declares
// a bin: node_modules/.bin/jest -> ../jest/bin/jest.js, and a global
// install's /usr/bin/npm -> ../lib/node_modules/npm/bin/npm-cli.js.
func npmBinOf(real string) bool {
	pdir := npmPackageOf(real)
	if pdir == "" {
		return false
	}
	return slices.ContainsFunc(packageBins(pdir), func(b string) bool {
		return filepath.Clean(filepath.Join(pdir, b)) == real
	})
}

// packageBins are the files a package.json's "bin" names.
func packageBins(pdir string) []string {
	b, err := boundedread.File(filepath.Join(pdir, "package.json"), 1<<20)
	if err != nil {
		return nil
	}
	var pj struct {
		Name string          `json:"name"`
		Bin  json.RawMessage `json:"bin"`
	}
	if json.Unmarshal(b, &pj) != nil {
		return nil
	}
	var one string
	if json.Unmarshal(pj.Bin, &one) == nil {
		return []string{one}
	}
	var many map[string]string
	if json.Unmarshal(pj.Bin, &many) != nil {
		return nil
	}
	var out []string
	for _, v := range many {
		out = append(out, v)
	}
	return out
}

// judgeFile: a program file written after the start counts only when it
// is what an installer writes.
func judgeFile(p, real, root string, since time.Time) string {
	// The cheap shapes first; dpkg's database (a process and an md5)
	// only when none fits.
	if rustupProxy(real) {
		return ""
	}
	if b, err := boundedread.File(real, 4096); err == nil && consoleScript(b) {
		return ""
	}
	// An npm package's bin file rewritten alone: a reinstall (npm ci)
	// writes its package.json too.
	if pdir := npmPackageOf(real); pdir != "" {
		if changed(filepath.Join(pdir, "package.json"), since, false) || dpkgOwned(real) {
			return ""
		}
		return fmt.Sprintf("%s changed after the session started, its package (%s) not reinstalled", real, filepath.Base(pdir))
	}
	if wheelInstalled(real) || newRuntimeInstall(real, since) {
		return ""
	}
	why, isGo := goBinary(real, root)
	if isGo && why == "" || dpkgOwned(real) {
		return ""
	}
	if why != "" {
		return why
	}
	what := real
	if real != filepath.Clean(p) {
		what = real + " (what " + p + " runs)"
	}
	return fmt.Sprintf("%s changed after the session started and is not what an installer writes (a Go module build, a pip/uv console script or a file its wheel's RECORD lists, a rustup proxy, an npm package's bin, a Debian package's file)", what)
}

// goBinary judges a Go executable (ok false when real is none): built
// from a published module version (`go install mod/cmd/x@v1`, its sum
// checked) under its package's name, or one of the toolchain's own
// commands, or the work tree's own module's command (`go install
// ./cmd/tool`: its source is the session's work, which the other rules
// judge); another build of local source ("(devel)") is not an install.
func goBinary(real, root string) (string, bool) {
	bi, err := buildinfo.ReadFile(real)
	if err != nil {
		return "", false
	}
	if strings.HasPrefix(bi.Path, "cmd/") {
		return "", true
	}
	elem := filepath.Base(bi.Path)
	if majorElem.MatchString(elem) {
		elem = filepath.Base(filepath.Dir(bi.Path))
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" && bi.Main.Sum != "" && elem == filepath.Base(real) {
		return "", true
	}
	if m := modulePath(root); m != "" && bi.Main.Path == m && elem == filepath.Base(real) {
		return "", true
	}
	return fmt.Sprintf("%s changed after the session started and is a Go build of %s %s, not an install of a published module", real, bi.Path, bi.Main.Version), true
}

// rustupProxy: rustup's proxies (cargo, rustc) are copies or hard links
// of the rustup binary beside them; `rustup update` rewrites them all.
func rustupProxy(real string) bool {
	r := filepath.Join(filepath.Dir(real), "rustup")
	if r == real {
		return true
	}
	a, err1 := os.Stat(real)
	b, err2 := os.Stat(r)
	if err1 != nil || err2 != nil || a.Size() != b.Size() {
		return false
	}
	if os.SameFile(a, b) {
		return true
	}
	x, err1 := boundedread.File(real, maxProgram)
	y, err2 := boundedread.File(r, maxProgram)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// consoleLine are the lines of the entry-point scripts pip, uv and
// setuptools write (`from pytest import console_main` ... `sys.exit(console_main())`).
var consoleLine = lazyregexp.New(`^(?:#.*|import (?:re|sys)|from [A-Za-z_][\w.]* import [A-Za-z_][\w.]*|if __name__ == ['"]__main__['"]:|\s+(?:el)?if sys\.argv\[0\]\.endswith\([^)]*\):|\s+sys\.argv\[0\] = .*|\s+sys\.exit\([A-Za-z_][\w.]*\(\)\)|)$`)

var longShebang = lazyregexp.New(`^'''exec' (?:"[^"]*python[^"]*"|\S*python\S*) "\$0" "\$@"$`)

// consoleScript reports an installer's Python entry-point script: a
// python #! line, one import of the entry point, and nothing but the
// argv fix-up and its call.
func consoleScript(b []byte) bool {
	if len(b) > 4096 {
		return false
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	// A #! line too long for the kernel is written as sh exec'ing python.
	if len(lines) > 3 && lines[0] == "#!/bin/sh" && longShebang.MatchString(lines[1]) && lines[2] == "' '''" {
		lines = append([]string{"#!python"}, lines[3:]...)
	}
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "#!") || !strings.Contains(lines[0], "python") {
		return false
	}
	imports, exits := 0, 0
	for _, l := range lines[1:] {
		if !consoleLine.MatchString(l) {
			return false
		}
		if strings.HasPrefix(l, "from ") {
			imports++
		}
		if strings.Contains(l, "sys.exit(") {
			exits++
		}
	}
	return imports == 1 && exits == 1
}

// npmPackageOf is the package folder (under a node_modules) holding p.
func npmPackageOf(p string) string {
	parts := strings.Split(filepath.ToSlash(p), "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] != "node_modules" || i+1 >= len(parts)-1 || parts[i+1] == ".bin" {
			continue
		}
		end := i + 2
		if strings.HasPrefix(parts[i+1], "@") {
			end++
		}
		return filepath.FromSlash(strings.Join(parts[:end], "/"))
	}
	return ""
}

// lookPath finds name on env's PATH (the last PATH= wins).
func lookPath(env []string, name string) (string, error) {
	path := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			path = v
		}
	}
	for _, d := range filepath.SplitList(path) {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		// A regular file only: a FIFO with an x bit has size 0 and hung
		// every read of it; the shell cannot run one either.
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", os.ErrNotExist
}

// installerFolder: rel (in root) lies in a venv (a folder holding
// pyvenv.cfg) or under node_modules.
func installerFolder(root, rel string) bool {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if slices.Contains(parts, "node_modules") {
		return true
	}
	for d := filepath.Dir(rel); d != "." && d != string(filepath.Separator); d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(root, d, "pyvenv.cfg")); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// modulePath is the module line of root's go.mod ("" when none).
func modulePath(root string) string {
	b, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return ""
	}
	for _, l := range strings.Split(string(b), "\n") {
		if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
			return strings.Trim(strings.TrimSpace(m), `"`)
		}
	}
	return ""
}

// maxProgram bounds a program read whole to compare or hash (a rustup
// proxy, a wheel's or dpkg's file): above any interpreter or toolchain
// binary; a larger one is not an installer's here, so it is refused.
const maxProgram = 512 << 20

// majorElem is a module path's major-version element (`v2`).
var majorElem = lazyregexp.New(`^v[0-9]+$`)
