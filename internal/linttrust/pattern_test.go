package linttrust

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestLinters: which programs of a gate command the trust check covers.
func TestLinters(t *testing.T) {
	root := t.TempDir()
	lock := `{"lockfileVersion":3,"packages":{"node_modules/mylint":{"bin":{"mylint":"cli.js"}},"node_modules/a/node_modules/nested":{"bin":{"nested":"x.js"}}}}`
	if err := os.WriteFile(filepath.Join(root, "package-lock.json"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg := `{"scripts":{"test":"mylint src && node test.js","pretest":"eslint .","lint":"npm run inner","inner":"prettier --check .","loop":"npm run loop","bin":"./node_modules/.bin/mylint x"}}`
	if err := os.WriteFile(filepath.Join(root, "package.json"), []byte(pkg), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		line string
		want []Linter
	}{
		{"npx markdownlint-cli2 {changed:*.md}", []Linter{{"markdownlint-cli2", "markdownlint-cli2"}}},
		{"npx --yes markdownlint-cli2@0.24.1 a.md", []Linter{{"markdownlint-cli2", "markdownlint-cli2"}}},
		{"npx markdownlint a.md && ./node_modules/.bin/prettier --check .", []Linter{{"markdownlint", "markdownlint-cli"}, {"prettier", "prettier"}}},
		{"CI=1 npm exec -- eslint src", []Linter{{"eslint", "eslint"}}},
		{"node_modules/.bin/mylint x", []Linter{{"mylint", "mylint"}}},
		{"npx nested x", nil},    // not a top-level package of the lock
		{"npx some-tool x", nil}, // neither known nor locked
		{"eslint src", nil},      // from PATH, not the project's install
		{"go test ./...", nil},
		// package scripts: what package.json's script runs, npm's PATH first
		{"npm test", []Linter{{"eslint", "eslint"}, {"mylint", "mylint"}}},
		{"npm --silent t", []Linter{{"eslint", "eslint"}, {"mylint", "mylint"}}},
		{"npm run lint", []Linter{{"prettier", "prettier"}}},
		{"yarn lint", []Linter{{"prettier", "prettier"}}},
		{"pnpm run-script bin", []Linter{{"mylint", "mylint"}}},
		{"npm run loop", nil},    // a script that runs itself ends
		{"npm run missing", nil}, // no such script
		{"npm install", nil},
		{"yarn install", nil},
	}
	for _, c := range cases {
		if got := Linters(root, c.line); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Linters(%q) = %v, want %v", c.line, got, c.want)
		}
	}
}
