package shellline

import "testing"

func TestTestsNotRun(t *testing.T) {
	tests := []struct {
		line string
		skip bool
	}{
		{"go test ./...", false},
		{"go test -count=1 -race -cover ./...", false},
		{"go test -cpu 2 -run TestX ./...", false},
		{"go test -c=false ./...", false},
		{"go test ./... -args -c -list x", false}, // the test binary's flags
		{"GOFLAGS=-mod=mod go test ./...", false},
		{"pytest -q tests/", false},
		{"npm test", false},
		{"cargo test -- --nocapture", false},
		{"echo go test -exec=true", false},
		{"go test -exec=true ./...", true},
		{"go test -exec true ./...", true},
		{"go test --exec=true ./...", true},
		{"go test -toolexec=/bin/echo ./...", true},
		{"go test -list . ./...", true},
		{"go test -test.list=. ./...", true},           // go test's test. spelling
		{"go test ./... -args -test.list=.", true},     // the test binary's own flag
		{"go test ./... -args -test.v -update", false}, // honest binary flags
		{"go test -c ./a", true},
		{"go test -n ./...", true},
		{"GOFLAGS=-exec=true go test ./...", true},
		{"env GOFLAGS='-count=1 -exec=true' go test ./...", true},
		{"cd sub && GOFLAGS=-list=. go test ./...", true},
		{"timeout 300 go test -exec=true ./...", true},
		{"pytest --collect-only", true},
		{"python3 -m pytest --co -q", true},
		{"PYTEST_ADDOPTS=--setup-plan pytest", true},
		// exported earlier on the line: the runner after it reads it
		{"export PYTEST_ADDOPTS=--co; pytest -q", true},
		{"export PYTEST_ADDOPTS='-q --collect-only' && python3 -m pytest", true},
		{"PYTEST_ADDOPTS=--co; export PYTEST_ADDOPTS; pytest", true},
		{"declare -x PYTEST_ADDOPTS=--co; pytest", true},
		{"export GOFLAGS=-exec=true; go test ./...", true},
		{"export GOFLAGS=-list=. && cd sub && go test ./...", true},
		// honest twins: an export that keeps the tests, one undone before
		// the run, an unexported shell variable, one after the run
		{"export PYTEST_ADDOPTS='-p no:cacheprovider'; pytest -q", false},
		{"export GOFLAGS=-mod=mod; go test ./...", false},
		{"export PYTEST_ADDOPTS=--co; unset PYTEST_ADDOPTS; pytest", false},
		{"export PYTEST_ADDOPTS=--co; export PYTEST_ADDOPTS=-q; pytest", false},
		{"PYTEST_ADDOPTS=--co; pytest", false},
		{"pytest -q; export PYTEST_ADDOPTS=--co", false},
		{"(export PYTEST_ADDOPTS=--co); pytest", false},
		{"npx jest --listTests", true},
		{"npm test -- --listTests", true},
		{"cargo test --no-run", true},
		{"cargo test -- --no-run", false}, // the harness's argument, not cargo's
		// issue 25, third round: runs that select, list or print no test
		{"cargo test -- --list", true},
		{"cargo test -- --help", true},
		{"cargo test --release -- --nocapture --test-threads 1", false},
		{"cargo test list_", false}, // a name filter (scriptrun judges it)
		{"npm test -- --help", true},
		{"npx jest --version", true},
		{"npx jest --onlyChanged", true},
		{"npx jest -o", true},
		{"npx jest --changedSince=main", true},
		{"npx vitest run --changed", true},
		{"npx vitest list", true},
		{"npx jest --shard 1/2", true},
		{"npx jest --shard=2/3", true},
		{"npx vitest run --shard=1/2", true},
		{"npx jest --shard 1/1", false},
		{"npx jest --passWithNoTests", false},
		{"npx jest --passWithNoTests --testPathIgnorePatterns=.", true},
		{"npx jest --passWithNoTests zzz_none", true},
		{"npm test -- --passWithNoTests -t 'no such test'", true},
		{"npx jest src/sum", false},
		{"npx jest --ci --coverage", false},
		{"npx jest -t adds", false},
		{"make -n test", true},
		{"make --dry-run test", true},
		{"make -sn check", true},
		{"make -q test", true},
		{"make -t test", true},
		{"make -C sub -j4 test", false},
		{"make -j 4 -k test", false},
		{"make -Otarget test", false},
		{"make -f test.mk test", false},
		{"make test", false},
		{"tox -l", true},
		{"tox --notest", true},
		{"tox -e py311 --notest", true},
		{"tox list", true},
		{"tox -e py311", false},
		{"tox -e l", false},
		{"nox -l", true},
		{"nox -s tests", false},
	}
	for _, tc := range tests {
		if got := TestsNotRun(tc.line); (got != "") != tc.skip {
			t.Errorf("TestsNotRun(%q) = %q, want skip=%v", tc.line, got, tc.skip)
		}
	}
}
