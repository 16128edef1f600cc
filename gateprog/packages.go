package gateprog

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/lazyregexp"
	"github.com/sessiongate/sessiongate/shellline"
)

// The program a gate runs can stay as installed while the package it
// loads is rewritten: pytest's console script is pip's, but
// `_pytest/main.py` made to exit 0, or jest's bin unchanged and its
// package's code edited, answered for the tests (judged for observed runs
// only, by venvtrust; round 27 left gates open). Only the packages the
// program's entry point belongs to are read, and of their files only
// those changed since the start are hashed: a RECORD's sha256 for a
// Python distribution, "every file of the package rewritten" (what an
// install does) for an npm package.

// maxPackageFiles bounds the files of one package walked.
const maxPackageFiles = 5000

// entryWhy judges the package the program at p (as resolved) loads: an
// npm package's bin, or a Python console script's module.
func entryWhy(p string, env []string, since time.Time) string {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return ""
	}
	if pdir := npmPackageOf(real); pdir != "" {
		return npmPackageWhy(pdir, real, since)
	}
	b, err := boundedread.File(real, 4096)
	if err != nil || !consoleScript(b) {
		return ""
	}
	m := consoleImport.FindSubmatch(b)
	if m == nil {
		return ""
	}
	interp := scriptInterp(b)
	if interp == "" {
		return ""
	}
	return pyModuleWhy(interp, string(m[1]), env, since)
}

var consoleImport = lazyregexp.New(`(?m)^from ([A-Za-z_][\w]*)[\w.]* import `)

// scriptInterp is the python a console script's #! line (or its long
// form, sh exec'ing python) names.
func scriptInterp(b []byte) string {
	lines := strings.SplitN(string(b), "\n", 3)
	first := strings.TrimPrefix(lines[0], "#!")
	if first == "/bin/sh" && len(lines) > 1 {
		if m := longShebang.FindStringSubmatch(lines[1]); m != nil {
			f := strings.Fields(strings.TrimPrefix(lines[1], "'''exec' "))
			if len(f) > 0 {
				return strings.Trim(f[0], `"`)
			}
		}
		return ""
	}
	f := strings.Fields(first)
	if len(f) == 0 || !filepath.IsAbs(f[0]) {
		return ""
	}
	if filepath.Base(f[0]) == "env" && len(f) > 1 {
		return "" // `#!/usr/bin/env python3`: resolved on PATH, judged as a program
	}
	return f[0]
}

// moduleRuns are the `python -m MOD` calls of a line: the interpreter
// word and the module.
func moduleRuns(line string) [][2]string {
	calls, _, ok := shellline.Calls(shellline.Unwrap(line))
	if !ok {
		return nil
	}
	var out [][2]string
	for _, c := range calls {
		w := shellline.StripWrappers(c.Words)
		if len(w) < 3 || !pythonName.MatchString(filepath.Base(w[0])) {
			continue
		}
		for i := 1; i+1 < len(w); i++ {
			if w[i] == "-m" {
				out = append(out, [2]string{w[0], strings.SplitN(w[i+1], ".", 2)[0]})
				break
			}
			if !strings.HasPrefix(w[i], "-") {
				break // a script's path: not -m
			}
		}
	}
	return out
}

var pythonName = lazyregexp.New(`^python[0-9.]*$`)

// pyModuleWhy judges the installed distribution that module mod comes
// from, in the site folders interp reads: a file its RECORD lists that
// changed since and no longer has its sha256, or a RECORD rewritten
// since by no installer.
func pyModuleWhy(interp, mod string, env []string, since time.Time) string {
	if mod == "" || mod == "pip" {
		return ""
	}
	// A pyenv/mise/asdf shim runs one of its versions' pythons: each
	// one's site folders.
	interps := []string{interp}
	if real, err := filepath.EvalSymlinks(interp); err == nil {
		if targets, ok := managerTargets(interp, real, filepath.Base(interp)); ok {
			interps = targets
		} else if b, err := boundedread.File(real, 4095); err == nil {
			if proot, targets := pyenvTargets(b, filepath.Base(interp)); proot != "" {
				interps = targets
			}
		}
	}
	var sites []string
	for _, i := range interps {
		sites = append(sites, siteFolders(i, env)...)
	}
	if why := startupWhy(sites, mod, since); why != "" {
		return why
	}
	for _, site := range sites {
		var at string
		for _, c := range []string{filepath.Join(site, mod), filepath.Join(site, mod+".py")} {
			if exists(c) {
				at = c
			}
		}
		if at == "" {
			continue
		}
		di, rec := distOf(site, mod)
		if di == "" {
			// Not from a wheel (a system package with no RECORD): one
			// written since the start is no install (`pytest/` planted in
			// the user's site, before the system's on sys.path).
			if f := changedUnder(at, since); f != "" {
				return fmt.Sprintf("%s changed after the session started and no installed distribution's RECORD lists %s: a package planted where the gate's python imports it", f, mod)
			}
			continue
		}
		if why := recordWhy(site, di, rec, since); why != "" {
			return why
		}
	}
	return ""
}

