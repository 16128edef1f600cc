package cmdoutput

import (
	"regexp"
	"strings"
	"sync"
)

// rakeSummary is the closing line of the runners a Rakefile's test task
// runs: minitest ("N runs, N assertions"), test-unit ("N tests, N
// assertions") or RSpec ("N examples").
var rakeSummary = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*\d+ (?:runs?, \d+ assertions?|tests?, \d+ assertions?|examples?, \d+ failures?)`)
})

// rakeTestSilent reports a `rake test` (or `bundle exec rake test`) whose
// output has no runner's summary: a Rakefile whose TestTask lists no file
// (`t.test_files = FileList[]`) exits 0 having printed nothing at all, and
// the gate passed broken code (TestFieldSuiteEmptiedIsNoQA).
func rakeTestSilent(line string, out []byte) bool {
	f := strings.Fields(line)
	if len(f) >= 2 && f[0] == "bundle" && f[1] == "exec" {
		f = f[2:]
	}
	return len(f) == 2 && f[0] == "rake" && f[1] == "test" && !rakeSummary().Match(out)
}
