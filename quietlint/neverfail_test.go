package quietlint

import "testing"

// TestCannotFail: linter runs told never to fail, and honest twins (the
// behaviour of each row is measured with the real tool in
// TestCannotFailReal, except ruff and golangci-lint: not installable
// here, their rows follow their documented options).
func TestCannotFail(t *testing.T) {
	for _, c := range []struct {
		line  string
		never bool
	}{
		{"flake8 --exit-zero .", true},
		{"python3 -m flake8 --exit-zero src", true},
		{"uv run flake8 --exit-zero", true},
		{"pylint --exit-zero pkg", true},
		{"pylint --disable=all pkg", true},
		{"pylint -d all pkg", true},
		{"pylint --fail-under=-100 pkg", true},
		{"pylint --fail-under -5 pkg", true},
		{"ruff check --exit-zero .", true},
		{"ruff check -e .", true},
		{"npx eslint --no-config-lookup .", true},
		{"eslint --no-eslintrc src", true},
		{"golangci-lint run --issues-exit-code=0 ./...", true},
		{"golangci-lint run --issues-exit-code 0", true},
		{"cd src && flake8 --exit-zero", true},
		// argparse prefixes and attached short values (measured).
		{"flake8 --exit-z .", true},
		{"flake8 --exit .", true},
		{"pylint --exit-z pkg", true},
		{"pylint --disab=all pkg", true},
		{"pylint -dall pkg", true},
		{"pylint --fail-u=-100 pkg", true},
		// Round 21 review (c9): pylint clamps its score at 0 (measured:
		// an undefined name rated 0.00/10, exit 0 under --fail-under=0),
		// and a constant --evaluation rates every file the same.
		{"pylint --fail-under=0 pkg", true},
		{"pylint --fail-under 0.0 pkg", true},
		{"pylint --evaluation=10 pkg", true},
		{"pylint --fail-under=0.5 pkg", false},
		{"pylint --e=unused-import pkg", false}, // ambiguous prefix: not --evaluation
		{"pylint '--evaluation=10.0 - ((float(5 * error + warning) / statement) * 10)' pkg", false},
		// Honest twins.
		{"flake8 .", false},
		{"flake8 --max-line-length 100 src", false},
		{"pylint pkg", false},
		{"pylint --fail-under=8 pkg", false},
		{"pylint --disable=all --enable=unused-import pkg", false},
		{"pylint --disable=C0114,C0115 pkg", false},
		{"pylint -dC0114 pkg", false},
		{"flake8 --exclude build --extend-ignore E501 .", false},
		{"pylint --disab=all --enab=unused-import pkg", false},
		{"ruff check .", false},
		{"ruff check --exit-zero --no-exit-zero .", false},
		{"eslint .", false},
		{"eslint --max-warnings=-1 .", false}, // the default: errors still fail
		{"eslint --no-config-lookup --rule no-unused-vars:error src", false},
		{"eslint --no-config-lookup -c eslint.config.mjs src", false},
		{"golangci-lint run ./...", false},
		{"golangci-lint run --issues-exit-code=2 ./...", false},
		{"shellcheck -S error script.sh", false}, // errors still fail
		{"echo --exit-zero", false},
		{"flake8 -- --exit-zero", false},
	} {
		if got := CannotFail(c.line); (got != "") != c.never {
			t.Errorf("CannotFail(%q) = %q, want cannot-fail %v", c.line, got, c.never)
		}
	}
}
