package gateprog

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// Review 29 (c8): c3 accepts a version folder installed whole during the
// session when its interpreter is a real CPython, but what that python
// runs at every start before pytest is the folder's own: a copied
// python3.13 run as a venv of 3.13.0 with a sitecustomize.py (or a .pth
// with an import line) printing "1 passed" and exiting 0 faked the gate
// through the real pyenv shim. The hook denies a typed write of such a
// file; a tree copied in with it is no typed write. So the gate reads
// the startup files of its python's site folders: one changed since the
// start counts only when an installed distribution's RECORD lists it
// with its sha256 (setuptools' distutils-precedence.pth, pip's editable
// .pth), or, for a .pth of path lines only (setup.py develop's
// easy-install.pth), when none of the folders it adds holds a startup
// module or the module the gate runs.

// startupWhy names a startup file of sites changed after since that no
// installer's RECORD vouches for.
func startupWhy(sites []string, mod string, since time.Time) string {
	for _, site := range sites {
		ents, err := os.ReadDir(site)
		if err != nil || len(ents) > 20000 {
			continue
		}
		for _, e := range ents {
			n := e.Name()
			if filepath.Ext(n) != ".pth" && n != "sitecustomize.py" && n != "usercustomize.py" && n != "sitecustomize" && n != "usercustomize" {
				continue
			}
			p := filepath.Join(site, n)
			if !changed(p, since, true) && !changed(p, since, false) {
				continue
			}
			b, err := boundedread.File(p, 1<<20)
			if err == nil && recordedIn(site, n, b) {
				continue
			}
			if err == nil && filepath.Ext(n) == ".pth" && pathOnlyPth(site, b, mod) {
				continue
			}
			return fmt.Sprintf("%s changed after the session started and no installed distribution's RECORD lists it with its sha256: a Python startup file runs at every start of the gate's python, before the tests", p)
		}
	}
	return ""
}

// recordedIn reports a RECORD of site listing name with b's sha256.
func recordedIn(site, name string, b []byte) bool {
	all, _ := filepath.Glob(filepath.Join(site, "*.dist-info", "RECORD"))
	if len(all) > 2000 {
		return false
	}
	h := sha256.Sum256(b)
	want := name + ",sha256=" + base64.RawURLEncoding.EncodeToString(h[:]) + ","
	for _, r := range all {
		rb, err := boundedread.File(r, 16<<20)
		if err != nil {
			continue
		}
		for _, l := range strings.Split(string(rb), "\n") {
			if strings.HasPrefix(strings.TrimSpace(l)+",", want) || strings.HasPrefix(l, want) {
				return true
			}
		}
	}
	return false
}

// pathOnlyPth: every line of a .pth is a comment or a folder (no import
// line, which Python runs), and no folder it adds holds a startup module
// or mod itself (a folder appended to sys.path supplies what site-packages
// lacks: `-m pytest` with no pytest installed).
func pathOnlyPth(site string, b []byte, mod string) bool {
	for _, l := range strings.Split(string(b), "\n") {
		l = strings.TrimSpace(l)
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		if strings.HasPrefix(l, "import ") || strings.HasPrefix(l, "import\t") {
			return false
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(site, l) // Python reads a relative line from the .pth's folder
		}
		for _, n := range []string{"sitecustomize.py", "usercustomize.py", "sitecustomize", "usercustomize", mod, mod + ".py"} {
			if n != "" && n != ".py" && exists(filepath.Join(l, n)) {
				return false
			}
		}
	}
	return true
}
