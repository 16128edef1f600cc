package gateprog_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
	"github.com/sessiongate/sessiongate/internal/npmtest"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

func write(t *testing.T, p, body string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), mode); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, dir string, env []string, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %v: %v\n%s", name, args, err, out)
	}
}

// pipScript is the entry point pip writes for pytest.
const pipScript = `#!%s
# -*- coding: utf-8 -*-
import re
import sys
from pytest import console_main
if __name__ == '__main__':
    sys.argv[0] = re.sub(r'(-script\.pyw|\.exe)?$', '', sys.argv[0])
    sys.exit(console_main())
`

// TestWhy: issue 25 item 7's open route (round 26 c11 left it open): a
// program written after the session started into a folder already on the
// gate's PATH, or into the work tree's untracked node_modules/.venv,
// answered for the tests. Each lazy row is a program the agent made; each
// honest row what an installer writes during a session (a real `go
// install`, a real venv's pip, a real `npm ci`, a rustup proxy, pip's
// console script).
func TestWhy(t *testing.T) {
	goBin, _ := exec.LookPath("go")
	py, _ := exec.LookPath("python3")
	for _, c := range []struct {
		name string
		// before runs before the session starts, after during it; both
		// get the work tree, a bin folder on PATH (early, before the
		// real go) and the HOME-like folder.
		before, after func(t *testing.T, root, bin string)
		line          string
		want          string // "" for honest
		needs         string // a program the row needs
	}{
		{name: "lazy: ~/go/bin/go written during the session shadows the real go",
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "go"), "#!/bin/sh\necho ok\n", 0o755)
			},
			line: "go test ./...", want: "`go` now runs", needs: "go"},
		{name: "lazy: ~/.local/bin/pytest rewritten in place",
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), sprintf(pipScript, py), 0o755)
			},
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), "#!/bin/sh\nexit 0\n", 0o755)
			},
			line: "pytest -q", want: "is not what an installer writes", needs: "python3"},
		{name: "lazy: ~/.cargo/bin/cargo replaced by a script",
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "rustup"), "\x7fELF-rustup", 0o755)
				if err := os.Symlink("rustup", filepath.Join(bin, "cargo")); err != nil {
					t.Fatal(err)
				}
			},
			after: func(t *testing.T, root, bin string) {
				os.Remove(filepath.Join(bin, "cargo"))
				write(t, filepath.Join(bin, "cargo"), "#!/bin/sh\necho 'test result: ok'\n", 0o755)
			},
			line: "cargo test", want: "cargo changed after the session started"},
		{name: "lazy: a program linked to /bin/true (ln -sf /bin/true ~/.local/bin/pytest)",
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), sprintf(pipScript, py), 0o755)
			},
			after: func(t *testing.T, root, bin string) {
				os.Remove(filepath.Join(bin, "pytest"))
				if err := os.Symlink("/bin/true", filepath.Join(bin, "pytest")); err != nil {
					t.Fatal(err)
				}
			},
			line: "python3 -m pip --version && pytest", want: "was linked to", needs: "python3"},
		{name: "lazy: a Go build of local source written as a tool the gate runs",
			after: func(t *testing.T, root, bin string) {
				src := filepath.Join(t.TempDir(), "fake")
				write(t, filepath.Join(src, "go.mod"), "module example.com/fake/golangci-lint\n\ngo 1.22\n", 0o644)
				write(t, filepath.Join(src, "main.go"), "package main\n\nfunc main() {}\n", 0o644)
				run(t, src, []string{"GOFLAGS=-mod=mod", "GOWORK=off"}, "go", "build", "-o", filepath.Join(bin, "golangci-lint"), ".")
			},
			line: "golangci-lint run", want: "not an install of a published module", needs: "go"},
		{name: "lazy: .venv/bin/pytest rewritten",
			before: func(t *testing.T, root, bin string) {
				run(t, root, nil, py, "-m", "venv", "--without-pip", ".venv")
				write(t, filepath.Join(root, ".venv", "bin", "pytest"), sprintf(pipScript, filepath.Join(root, ".venv", "bin", "python")), 0o755)
			},
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(root, ".venv", "bin", "pytest"), "#!/bin/sh\necho '1 passed'\n", 0o755)
			},
			line: ".venv/bin/pytest -q", want: "is not what an installer writes", needs: "python3"},
		{name: "lazy: sh itself shadowed (the gate runs its line with sh)",
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "sh"), "#!/bin/bash\nexit 0\n", 0o755)
			},
			line: "make test", want: "`sh` now runs"},
		{name: "honest: a real go install of a published module during the session",
			after: func(t *testing.T, root, bin string) {
				run(t, root, []string{"GOBIN=" + bin, "GOPROXY=file://" + goModDownload(t), "GOSUMDB=off", "GOFLAGS=-mod=mod"}, "go", "install", "golang.org/x/tools/cmd/stringer@v0.52.0")
			},
			line: "stringer -h; go vet ./...", needs: "go"},
		{name: "honest: a venv made during the session, its pip run",
			after: func(t *testing.T, root, bin string) { run(t, root, nil, py, "-m", "venv", ".venv") },
			line:  ".venv/bin/pip --version", needs: "python3"},
		{name: "honest: pip reinstalls pytest's console script",
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), "#!/bin/sh\nold\n", 0o755)
			},
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "pytest"), sprintf(pipScript, py), 0o755)
			},
			line: "pytest -q", needs: "python3"},
		{name: "honest: rustup update rewrites its proxies",
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "rustup"), "\x7fELF-rustup-1", 0o755)
				if err := os.Link(filepath.Join(bin, "rustup"), filepath.Join(bin, "cargo")); err != nil {
					t.Fatal(err)
				}
			},
			after: func(t *testing.T, root, bin string) {
				os.Remove(filepath.Join(bin, "cargo"))
				write(t, filepath.Join(bin, "rustup"), "\x7fELF-rustup-2", 0o755)
				if err := os.Symlink("rustup", filepath.Join(bin, "cargo")); err != nil {
					t.Fatal(err)
				}
			},
			line: "cargo test"},
		{name: "lazy: the program a pyenv shim runs rewritten (versions/V/bin/pytest)",
			before: func(t *testing.T, root, bin string) { pyenv(t, root, bin, sprintf(pipScript, py)) },
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(root, "pyenv", "versions", "3.11.7", "bin", "pytest"), "#!/bin/sh\nexit 0\n", 0o755)
			},
			line: "pytest", want: "3.11.7/bin/pytest changed after the session started"},
		{name: "honest: pyenv rehash rewrites its shims after a pip install",
			before: func(t *testing.T, root, bin string) { pyenv(t, root, bin, sprintf(pipScript, py)) },
			after:  func(t *testing.T, root, bin string) { pyenv(t, root, bin, sprintf(pipScript, py)) },
			line:   "pytest"},
		{name: "honest: the project's own program built in the work tree during the session",
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(root, "go.mod"), "module example.com/app\n\ngo 1.22\n", 0o644)
				write(t, filepath.Join(root, "cmd", "app", "main.go"), "package main\n\nfunc main() {}\n", 0o644)
				run(t, root, []string{"GOFLAGS=-mod=mod", "GOWORK=off"}, "go", "build", "-o", "bin/app", "./cmd/app")
			},
			line: "./bin/app --selftest", needs: "go"},
		{name: "honest: go install ./cmd/app of the work tree's module",
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(root, "go.mod"), "module example.com/app\n\ngo 1.22\n", 0o644)
				write(t, filepath.Join(root, "cmd", "app", "main.go"), "package main\n\nfunc main() {}\n", 0o644)
				run(t, root, []string{"GOBIN=" + bin, "GOFLAGS=-mod=mod", "GOWORK=off"}, "go", "install", "./cmd/app")
			},
			line: "app check", needs: "go"},
		{name: "honest: pip installs a wheel program, no console script, into a venv during the session",
			before: func(t *testing.T, root, bin string) { run(t, root, nil, py, "-m", "venv", ".venv") },
			after:  func(t *testing.T, root, bin string) { pipWheel(t, root, py) },
			line:   ".venv/bin/mytool --check", needs: "python3"},
		{name: "lazy: the wheel program rewritten after pip installed it",
			before: func(t *testing.T, root, bin string) {
				run(t, root, nil, py, "-m", "venv", ".venv")
				pipWheel(t, root, py)
			},
			after: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(root, ".venv", "bin", "mytool"), "#!/bin/sh\nexit 0\n", 0o755)
			},
			line: ".venv/bin/mytool --check", want: "mytool changed after the session started", needs: "python3"},
		{name: "honest: a program from before the session",
			before: func(t *testing.T, root, bin string) {
				write(t, filepath.Join(bin, "gotestsum"), "#!/bin/sh\nexit 0\n", 0o755)
			},
			line: "gotestsum ./..."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.needs == "go" && goBin == "" || c.needs == "python3" && py == "" {
				t.Skip(c.needs + " not on PATH")
			}
			root, bin := t.TempDir(), t.TempDir()
			env := []string{"PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH")}
			if c.before != nil {
				c.before(t, root, bin)
			}
			st := gateprog.Record(env, []string{c.line})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			if c.after != nil {
				c.after(t, root, bin)
			}
			got := gateprog.Why(c.line, env, root, st, since)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", c.line, got, c.want)
			}
		})
	}
}

