package gateprog

import (
	"debug/elf"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// Pass 29 (c3): `pyenv install 3.13.0`, `mise install python@3.13`,
// `asdf install`, `nodenv install`, `nvm install 22` during a session
// write a new version folder whose interpreter is a native binary no
// installer rule knew, and the gate refused every run through the
// version manager's shim (c5 left it open). A version folder installed
// whole since the start (every entry of its bin/ written then) whose
// program is an ELF carrying its runtime's entry point (CPython's
// Py_BytesMain or Py_Main, node's node::Start, ruby's ruby_run_node),
// in itself or in a library of its own version folder, of a
// runtime's size, is that install. /bin/true, a C program printing
// "1 passed" and a script in the same place carry none; a binary
// rewritten in a version installed before is no install.

// runtimeEntries are the symbols a runtime's executable defines or
// imports from its own library, by the program's stem.
var runtimeEntries = map[string][]string{
	"python": {"Py_BytesMain", "Py_Main"},
	"node":   {"_ZN4node5StartEiPPc"},
	"ruby":   {"ruby_run_node"},
}

// minRuntime: CPython's libpython and a static python are 4 MB and
// more, node 40 MB, libruby 3 MB; a C program is kilobytes.
const minRuntime = 1 << 20

// versionFolder is the version folder of a program in a version
// manager's layout: <root>/versions/V/bin (pyenv, nodenv, rbenv),
// <root>/versions/node/vV/bin (nvm), <data>/installs/P/V/bin (mise,
// asdf), <volta>/tools/image/node/V/bin; "" for another place.
func versionFolder(real string) string {
	bin := filepath.Dir(real)
	if filepath.Base(bin) != "bin" {
		return ""
	}
	v := filepath.Dir(bin)
	up := filepath.Dir(v)
	switch {
	case filepath.Base(up) == "versions",
		filepath.Base(filepath.Dir(up)) == "installs",
		filepath.Base(up) == "node" && filepath.Base(filepath.Dir(up)) == "versions",
		filepath.Base(up) == "node" && filepath.Base(filepath.Dir(up)) == "image":
		return v
	}
	return ""
}

// newRuntimeInstall reports real as the interpreter of a version folder
// installed whole after since.
func newRuntimeInstall(real string, since time.Time) bool {
	vdir := versionFolder(real)
	entries := runtimeEntries[stem(filepath.Base(real))]
	if vdir == "" || entries == nil {
		return false
	}
	bin, err := os.ReadDir(filepath.Dir(real))
	if err != nil || len(bin) > 5000 {
		return false
	}
	for _, e := range bin {
		if !changed(filepath.Join(filepath.Dir(real), e.Name()), since, true) {
			return false // a version installed before: one file rewritten
		}
	}
	return carriesEntry(real, vdir, entries)
}

// carriesEntry: real is an ELF that defines one of entries and is of a
// runtime's size, or imports one from a library (NEEDED) found in
// vdir/lib that does.
func carriesEntry(real, vdir string, entries []string) bool {
	f, err := elf.Open(real)
	if err != nil {
		return false
	}
	defer f.Close()
	defined, imported := entrySymbols(f, entries)
	if defined && bigEnough(real) {
		return true
	}
	if !imported {
		return false
	}
	libs, _ := f.ImportedLibraries()
	for _, l := range libs {
		if strings.Contains(l, "/") {
			continue
		}
		p, err := filepath.EvalSymlinks(filepath.Join(vdir, "lib", l))
		if err != nil {
			continue
		}
		if rel, err := filepath.Rel(vdir, p); err != nil || !filepath.IsLocal(rel) || !bigEnough(p) {
			continue
		}
		lf, err := elf.Open(p)
		if err != nil {
			continue
		}
		d, _ := entrySymbols(lf, entries)
		lf.Close()
		if d {
			return true
		}
	}
	return false
}

func entrySymbols(f *elf.File, entries []string) (defined, imported bool) {
	syms, err := f.DynamicSymbols()
	if err != nil {
		return false, false
	}
	for _, s := range syms {
		if !slices.Contains(entries, s.Name) {
			continue
		}
		if s.Section == elf.SHN_UNDEF {
			imported = true
		} else {
			defined = true
		}
	}
	return defined, imported
}

func bigEnough(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Size() >= minRuntime
}
