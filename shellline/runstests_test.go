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
		"npm --prefix web test":       true,
		"make -C api test":            true,
		"npm --prefix test build":     false,
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
		"./test":                      true, // a repository script called test
		// A test folder's runner, run through a shell or by path (issue
		// 25 field pass); a helper beside it is not a run of the suite.
		"sh tests/run.sh":              true,
		"bash tests/run_all.sh":        true,
		"./t/all.sh":                   true,
		"bash scripts/test.sh":         true,
		"sh tests/setup.sh":            false,
		"sh tests/fixtures/run.sh":     false,
		"sh scripts/run.sh":            false,
		"python3 tests/main.py":        true,
		"python3 tools/main.py":        false,
		"go test -race -count=1 ./...": true,
		"ls":                           false,
		// The shell's test and [ check a file, not a suite (issue 25).
		"test -f go.mod":          false,
		"[ -f go.mod ]":           false,
		"[[ -d . ]]":              false,
		"/usr/bin/test -f go.mod": false,
		"true && test -d .":       false,
		"command test -f x":       false,
		"sh -c 'test -f x'":       false,
		"echo go test":            false,
		"printf 'go test\\n'":     false,
		"env true":                false,
		"node -e 0":               false,
		"perl -e 1":               false,
		"python3 -c pass":         false,
		"python3 -m this":         false,
		"awk 'BEGIN{}'":           false,
		"git diff --quiet":        false,
		"go vet ./...":            false,
		"go build ./...":          false,
		"make":                    false,
		"npm ci":                  false,
		"npm run build":           false,
		// PowerShell and Pester, the real team's tests (t7).
		`pwsh -NoProfile -Command "Invoke-Pester -Path tests -Output Detailed"`:        true,
		`pwsh -NoProfile -NonInteractive -c 'Invoke-Pester tests; exit $LASTEXITCODE'`: true,
		`pwsh -ExecutionPolicy Bypass -File ./build/scripts/Invoke-PesterTests.ps1`:    true,
		`pwsh ./tests/Run-Tests.ps1 -CI`:                                               true,
		`powershell -Command "& ./scripts/Test-All.ps1"`:                               true,
		`Invoke-Pester -Path tests`:                                                    true,
		`pwsh -NoProfile -Command "Write-Output Invoke-Pester"`:                        false,
		`pwsh -Command "Get-ChildItem tests"`:                                          false,
		`pwsh -File ./scripts/Validate-SessionProtocol.ps1`:                            false,
		`pwsh -ExecutionPolicy Test -File ./scripts/build.ps1`:                         false,
		`pwsh -NoProfile`: false,
	} {
		if got := RunsTests(line); got != want {
			t.Errorf("RunsTests(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestTestRunNarrowing: a passing run answers a failing one only when it
// runs at least as much; debugging with a narrow run is fine, proving QA
// with it after the full run failed is not.
func TestTestRunNarrowing(t *testing.T) {
	tests := []struct {
		failed, passed string
		covers         bool
	}{
		{"go test ./...", "go test ./...", true},
		{"go test ./...", "go test -race -count=1 ./...", true},
		{"go test ./...", "timeout 600 go test -v ./...", true},
		{"go test ./pkg", "go test ./...", true},
		{"go test -run TestAdd ./pkg", "go test ./...", true},
		{"go test -run TestAdd ./pkg", "go test ./pkg/...", true},
		{"go test -run TestAdd ./pkg", "go test -run TestAdd ./pkg", true},
		{"go test ./...", "go test -run TestAdd ./...", false},
		{"go test ./...", "go test -run=TestAdd ./pkg", false},
		{"go test ./...", "go test -skip TestSlow ./...", false},
		{"go test ./...", "go test ./... -run TestAdd", false},
		{"go test ./...", "go test ./... -args -test.run=TestAdd", false},
		{"go test ./...", "go test -short ./...", false},
		{"go test ./...", "go test ./pkg", false},
		{"go test ./pkg/...", "go test ./pkg", false},
		{"go test ./a ./b", "go test ./a", false},
		{"go test ./...", "cd sub && go test ./...", false},
		// go's own -C moves the run like a cd (lazy-agent pass 19).
		{"go test ./...", "go test -C sub ./...", false},
		{"go test ./...", "go -C sub test ./...", false},
		{"go test ./...", "go -C=sub test ./...", false},
		{"go test ./...", "go -C . test ./...", true},
		{"go test ./...", "go test -C . ./...", true},
		{"cd sub && go test ./...", "go -C sub test -v ./...", true},
		{"sh test.sh 2>&1 | tail -3", "cd . && sh test.sh", true}, // cd . stays put (the real agent hook test ran this)
		{"go test ./...", "pytest", false},
		{"pytest", "pytest -q", true},
		{"pytest", "python3 -m pytest -q", true},
		{"pytest", "uv run pytest -x", true},
		{"pytest tests/test_one.py", "pytest", true},
		{"pytest tests/test_one.py::test_add", "pytest tests", true},
		{"pytest", "pytest tests/test_one.py", false},
		{"pytest", "pytest -k add", false},
		{"pytest", "pytest -kadd", false},
		{"pytest", "pytest -m 'not slow'", false},
		{"pytest", "pytest --lf", false},
		{"pytest tests", "pytest tests/test_one.py::test_add", false},
		{"cargo test", "cargo test --all", true},
		{"cargo test", "cargo test add", false},
		{"cargo test", "cargo test -- --skip slow", false},
		{"cargo test", "cargo test -p core", false},
		{"npm test", "npm test", true},
		{"npm test", "npm test -- -t add", false},
		{"npm --prefix web test", "cd web && npm test", true},
		{"npm --prefix web test", "npm test", false},
		{"npx jest", "npx jest src/add.test.js", false},
		{"make test", "make test", true},
		{"make test", "make test TESTS=add", false},
		{"sh scripts/test.sh", "sh scripts/test.sh", true},
		{"sh scripts/test.sh", "sh scripts/test.sh add", false},
	}
	for _, tc := range tests {
		f, p := TestRuns(tc.failed), TestRuns(tc.passed)
		if len(f) != 1 || len(p) != 1 {
			t.Errorf("TestRuns(%q) = %v, TestRuns(%q) = %v: want one run each", tc.failed, f, tc.passed, p)
			continue
		}
		if why := p[0].Narrowing(f[0]); (why == "") != tc.covers {
			t.Errorf("%q after %q failed: narrowing %q, want covers=%v", tc.passed, tc.failed, why, tc.covers)
		}
	}
}

func TestPartial(t *testing.T) {
	for _, c := range []struct {
		line    string
		partial bool
	}{
		{"go test ./...", false},
		{"go test -race -count=1 -v ./...", false},
		{"go test -run TestAdd ./pkg", true},
		{"go test -skip TestSlow ./...", true},
		{"pytest", false},
		{"pytest -q tests", false},
		{"pytest -k add", true},
		// a config no check reads (round 18 review), and honest twins
		{"pytest -c ../lazy.ini", true},
		{"pytest -c/tmp/x.ini", true},
		{"pytest --config-file=../lazy.ini tests", true},
		{`pytest -o 'addopts=-k "not slow"'`, true},
		{"pytest --override-ini=addopts=-x", true},
		{"pytest -c tests/pytest.ini", false},
		{"pytest -o log_cli=true", false},
		{"pytest -q tests --override-ini=cache_dir=.c", false},
		{"pytest tests/test_one.py::test_x", false}, // a target: judged against the files by the caller
		{"npm test", false},
		{"npm test -- -t foo", true},
		{"npx jest -t foo", true},
		{"make test", false},
		{"make test TESTS=one", true},
		{"sh tests/greet_check.sh", false},
		{"sh tests/greet_check.sh -v", false},
		{"sh tests/greet_check.sh --bare-only", true},
		{"./run-tests.sh", false},
		{"./run-tests.sh unit", true},
		{"cargo test", false},
		{"cargo test add", true},
	} {
		runs := TestRuns(c.line)
		if len(runs) == 0 {
			t.Errorf("%s: no test run", c.line)
			continue
		}
		if got := runs[0].Partial() != ""; got != c.partial {
			t.Errorf("%s: Partial() = %q, want partial %v (run %+v)", c.line, runs[0].Partial(), c.partial, runs[0])
		}
	}
}
