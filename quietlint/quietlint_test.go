package quietlint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestWhy: linter runs that exit 0 having checked nothing (outputs are the
// real tools' own: eslint 9.39.5, markdownlint-cli2 0.22.1; ruff's from
// its source, ruff is not installable here), and their honest twins.
func TestWhy(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"src/a.js", "src/b.js", "README.md", "docs/guide.md", "pkg/m.py", "package.json"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name, line, out string
		empty           bool
	}{
		{"eslint on a glob matching nothing", "eslint --no-error-on-unmatched-pattern 'nomatch/**'", "", true},
		{"npx eslint on a missing folder", "npx eslint --no-error-on-unmatched-pattern nomatch/", "", true},
		{"eslint, a config value is no path", "eslint -c eslint.config.mjs --no-error-on-unmatched-pattern 'lib/**/*.js'", "", true},
		{"markdownlint-cli2 says it linted 0 files", "markdownlint-cli2 'nomatch/**'",
			"markdownlint-cli2 v0.22.1 (markdownlint v0.40.0)\nFinding: nomatch/**\nLinting: 0 file(s)\nSummary: 0 error(s)\n", true},
		{"markdownlint-cli on a glob matching nothing", "markdownlint 'nomatch/**/*.md'", "", true},
		{"pnpm exec markdownlint-cli", "pnpm exec markdownlint-cli 'none/*.md'", "", true},
		{"ruff on an excluded path", "ruff check pkg/", "warning: No Python files found under the given path(s)\nAll checks passed!\n", true},
		{"ruff on a missing path", "ruff check nothing_here/", "", true},
		// eslint 9.39.5 given a file no config block covers (round 19,
		// measured): a warning, exit 0, nothing linted.
		{"eslint on a file no config covers", "npx eslint --no-error-on-unmatched-pattern package.json",
			"\n/q/js/package.json\n  0:0  warning  File ignored because no matching configuration was supplied\n\n✖ 1 problem (0 errors, 1 warning)\n\n", true},
		// Told never to fail (round 20 t5; neverfail.go): exit 0 whatever
		// the files hold.
		{"flake8 --exit-zero", "flake8 --exit-zero pkg/", "pkg/m.py:1:1: F821 undefined name 'x'\n", true},
		{"pylint --exit-zero", "python3 -m pylint --exit-zero pkg", "", true},
		{"ruff --exit-zero", "ruff check --exit-zero .", "Found 3 errors.\n", true},
		{"eslint with no config and no rule", "npx eslint --no-config-lookup src", "", true},
		{"golangci-lint told issues exit 0", "golangci-lint run --issues-exit-code=0 ./...", "", true},
		// Honest twins.
		{"eslint on a folder", "eslint src", "", false},
		{"eslint with no path lints the project", "eslint", "", false},
		{"eslint with one glob matching", "npx eslint --no-error-on-unmatched-pattern 'src/**/*.js' 'nomatch/**'", "", false},
		{"eslint on a file, config given", "eslint -c eslint.config.mjs src/a.js", "", false},
		{"markdownlint-cli2 linted a file", "markdownlint-cli2 README.md",
			"markdownlint-cli2 v0.22.1 (markdownlint v0.40.0)\nFinding: README.md\nLinting: 1 file(s)\nSummary: 0 error(s)\n", false},
		{"markdownlint-cli2 with a negated glob", "markdownlint-cli2 '**/*.md' '#node_modules'", "Linting: 2 file(s)\nSummary: 0 error(s)\n", false},
		{"markdownlint-cli on docs", "markdownlint 'docs/**/*.md'", "", false},
		{"ruff on the project", "ruff check .", "All checks passed!\n", false},
		{"ruff with no path", "ruff check", "All checks passed!\n", false},
		{"not a linter", "go test ./...", "?   \tx/a\t[no test files]\n", false},
		{"eslint from stdin", "cat src/a.js | eslint --stdin --stdin-filename nomatch.js", "", false},
	} {
		got := Why(dir, c.line, []byte(c.out))
		if (got != "") != c.empty {
			t.Errorf("%s: Why(%q) = %q, want empty run %v", c.name, c.line, got, c.empty)
		}
	}
}
