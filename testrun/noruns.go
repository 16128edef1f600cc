package testrun

import (
	"bufio"
	"bytes"
	"strings"
)

// RanNoTests reports output in which a test runner says its filter
// matched no test: `go test -run NONE ./...` exits 0 having run nothing.
// Go: every "ok" line ends in "[no tests to run]" (lines of packages
// without tests, "[no test files]", say nothing either way), or, with no
// "ok" line at all (a test binary run by itself), the "testing: warning: no
// tests to run" line: `go test -v -run X ./...` prints that warning for
// each package X is not in, beside the packages that ran it; pytest: "no tests ran" or
// "0 selected"; Jest: "No tests found". Output of other programs never
// matches. The output is read when the run is recorded (it is kept only
// as a hash).
func RanNoTests(out []byte) bool {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	goOK, goEmpty, goWarned := 0, 0, false
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(l, "ok ") || strings.HasPrefix(l, "ok\t"):
			goOK++
			if strings.HasSuffix(l, "[no tests to run]") {
				goEmpty++
			}
		case l == "testing: warning: no tests to run":
			goWarned = true
		case strings.Contains(l, "no tests ran") && strings.HasPrefix(l, "="),
			strings.Contains(l, " 0 selected") && strings.HasPrefix(l, "="),
			strings.HasPrefix(l, "No tests found"):
			return true
		}
	}
	if goOK > 0 {
		return goEmpty == goOK
	}
	return goWarned || zeroSummaryOnly(out)
}