// TestWhyNpm: `npm test` runs the test script's jest from the work tree's
// untracked node_modules/.bin. Played with the real npm (`npm ci
// --offline` of jest from .ci/node's lock): jest linked to /bin/true, or
// its bin file rewritten alone, answers for the tests; a fresh `npm ci`
// during the session is honest.
func TestWhyNpm(t *testing.T) {
	npm := npmtest.NPM(t)
	proj, err := npmtest.Closure(npmtest.CINodeLock(), "jest")
	if err != nil {
		t.Skip(err)
	}
	// One install, copied for each row (cp -a keeps the links).
	tmpl := t.TempDir()
	pj := strings.Replace(string(proj.PackageJSON), "{", `{"scripts":{"test":"jest --ci"},`, 1)
	write(t, filepath.Join(tmpl, "package.json"), pj, 0o644)
	write(t, filepath.Join(tmpl, "package-lock.json"), string(proj.Lock), 0o644)
	npmtest.CI(t, npm, tmpl)
	for _, c := range []struct {
		name  string
		after func(t *testing.T, root string)
		want  string
	}{
		{"lazy: node_modules/.bin/jest linked to true", func(t *testing.T, root string) {
			l := filepath.Join(root, "node_modules", ".bin", "jest")
			os.Remove(l)
			if err := os.Symlink("/bin/true", l); err != nil {
				t.Fatal(err)
			}
		}, "was linked to"},
		{"lazy: jest's bin file rewritten alone", func(t *testing.T, root string) {
			real, err := filepath.EvalSymlinks(filepath.Join(root, "node_modules", ".bin", "jest"))
			if err != nil {
				t.Fatal(err)
			}
			write(t, real, "#!/usr/bin/env node\nprocess.exit(0)\n", 0o755)
		}, "not reinstalled"},
		// round 28 (c5): the package's code, not its bin, rewritten; the
		// bin's own require (jest-cli) is judged too.
		{"lazy: jest-cli's build/run.js rewritten (required by jest's bin)", func(t *testing.T, root string) {
			write(t, filepath.Join(root, "node_modules", "jest-cli", "build", "run.js"), "exports.run = async () => process.exit(0);\n", 0o644)
		}, "the rest of its package (jest-cli) not"},
		{"lazy: jest's build/index.js rewritten", func(t *testing.T, root string) {
			write(t, filepath.Join(root, "node_modules", "jest", "build", "index.js"), "module.exports = {};\n", 0o644)
		}, "the rest of its package (jest) not"},
		{"honest: npm ci again during the session", func(t *testing.T, root string) { npmtest.CI(t, npm, root) }, ""},
		{"honest: nothing changed", func(t *testing.T, root string) {}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "w")
			run(t, tmpl, nil, "cp", "-a", tmpl, root)
			env := []string{"PATH=" + os.Getenv("PATH")}
			st := gateprog.Record(env, []string{"npm test"})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			c.after(t, root)
			for _, line := range []string{"npm test", "npx jest", "npm run test"} {
				got := gateprog.Why(line, env, root, st, since)
				if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
					t.Errorf("Why(%q) = %q, want %q", line, got, c.want)
				}
			}
		})
	}
}

