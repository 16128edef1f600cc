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

// TestHonestInstallShapes: the ways people install and upgrade sessiongate
// keep the hooks working now that they never fall back to PATH. Each case
// installs by running `sessiongate install` by name from PATH, upgrades the
// way that install upgrades, and commits with no session: the real
// sessiongate must answer (exit 1, require_session), not exit 2.
func TestHonestInstallShapes(t *testing.T) {
	tests := []struct {
		name string
		// setup returns the PATH folder to run sessiongate from and the
		// path the hooks must record; upgrade replaces the binary.
		setup   func(t *testing.T, base string) (dir, recorded string)
		upgrade func(t *testing.T, base string)
	}{
		{
			name: "go install into GOBIN, reinstalled in place",
			setup: func(t *testing.T, base string) (string, string) {
				gobin := filepath.Join(base, "gopath", "bin")
				goInstall(t, gobin)
				return gobin, filepath.Join(gobin, "sessiongate")
			},
			upgrade: func(t *testing.T, base string) {
				// go install writes a new file and renames it over the old.
				p := filepath.Join(base, "gopath", "bin", "sessiongate")
				b, err := os.ReadFile(binary)
				if err != nil {
					t.Fatal(err)
				}
				tmp := p + ".new"
				if err := os.WriteFile(tmp, append(b, 0), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(tmp, p); err != nil {
					t.Fatal(err)
				}
			},
		},
		{
			name: "Homebrew-style symlink into a versioned folder",
			setup: func(t *testing.T, base string) (string, string) {
				real := copyBinary(t, filepath.Join(base, "Cellar", "sessiongate", "1.0", "bin"))
				bin := filepath.Join(base, "brew", "bin")
				if err := os.MkdirAll(bin, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(real, filepath.Join(bin, "sessiongate")); err != nil {
					t.Fatal(err)
				}
				return bin, filepath.Join(bin, "sessiongate")
			},
			upgrade: func(t *testing.T, base string) {
				// brew upgrade: a new versioned folder, the link moved, the old folder removed.
				real := copyBinary(t, filepath.Join(base, "Cellar", "sessiongate", "1.1", "bin"))
				link := filepath.Join(base, "brew", "bin", "sessiongate")
				if err := os.Remove(link); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(real, link); err != nil {
					t.Fatal(err)
				}
				if err := os.RemoveAll(filepath.Join(base, "Cellar", "sessiongate", "1.0")); err != nil {
					t.Fatal(err)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			dir, recorded := tc.setup(t, base)
			r := newRepo(t)
			path := []string{"PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH")}
			if res := r.run(r.root, path, "sh", "-c", "sessiongate install"); res.code != 0 {
				t.Fatalf("sessiongate install: exit %d\n%s%s", res.code, res.out, res.err)
			}
			script := readFile(t, filepath.Join(r.root, ".git", "hooks", "pre-commit"))
			if !strings.Contains(script, "sg='"+recorded+"'") {
				t.Fatalf("the hook does not exec %s:\n%s", recorded, script)
			}
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			for _, stage := range []string{"installed", "upgraded"} {
				if stage == "upgraded" {
					tc.upgrade(t, base)
				}
				res := r.commit(r.root, path, "-m", "x")
				if res.code != 1 || !strings.Contains(res.err, "require_session") {
					t.Fatalf("%s: git commit exit %d, want 1 from the real gate (require_session)\n%s", stage, res.code, res.err)
				}
			}
		})
	}
}

// goInstall runs the real `go install` of sessiongate into gobin.
func goInstall(t *testing.T, gobin string) {
	t.Helper()
	goTool := requireTool(t, "go", "an install from go install")
	cmd := exec.Command(goTool, "install", "../cmd/sessiongate")
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
}

// TestAgentCommitWithShimOnPath: the agent hook configs run `sessiongate`
// from PATH, so a registry package's `sessiongate` bin first on PATH
// answers every agent hook. pre-commit (this binary, by absolute path)
// now blocks an agent's commit while PATH resolves `sessiongate` to
// another program; before, the commit of a session past its gates landed
// (the first row failed). PATH resolving to this binary, to a copy of it
// (another install of the same build) or to nothing still commits.
func TestAgentCommitWithShimOnPath(t *testing.T) {
	shimBin := npmShim(t)
	copyDir := filepath.Dir(copyBinary(t, t.TempDir()))
	sep := string(os.PathListSeparator)
	tests := []struct {
		name   string
		path   string
		code   int
		stderr string
	}{
		{"registry shim first on PATH", shimBin + sep + filepath.Dir(binary) + sep + os.Getenv("PATH"), 1, "`sessiongate` on PATH is " + filepath.Join(shimBin, "sessiongate")},
		{"honest: this binary first on PATH, the shim after it", filepath.Dir(binary) + sep + shimBin + sep + os.Getenv("PATH"), 0, ""},
		{"honest: a copy of this build on PATH", copyDir + sep + os.Getenv("PATH"), 0, ""},
		{"honest: no sessiongate on PATH", os.Getenv("PATH"), 0, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			r.sg(r.root, "install")
			r.startWorking(r.root)
			writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
			r.git("add", "a.txt")
			before := r.head(r.root)
			res := r.commit(r.root, []string{"PATH=" + tc.path}, "-m", "x")
			if res.code != tc.code {
				t.Fatalf("git commit exit %d, want %d\n%s%s", res.code, tc.code, res.out, res.err)
			}
			if landed := r.head(r.root) != before; landed != (tc.code == 0) {
				t.Fatalf("landed %v with exit %d", landed, res.code)
			}
			if !strings.Contains(res.err, tc.stderr) {
				t.Errorf("stderr lacks %q:\n%s", tc.stderr, res.err)
			}
		})
	}
}

// TestPersonCommitWithShimOnPath: the same shim first on PATH does not
// block a person's commit (no agent hooks are being policed there); it
// gets the warning.
func TestPersonCommitWithShimOnPath(t *testing.T) {
	shimBin := npmShim(t)
	r := newRepo(t)
	r.asPerson()
	r.sg(r.root, "install")
	writeFile(t, filepath.Join(r.root, "a.txt"), "a\n")
	r.git("add", "a.txt")
	before := r.head(r.root)
	res := r.commit(r.root, []string{"PATH=" + shimBin + string(os.PathListSeparator) + os.Getenv("PATH")}, "-m", "x")
	if res.code != 0 || r.head(r.root) == before {
		t.Fatalf("a person's commit was blocked (exit %d)\n%s", res.code, res.err)
	}
	if want := "warning: `sessiongate` on PATH is " + filepath.Join(shimBin, "sessiongate"); !strings.Contains(res.err, want) {
		t.Errorf("stderr lacks %q:\n%s", want, res.err)
	}
}
