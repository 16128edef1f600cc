package testrun

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sessiongate/sessiongate/goinitexit"
	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Bounds of the walk through a newly imported package's imports (round
// 21 c1): the test binary initialises every package it links, so an exit
// in init() any number of imports down ends it before a test runs. Only
// the module's own packages are read (the standard library and
// dependencies are not the session's to plant an exit in; go.sum pins
// them). Past the bounds the walk stops and says nothing.
const (
	importDepthMax    = 16  // imports followed from the new one
	importPackagesMax = 400 // module packages read per check
)

// importWalk reads module packages' init exits through their imports,
// each package once per check.
type importWalk struct {
	root, mod string
	look      goinitexit.Env
	exit      map[string]string   // package folder -> its own first exit ("" none)
	deep      map[string]string   // package folder -> an exit it links, with the chain
	imports   map[string][]string // package folder -> the module folders it imports
	read      int
}

func newImportWalk(root, mod string, look goinitexit.Env) *importWalk {
	return &importWalk{root: root, mod: mod, look: look, exit: map[string]string{}, deep: map[string]string{}, imports: map[string][]string{}}
}

// exitLinked returns the first init exit reached from package folder dir
// through its module imports, as "[via a, b: ]file: init() calls ...";
// "" when none within the bounds.
func (w *importWalk) exitLinked(dir string) (string, error) {
	type step struct {
		dir string
		via []string
	}
	queue := []step{{dir: dir}}
	seen := map[string]bool{dir: true}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		e, err := w.own(s.dir)
		if err != nil {
			return "", err
		}
		if e != "" {
			if len(s.via) == 0 {
				return e, nil
			}
			return "imports " + strings.Join(s.via, ", which imports ") + ", whose " + e, nil
		}
		if len(s.via) >= importDepthMax {
			continue
		}
		for _, d := range w.imports[s.dir] {
			if seen[d] || len(seen) >= importPackagesMax {
				continue
			}
			seen[d] = true
			queue = append(queue, step{dir: d, via: append(append([]string(nil), s.via...), w.mod+"/"+d)})
		}
	}
	return "", nil
}

// own reads package folder dir once: its first init exit and its
// imports of the module's packages.
func (w *importWalk) own(dir string) (string, error) {
	if e, ok := w.exit[dir]; ok {
		return e, nil
	}
	w.read++
	e, err := packageInitExit(w.root, dir, w.look)
	if err != nil {
		return "", err
	}
	w.exit[dir] = e
	ents, err := os.ReadDir(filepath.Join(w.root, filepath.FromSlash(dir)))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return "", fmt.Errorf("list the Go files of %s: %w", dir, err)
	}
	set := map[string]bool{}
	for _, ent := range ents {
		n := ent.Name()
		if ent.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := boundedread.File(filepath.Join(w.root, filepath.FromSlash(dir), n), maxInput)
		if err != nil {
			return "", fmt.Errorf("read %s: %w", path.Join(dir, n), err)
		}
		for _, p := range goImports(b) {
			if d, ok := strings.CutPrefix(p, w.mod+"/"); ok && d != dir {
				set[d] = true
			}
		}
	}
	for d := range set {
		w.imports[dir] = append(w.imports[dir], d)
	}
	sort.Strings(w.imports[dir])
	return e, nil
}
