package cmdoutput

import (
	"regexp"
	"strconv"
	"sync"
)

// Shapes of "checked nothing" found by running the tools (round 18, issue
// 25): each exits 0 and prints a summary of its own that is not a check.
//
//   - eslint 9 given only files its ignore patterns cover: one warning per
//     file, "File ignored because of a matching ignore pattern", and
//     "✖ N problem(s) (0 errors, N warning(s))" — every problem is an
//     ignored file, so no file was linted.
//   - pytest --collect-only (--co): "N tests collected in 0.19s" (or "no
//     tests collected"), and no test ran.
//
// Found failing already (exit status not 0, so not read here): eslint on an
// ignored folder (exit 2, "all of the files matching the glob pattern ...
// are ignored"), tsc --noEmit with an empty include (exit 2, TS18003), go
// vet on no packages (exit 1, "no packages to vet", go 1.26).
var quietREs = sync.OnceValue(func() map[string]*regexp.Regexp {
	return map[string]*regexp.Regexp{
		"eslint ignored":   regexp.MustCompile(`(?m)^\s*0:0\s+warning\s+File ignored (?:because of a matching ignore pattern|by default|because outside of base path|because no matching configuration was supplied)`),
		"eslint summary":   regexp.MustCompile(`(?m)^✖ (\d+) problems? \((\d+) errors?, (\d+) warnings?\)`),
		"pytest collected": regexp.MustCompile(`(?m)^=*\s*(?:\d+ tests?|no tests) collected(?: in [0-9.]+s)?\s*=*\s*$`),
		// Any line of a run: a test's result, or a summary naming one.
		"pytest ran": regexp.MustCompile(`(?m)(?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed)\b|PASSED|FAILED|^\S+\.py [.FEsxX]+)`),
	}
})

// eslintIgnoredOnly reports whether eslint's output says every problem it
// found is a file it ignored.
func eslintIgnoredOnly(out []byte) bool {
	res := quietREs()
	m := res["eslint summary"].FindSubmatch(out)
	if m == nil {
		return false
	}
	total, _ := strconv.Atoi(string(m[1]))
	errs, _ := strconv.Atoi(string(m[2]))
	ignored := len(res["eslint ignored"].FindAllIndex(out, -1))
	return errs == 0 && ignored > 0 && ignored == total
}

// pytestCollectedOnly reports whether pytest only collected tests.
func pytestCollectedOnly(out []byte) bool {
	res := quietREs()
	return res["pytest collected"].Match(out) && !res["pytest ran"].Match(out)
}
