package shellline

import "testing"

// TestRunsTests: test runners and test scripts count; commands that exit 0
// without testing anything, which met "MUST run the tests" in the
// adversarial pass, do not.
func TestRunsTests(t *testing.T) {
	for line, want := range map[string]bool{
		"go test ./...":               true,
		"go test -race ./...":         true,
		"cd web && npm test":          true,
		"npm run test:unit":           true,
		"yarn test":                   true,
		"pnpm run check":              true,
		"npx jest":                    true,
		"npx vitest run":              true,
		"pytest -q":                   true,
		"python3 -m pytest -q":        true,
		"python -m unittest discover": true,
		"uv run pytest":               true,
		"cargo test --all":            true,
		"make test":                   true,
		"make check":                  true,
		"sh scripts/test.sh":          true,
		"./test.sh":                   true,
		"bash ci/run_tests.sh":        true,
		"./scripts/check":             true,
		"timeout 600 go test ./...":   true,
		"env CI=true npm test":        true,
		"gotestsum -- ./...":          true,
		"ls":                          false,
		"env true":                    false,
		"node -e 0":                   false,
		"perl -e 1":                   false,
		"python3 -c pass":             false,
		"python3 -m this":             false,
		"awk 'BEGIN{}'":               false,
		"git diff --quiet":            false,
		"go vet ./...":                false,
		"go build ./...":              false,
		"make":                        false,
		"npm ci":                      false,
		"npm run build":               false,
	} {
		if got := RunsTests(line); got != want {
			t.Errorf("RunsTests(%q) = %v, want %v", line, got, want)
		}
	}
}
