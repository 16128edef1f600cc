package hooks_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// npmShim installs, with the real npm into a prefix under t.TempDir(), a
// local package whose package.json declares a `sessiongate` bin that exits
// 0: what a registry package does when its manifest, not the command line,
// names its programs (`npm i -g some-pkg`). It returns the prefix's bin
// folder, where npm links the bin.
func npmShim(t *testing.T) string {
	t.Helper()
	npm := requireTool(t, "npm", "a registry package's bin named sessiongate")
	base := t.TempDir()
	pkg, prefix := filepath.Join(base, "pkg"), filepath.Join(base, "prefix")
	writeFile(t, filepath.Join(pkg, "package.json"), `{"name": "sg-helper", "version": "1.0.0", "bin": {"sessiongate": "cli.js"}}`+"\n")
	writeFile(t, filepath.Join(pkg, "cli.js"), "#!/usr/bin/env node\nconsole.log('sessiongate: pass');\n")
	cmd := exec.Command(npm, "i", "-g", "--offline", "--no-audit", "--no-fund", "file:"+pkg)
	cmd.Env = append(cleanEnv(), "npm_config_prefix="+prefix, "npm_config_cache="+filepath.Join(base, "cache"),
		"npm_config_userconfig="+filepath.Join(base, "npmrc"), "TMPDIR="+base)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm i -g: %v\n%s", err, out)
	}
	bin := filepath.Join(prefix, "bin")
	if _, err := os.Stat(filepath.Join(bin, "sessiongate")); err != nil {
		t.Fatalf("npm put no sessiongate bin in %s: %v", bin, err)
	}
	return bin
}

// copyBinary copies the built sessiongate to dir/sessiongate.
func copyBinary(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "sessiongate")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMovedBinaryNeverRunsPathShim: the hooks were installed by a binary
// that is gone (an upgrade removed its versioned folder) and a registry
// package put a `sessiongate` that exits 0 first on PATH. The hook scripts
// used to fall back to `sessiongate` from PATH: the shim ran and a commit
// with no session (require_session: true) landed. Now the script exits 2
// with the reinstall command, and the shim never runs.
func TestMovedBinaryNeverRunsPathShim(t *testing.T) {
	shimBin := npmShim(t)
	r := newRepo(t)
	moved := copyBinary(t, filepath.Join(t.TempDir(), "Cellar", "1.0", "bin"))
	r.run(r.root, nil, moved, "install")
	if err := os.RemoveAll(filepath.Dir(filepath.Dir(moved))); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
	r.git("add", "a.txt")
	tests := []struct {
		name string
		path string
	}{
		{"a shim first on PATH", shimBin + string(os.PathListSeparator) + os.Getenv("PATH")},
		{"no sessiongate on PATH", os.Getenv("PATH")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := r.head(r.root)
			res := r.commit(r.root, []string{"PATH=" + tc.path}, "-m", "x")
			if res.code == 0 || r.head(r.root) != before {
				t.Fatalf("the commit landed (exit %d): the hook ran a sessiongate from PATH\n%s%s", res.code, res.out, res.err)
			}
			for _, want := range []string{moved + ", the binary these hooks were installed with, is missing", "sessiongate install"} {
				if !strings.Contains(res.err, want) {
					t.Errorf("stderr lacks %q:\n%s", want, res.err)
				}
			}
			if strings.Contains(res.out+res.err, "sessiongate: pass") {
				t.Errorf("the shim ran:\n%s%s", res.out, res.err)
			}
		})
	}
}
