package quietlint

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCannotFailReal runs each installable linter for real on a file with
// findings: the never-fail line exits 0 (so only CannotFail tells it from
// a clean run) and is refused; its honest twin exits non-zero on the same
// file and is not. ruff and golangci-lint are not installable here (see
// TestCannotFail).
func TestCannotFailReal(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"bad.py": "import os\nx=1\n",
		"un.js":  "const unused = 1;\n",
		"bad.sh": "#!/bin/sh\necho $1\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		prog, lazy, honest string
	}{
		{"flake8", "flake8 --exit-zero bad.py", "flake8 bad.py"},
		{"pylint", "pylint --exit-zero bad.py", "pylint bad.py"},
		{"pylint", "pylint --disable=all bad.py", "pylint --disable=all --enable=unused-import bad.py"},
		{"pylint", "pylint --fail-under=-100 bad.py", "pylint --fail-under=8 bad.py"},
		// argparse takes a long option's prefix and a short one's value attached.
		{"flake8", "flake8 --exit-z bad.py", "flake8 --exclude build bad.py"},
		{"pylint", "pylint --exit-z bad.py", "pylint -dC0114 bad.py"},
		{"pylint", "pylint -dall bad.py", "pylint --disab=all --enab=unused-import bad.py"},
		{"eslint", "eslint --no-config-lookup un.js", "eslint --no-config-lookup --rule no-unused-vars:error un.js"},
		// Not routes (measured): eslint's --max-warnings=-1 is its default
		// and errors still fail; shellcheck refuses -S none (exit 4) and
		// still fails on errors with -S error.
		{"eslint", "", "eslint --no-config-lookup --max-warnings=-1 --rule no-unused-vars:error un.js"},
		{"shellcheck", "", "shellcheck -S none bad.sh"},
		{"shellcheck", "", "shellcheck bad.sh"},
	} {
		bin := lookLinter(t, c.prog)
		if bin == "" {
			continue
		}
		for _, line := range []string{c.lazy, c.honest} {
			if line == "" {
				continue
			}
			args := strings.Fields(line)
			cmd := exec.Command(bin, args[1:]...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "PYLINTHOME="+filepath.Join(dir, ".pylint.d"))
			out, err := cmd.CombinedOutput()
			code := 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			why := CannotFail(line)
			if line == c.lazy {
				if code != 0 || why == "" {
					t.Errorf("%s: exit %d, CannotFail %q; want exit 0 and refused\n%s", line, code, why, out)
				}
				continue
			}
			if code == 0 || why != "" {
				t.Errorf("%s (honest twin): exit %d, CannotFail %q; want a failing run on findings, not refused\n%s", line, code, why, out)
			}
		}
	}
}

// lookLinter finds prog on PATH (eslint also in the repository's
// .ci/node); missing, the row is skipped, or failed when CI=true.
func lookLinter(t *testing.T, prog string) string {
	t.Helper()
	if p, err := exec.LookPath(prog); err == nil {
		return p
	}
	if p, err := filepath.Abs(filepath.Join("..", ".ci", "node", "node_modules", ".bin", prog)); err == nil {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Errorf("%s is not installed (.ci/run installs it)", prog)
	} else {
		t.Logf("skipping %s rows: %s is not installed", prog, prog)
	}
	return ""
}
