package gateprog_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sessiongate/sessiongate/gateprog"
)

// TestWhyNewRuntimeVersion: pass 29 (c3), c5's open false block. An
// honest `pyenv install 3.13.0` or `mise install python@3.13` during a
// session writes a new version folder whose interpreter is a native
// binary no installer rule knew (a Go build, a console script, an npm
// bin, a dpkg file): the gate refused `python3 -m pytest` through the
// shim, which judges every installed version's program. The install is
// played offline: the version folder is laid out as python-build lays
// it (bin/python3.13, the python3 link, lib/libpython3.13.so.1.0 beside
// it, the real 3.13.0's files), the shims made by the real `pyenv
// rehash` / `mise reshim`. Lazy twins: the same new folder whose
// python3.13 is /bin/true, a C program printing "1 passed", or a shell
// script; an installed version's interpreter rewritten.
func TestWhyNewRuntimeVersion(t *testing.T) {
	const real = "/root/.pyenv/versions/3.13.0"
	realBin := filepath.Join(real, "bin", "python3.13")
	if _, err := os.Stat(realBin); err != nil {
		t.Skip("no pyenv 3.13.0 here to lay out a version from")
	}
	install := func(t *testing.T, vdir string, python func(t *testing.T, dst string)) {
		python(t, filepath.Join(vdir, "bin", "python3.13"))
		if err := os.Symlink("python3.13", filepath.Join(vdir, "bin", "python3")); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(vdir, "lib"), 0o755); err != nil {
			t.Fatal(err)
		}
		run(t, "/", nil, "cp", "-p", filepath.Join(real, "lib", "libpython3.13.so.1.0"), filepath.Join(vdir, "lib"))
	}
	realPython := func(t *testing.T, dst string) {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		run(t, "/", nil, "cp", "-p", realBin, dst)
	}
	fake := func(body string) func(t *testing.T, dst string) {
		return func(t *testing.T, dst string) { write(t, dst, body, 0o755) }
	}
	trueBin := func(t *testing.T, dst string) {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		run(t, "/", nil, "cp", "/bin/true", dst)
	}
	cFake := func(t *testing.T, dst string) {
		if _, err := exec.LookPath("cc"); err != nil {
			t.Skip("no C compiler")
		}
		src := filepath.Join(t.TempDir(), "fake.c")
		write(t, src, "#include <stdio.h>\nint main(void) { puts(\"1 passed\"); return 0; }\n", 0o644)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		run(t, "/", nil, "cc", "-o", dst, src)
	}
	for _, c := range []struct {
		name    string
		manager string // "pyenv", "mise"
		after   func(t *testing.T, data, proj string)
		want    string
	}{
		{name: "honest: pyenv install of a new version, .python-version moved to it", manager: "pyenv",
			after: func(t *testing.T, data, proj string) {
				install(t, filepath.Join(data, "versions", "3.13.0"), realPython)
				write(t, filepath.Join(proj, ".python-version"), "3.13.0\n", 0o644)
			}},
		{name: "honest: mise install of a new version, mise.toml moved to it", manager: "mise",
			after: func(t *testing.T, data, proj string) {
				install(t, filepath.Join(data, "installs", "python", "3.13.0"), realPython)
				write(t, filepath.Join(proj, "mise.toml"), "[tools]\npython = \"3.13.0\"\n", 0o644)
			}},
		{name: "lazy: a new pyenv version whose python3.13 is /bin/true", manager: "pyenv",
			after: func(t *testing.T, data, proj string) {
				install(t, filepath.Join(data, "versions", "3.13.0"), trueBin)
				write(t, filepath.Join(proj, ".python-version"), "3.13.0\n", 0o644)
			}, want: "3.13.0/bin/python3.13 (what"},
		{name: "lazy: a new mise version whose python3.13 is a C program printing 1 passed", manager: "mise",
			after: func(t *testing.T, data, proj string) {
				install(t, filepath.Join(data, "installs", "python", "3.13.0"), cFake)
				write(t, filepath.Join(proj, "mise.toml"), "[tools]\npython = \"3.13.0\"\n", 0o644)
			}, want: "3.13.0/bin/python3.13 (what"},
		{name: "lazy: a new pyenv version whose python3.13 is a script", manager: "pyenv",
			after: func(t *testing.T, data, proj string) {
				install(t, filepath.Join(data, "versions", "3.13.0"), fake("#!/bin/sh\necho '1 passed'\n"))
				write(t, filepath.Join(proj, ".python-version"), "3.13.0\n", 0o644)
			}, want: "3.13.0/bin/python3.13 (what"},
		{name: "lazy: the installed 3.12.1's interpreter replaced by a C program, the rest untouched", manager: "pyenv",
			after: func(t *testing.T, data, proj string) {
				// Only the binary changed in a version installed before.
				dst := filepath.Join(data, "versions", "3.12.1", "bin", "python3.12")
				os.Remove(dst)
				cFake(t, dst)
			}, want: "3.12.1/bin/python3.12 (what"},
	} {
		t.Run(c.name, func(t *testing.T) {
			data, proj := filepath.Join(t.TempDir(), "data"), t.TempDir()
			var env []string
			switch c.manager {
			case "pyenv":
				if _, err := exec.LookPath("pyenv"); err != nil {
					t.Skip("pyenv not installed")
				}
				realPython(t, filepath.Join(data, "versions", "3.12.1", "bin", "python3.12"))
				if err := os.Symlink("python3.12", filepath.Join(data, "versions", "3.12.1", "bin", "python3")); err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(proj, ".python-version"), "3.12.1\n", 0o644)
				run(t, proj, []string{"PYENV_ROOT=" + data}, "pyenv", "rehash")
				env = []string{"PATH=" + filepath.Join(data, "shims") + string(os.PathListSeparator) + os.Getenv("PATH"), "PYENV_ROOT=" + data}
			case "mise":
				if _, err := exec.LookPath("mise"); err != nil {
					t.Skip("mise not installed")
				}
				realPython(t, filepath.Join(data, "installs", "python", "3.12.1", "bin", "python3.12"))
				if err := os.Symlink("python3.12", filepath.Join(data, "installs", "python", "3.12.1", "bin", "python3")); err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(proj, "mise.toml"), "[tools]\npython = \"3.12.1\"\n", 0o644)
				miseRun(t, data, proj, "trust", "-q", proj)
				miseRun(t, data, proj, "reshim")
				env = []string{"PATH=" + filepath.Join(data, "shims") + string(os.PathListSeparator) + os.Getenv("PATH"), "MISE_DATA_DIR=" + data}
			}
			line := "python3 -m pytest -q"
			st := gateprog.Record(env, []string{line})
			time.Sleep(20 * time.Millisecond)
			since := time.Now()
			time.Sleep(20 * time.Millisecond)
			c.after(t, data, proj)
			switch c.manager {
			case "pyenv":
				run(t, proj, []string{"PYENV_ROOT=" + data}, "pyenv", "rehash")
			case "mise":
				miseRun(t, data, proj, "reshim")
			}
			got := gateprog.Why(line, env, proj, st, since)
			if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
				t.Errorf("Why(%q) = %q, want %q", line, got, c.want)
			}
		})
	}
}
