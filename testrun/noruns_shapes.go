package testrun

import (
	"regexp"
	"sync"
)

// The closing lines of the runners init picks for round 17's shapes:
// minitest (rake test), RSpec, ExUnit (mix test), PHPUnit and node's test
// runner. A suite emptied by the file that chooses it (a Rakefile's
// test_files, .rspec's --pattern, mix.exs's test_paths, phpunit.xml's
// directory) prints a zero summary and exits 0; the gate's command passed
// broken code that way (TestFieldSuiteEmptiedIsNoQA). Python's unittest
// before 3.12 too: `python -m unittest discover -k nothing` (or -p
// nothing) printed "Ran 0 tests in 0.000s", OK, exit 0 over a failing
// suite (helper 361).
var (
	zeroSummary = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*(?:0 runs, 0 assertions|0 examples, 0 failures|No examples found\.|0 tests, 0 failures|There are no tests to run|No tests executed!|[#ℹ] tests 0\s*$|Ran 0 tests in )`)
	})
	// someSummary is a closing line of any runner that ran a test: a
	// monorepo line (`go test ./... && npm test`) whose one suite is
	// empty still tested the rest.
	someSummary = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?m)^\s*(?:[1-9]\d* runs?, |[1-9]\d* examples?, |[1-9]\d* tests?, \d+ failures?|OK \([1-9]|Ran [1-9]\d* tests? in |Tests: [1-9]|[#ℹ] tests [1-9]|ok\s)|\b[1-9]\d* passed\b`)
	})
)

// zeroSummaryOnly reports output holding a zero summary of one of those
// runners and no runner's summary of a test that ran.
func zeroSummaryOnly(out []byte) bool {
	return zeroSummary().Match(out) && !someSummary().Match(out)
}