// siteFolders are the folders interp imports installed packages from: a
// venv's own (and its base's, with include-system-site-packages), else
// its prefix's, and the user's site.
func siteFolders(interp string, env []string) []string {
	var out []string
	add := func(prefix string) {
		for _, g := range []string{"lib/python3*/site-packages", "lib/python3*/dist-packages", "lib/python3/dist-packages", "local/lib/python3*/dist-packages"} {
			m, _ := filepath.Glob(filepath.Join(prefix, g))
			out = append(out, m...)
		}
	}
	venv := filepath.Dir(filepath.Dir(interp))
	if cfg, err := boundedread.File(filepath.Join(venv, "pyvenv.cfg"), 64<<10); err == nil {
		add(venv)
		vals := map[string]string{}
		for _, l := range strings.Split(string(cfg), "\n") {
			if k, v, ok := strings.Cut(l, "="); ok {
				vals[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
		}
		if vals["include-system-site-packages"] != "true" {
			return out
		}
		if h := vals["home"]; h != "" {
			add(filepath.Dir(h))
		}
	} else if real, err := filepath.EvalSymlinks(interp); err == nil {
		add(filepath.Dir(filepath.Dir(real)))
	}
	for _, kv := range env {
		if h, ok := strings.CutPrefix(kv, "HOME="); ok && h != "" {
			m, _ := filepath.Glob(filepath.Join(h, ".local/lib/python3*/site-packages"))
			out = append(out, m...)
		}
	}
	return out
}

// distOf finds the dist-info in site whose RECORD lists module mod (its
// folder or file): the one named after it first, then any.
func distOf(site, mod string) (string, []string) {
	all, _ := filepath.Glob(filepath.Join(site, "*.dist-info"))
	if len(all) > 2000 {
		return "", nil
	}
	norm := func(s string) string { return strings.ToLower(strings.NewReplacer("-", "_", ".", "_").Replace(s)) }
	var named, rest []string
	for _, d := range all {
		if strings.HasPrefix(norm(filepath.Base(d)), norm(mod)+"_") {
			named = append(named, d)
		} else {
			rest = append(rest, d)
		}
	}
	for _, d := range append(named, rest...) {
		b, err := boundedread.File(filepath.Join(d, "RECORD"), 16<<20)
		if err != nil {
			continue
		}
		lines := strings.Split(string(b), "\n")
		for _, l := range lines {
			if strings.HasPrefix(l, mod+"/") || strings.HasPrefix(l, mod+".py,") {
				return d, lines
			}
		}
	}
	return "", nil
}

// recordWhy: the RECORD changed since the start only with the whole
// distribution reinstalled (pip writes INSTALLER and every file again);
// a listed file changed since must have the sha256 the RECORD gives.
func recordWhy(site, di string, rec []string, since time.Time) string {
	type entry struct{ path, sum string }
	var files []entry
	for _, l := range rec {
		f := strings.Split(strings.TrimSpace(l), ",")
		// Python rewrites a stale .pyc itself (an honest run): the
		// source beside it is what is hashed.
		if len(f) < 2 || f[1] == "" || strings.HasSuffix(f[0], ".pyc") {
			continue
		}
		files = append(files, entry{filepath.Clean(filepath.Join(site, filepath.FromSlash(f[0]))), f[1]})
	}
	recPath := filepath.Join(di, "RECORD")
	if changed(recPath, since, false) {
		inst := filepath.Join(di, "INSTALLER")
		reinstalled := changed(inst, since, false)
		for _, e := range files {
			if reinstalled && exists(e.path) && !changed(e.path, since, true) {
				reinstalled = false
			}
		}
		if !reinstalled {
			return fmt.Sprintf("%s changed after the session started and not by an installer (pip writes the whole dist-info, INSTALLER included, and every file it lists again): a RECORD rewritten to match a rewritten file", recPath)
		}
	}
	for _, e := range files {
		if !changed(e.path, since, true) {
			continue
		}
		b, err := boundedread.File(e.path, 256<<20)
		if errors.Is(err, fs.ErrNotExist) {
			continue // gone: nothing it runs
		}
		if err != nil {
			// A FIFO, device or huge file where the package's file was
			// is not proved by its RECORD.
			return fmt.Sprintf("%s changed after the session started and is not judged here: %v", e.path, err)
		}
		h := sha256.Sum256(b)
		if e.sum != "sha256="+base64.RawURLEncoding.EncodeToString(h[:]) {
			return fmt.Sprintf("%s changed after the session started and is not what its package's RECORD (%s) lists: the installed package the gate's program loads was rewritten", e.path, filepath.Base(di))
		}
	}
	return ""
}

// npmPackageWhy judges an npm package's files (the package holding the
// program, and the packages its bin file requires): a file changed since
// the start counts only when every file of its package did and its
// package.json too (npm ci writes them all); one file rewritten is not
// an install.
func npmPackageWhy(pdir, bin string, since time.Time) string {
	dirs := []string{pdir}
	if b, err := boundedread.File(bin, 1<<20); err == nil {
		for _, m := range nodeRequire.FindAllStringSubmatch(string(b), 32) {
			spec := m[1]
			if d := nodePackageDir(pdir, spec); d != "" && d != pdir {
				dirs = append(dirs, d)
			}
		}
	}
	for _, d := range dirs {
		if why := npmFilesWhy(d, since); why != "" {
			return why
		}
	}
	return ""
}

// nodeRequire is a require() or import of a package by its name.
var nodeRequire = lazyregexp.New(`(?:\brequire\(\s*|\bimport\s*\(\s*|\bfrom\s+|^\s*import\s+)["']([@A-Za-z0-9_][^"'\s]*)["']`)

// nodePackageDir is the folder of the package a bare require names, as
// node looks it up from pdir ("" for a relative or built-in one).
func nodePackageDir(pdir, spec string) string {
	if spec == "" || strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "node:") {
		return ""
	}
	parts := strings.Split(spec, "/")
	name := parts[0]
	if strings.HasPrefix(name, "@") && len(parts) > 1 {
		name += "/" + parts[1]
	}
	for d := pdir; ; d = filepath.Dir(d) {
		c := filepath.Join(d, "node_modules", filepath.FromSlash(name))
		if exists(filepath.Join(c, "package.json")) {
			return c
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

func npmFilesWhy(pdir string, since time.Time) string {
	var first string
	all, n := true, 0
	_ = filepath.WalkDir(pdir, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if q != pdir && d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if n++; n > maxPackageFiles {
			return filepath.SkipAll
		}
		if changed(q, since, true) {
			if first == "" {
				first = q
			}
		} else {
			all = false
		}
		return nil
	})
	if first == "" || all && changed(filepath.Join(pdir, "package.json"), since, false) {
		return ""
	}
	return fmt.Sprintf("%s changed after the session started, the rest of its package (%s) not (an install writes every file of a package): the package the gate's program loads was rewritten", first, filepath.Base(pdir))
}

// changedUnder is the first file at or under p changed since (links not
// followed, __pycache__ skipped: the first import writes it), "" when
// none did.
func changedUnder(p string, since time.Time) string {
	var found string
	n := 0
	_ = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil || found != "" {
			return filepath.SkipAll
		}
		if n++; n > maxPackageFiles {
			return filepath.SkipAll
		}
		if d.IsDir() {
			if d.Name() == "__pycache__" {
				return filepath.SkipDir
			}
			return nil
		}
		if changed(q, since, true) {
			found = q
			return filepath.SkipAll
		}
		return nil
	})
	return found
}