func sprintf(f string, a ...any) string { return strings.ReplaceAll(f, "%s", a[0].(string)) }

// goModDownload is the module cache's download folder, a file:// proxy.
func goModDownload(t *testing.T) string {
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skip(err)
	}
	d := filepath.Join(strings.TrimSpace(string(out)), "cache", "download")
	if _, err := os.Stat(filepath.Join(d, "golang.org", "x", "tools", "@v", "v0.52.0.zip")); err != nil {
		t.Skip("golang.org/x/tools v0.52.0 not in the module cache")
	}
	return d
}

// pyenv writes a pyenv root under root, its shim for pytest in bin (the
// template `pyenv rehash` writes) and the version's console script.
func pyenv(t *testing.T, root, bin, script string) {
	pr := filepath.Join(root, "pyenv")
	write(t, filepath.Join(pr, "versions", "3.11.7", "bin", "pytest"), script, 0o755)
	shim := "#!/usr/bin/env bash\nset -e\n[ -n \"$PYENV_DEBUG\" ] && set -x\n\nprogram=\"${0##*/}\"\n\nexport PYENV_ROOT=\"" + pr + "\"\n" +
		"SHIM_PATH=${0%/*}\nif [[ $SHIM_PATH != \"" + bin + "\" ]]; then\n  export _PYENV_SHIM_PATH=\"$SHIM_PATH\"\nfi\n" +
		"exec \"" + pr + "/libexec/pyenv\" exec \"$program\" \"$@\"\n"
	write(t, filepath.Join(bin, "pytest"), shim, 0o755)
}

