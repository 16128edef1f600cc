package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// needPython finds, on this machine's PATH, a python3 that imports pytest
// and the pytest program; the test skips without them (fails under CI=true,
// whose .ci/run installs python3-pytest and python3-venv).
func needPython(t *testing.T) (python, pytest string) {
	t.Helper()
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		p := filepath.Join(dir, "python3")
		if python == "" && exec.Command(p, "-I", "-c", "import pytest, venv").Run() == nil {
			python = p
		}
	}
	pytest, _ = exec.LookPath("pytest")
	if python == "" || pytest == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true: need a python3 that imports pytest and venv, and a pytest program on PATH (python3-pytest, python3-venv)")
		}
		t.Skip("needs a python3 that imports pytest and venv, and a pytest program on PATH (python3-pytest, python3-venv)")
	}
	return python, pytest
}

// TestResolvePytest runs the probe against real interpreters: a venv made
// without system packages is a python3 that cannot import pytest (as a
// pyenv shim in front of Debian's python3-pytest is).
func TestResolvePytest(t *testing.T) {
	python, pytest := needPython(t)
	dir := t.TempDir()
	venv := filepath.Join(dir, "venv")
	if out, err := exec.Command(python, "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Fatalf("make a venv: %v\n%s", err, out)
	}
	progs := filepath.Join(dir, "progs")
	if err := os.Mkdir(progs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(pytest, filepath.Join(progs, "pytest")); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good")
	if err := os.Mkdir(good, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(python, filepath.Join(good, "python3")); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(venv, "bin")
	list := func(dirs ...string) string { return strings.Join(dirs, string(os.PathListSeparator)) }
	cases := []struct {
		name, cmd, path, want string
		warn                  bool
	}{
		{"python3 without pytest, pytest program on PATH", "python3 -m pytest", list(bin, progs), "pytest", false},
		{"joined with another command", "go test ./... && python3 -m pytest", list(bin, progs), "go test ./... && pytest", false},
		{"neither: command kept, warned", "python3 -m pytest", bin, "python3 -m pytest", true},
		{"honest: python3 imports pytest", "python3 -m pytest", list(good, progs), "python3 -m pytest", false},
		{"a relative PATH entry is not looked in", "python3 -m pytest", list(bin, "progs"), "python3 -m pytest", true},
		{"another command: no probe", "uv run pytest", bin, "uv run pytest", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := ResolvePytest(TestCommand{Command: c.cmd, From: "pytest's configuration"}, c.path)
			if got.Command != c.want || (got.Warning != "") != c.warn {
				t.Fatalf("got %q (warning %q), want %q (warning %v)", got.Command, got.Warning, c.want, c.warn)
			}
			if c.want == "pytest" && !strings.Contains(got.From, "cannot import pytest") {
				t.Errorf("From should say why: %q", got.From)
			}
		})
	}
}
