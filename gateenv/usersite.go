package gateenv

import (
	"bytes"
	"os"
	"path/filepath"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/ctime"
)

// userSiteChanged reports a Python user site-packages folder under home
// holding a .pth, usercustomize.py or sitecustomize.py changed after
// since: Python runs a .pth's `import` lines and those modules at every
// start, before pytest (or in $HOME/.local of a HOME=/tmp/fh given on
// the `session end` line, the folder made after the start), so `echo 'import os; os._exit(0)' >
// ~/.local/lib/python3.11/site-packages/zz.pth` made every gate's Python
// exit 0. Turning the user site off for good (PYTHONNOUSERSITE) breaks
// projects installed with `pip install --user`, so only a change during
// the session turns it off for the gate. So does a pytest plugin
// (an entry point of the pytest11 group) registered there during the
// session: pytest loads every one it finds on sys.path, and lazy pass 37's
// skipped every test in the start commit's checkout only. It returns the
// file found.
func userSiteChanged(home string, since time.Time) string {
	if home == "" || since.IsZero() {
		return ""
	}
	sites, _ := filepath.Glob(filepath.Join(home, ".local", "lib", "python*", "site-packages"))
	for _, s := range sites {
		ents, err := os.ReadDir(s)
		if err != nil {
			continue
		}
		for _, e := range ents {
			n := e.Name()
			if ext := filepath.Ext(n); ext == ".dist-info" || ext == ".egg-info" {
				if f := pytestPluginChanged(filepath.Join(s, n), since); f != "" {
					return f
				}
				continue
			}
			if filepath.Ext(n) != ".pth" && n != "usercustomize.py" && n != "sitecustomize.py" {
				continue
			}
			// The change time: `touch -d` sets the modification time back.
			if t, err := ctime.Of(filepath.Join(s, n)); err == nil && t.After(since) {
				return filepath.Join(s, n)
			}
		}
	}
	return ""
}

// pytestPluginChanged names meta's entry_points.txt when it changed after
// since and registers a pytest plugin, "" otherwise.
func pytestPluginChanged(meta string, since time.Time) string {
	p := filepath.Join(meta, "entry_points.txt")
	if t, err := ctime.Of(p); err != nil || !t.After(since) {
		return ""
	}
	b, err := boundedread.File(p, 1<<20)
	if err != nil || !bytes.Contains(b, []byte("[pytest11]")) {
		return ""
	}
	return p
}