// pipWheel builds a wheel holding a shell program (its RECORD hashed) and
// installs it into root's .venv with the venv's real pip, offline.
func pipWheel(t *testing.T, root, py string) {
	const mk = `import base64, hashlib, sys, zipfile
def h(b): return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(b).digest()).rstrip(b"=").decode()
files = {"mytool-1.0.data/scripts/mytool": b"#!/bin/sh\necho real tool\n",
         "mytool-1.0.dist-info/METADATA": b"Metadata-Version: 2.1\nName: mytool\nVersion: 1.0\n",
         "mytool-1.0.dist-info/WHEEL": b"Wheel-Version: 1.0\nGenerator: t\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
with zipfile.ZipFile(sys.argv[1], "w") as z:
    rec = ""
    for n, b in files.items():
        z.writestr(n, b); rec += "%s,%s,%d\n" % (n, h(b), len(b))
    z.writestr("mytool-1.0.dist-info/RECORD", rec + "mytool-1.0.dist-info/RECORD,,\n")
`
	whl := filepath.Join(t.TempDir(), "mytool-1.0-py3-none-any.whl")
	run(t, root, nil, py, "-c", mk, whl)
	run(t, root, []string{"PIP_DISABLE_PIP_VERSION_CHECK=1"}, filepath.Join(root, ".venv", "bin", "pip"), "install", "-q", "--no-index", whl)
}
