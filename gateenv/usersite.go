package gateenv

import (
	"os"
	"path/filepath"
	"time"
)

// userSiteChanged reports a Python user site-packages folder under home
// holding a .pth, usercustomize.py or sitecustomize.py changed after
// since: Python runs a .pth's `import` lines and those modules at every
// start, before pytest (or in $HOME/.local of a HOME=/tmp/fh given on
// the `session end` line, the folder made after the start), so `echo 'import os; os._exit(0)' >
// ~/.local/lib/python3.11/site-packages/zz.pth` made every gate's Python
// exit 0. Turning the user site off for good (PYTHONNOUSERSITE) breaks
// projects installed with `pip install --user`, so only a change during
// the session turns it off for the gate. It returns the file found.
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
			if filepath.Ext(n) != ".pth" && n != "usercustomize.py" && n != "sitecustomize.py" {
				continue
			}
			if info, err := e.Info(); err == nil && info.ModTime().After(since) {
				return filepath.Join(s, n)
			}
		}
	}
	return ""
}
