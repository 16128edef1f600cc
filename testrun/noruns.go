package testrun

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"

	"github.com/sessiongate/sessiongate/internal/lazyregexp"
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
		l := strings.TrimSpace(stripANSI(sc.Text()))
		if o, ok := goJSONOutput(l); ok {
			l = o
		}
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
			strings.HasPrefix(l, "No tests found"),
			// vitest --passWithNoTests (4.x): "No test files found,
			// exiting with code 0".
			strings.HasPrefix(l, "No test files found"):
			return true
		}
	}
	if goOK > 0 {
		return goEmpty == goOK
	}
	return goWarned || zeroSummaryOnly(out) || MakeIdle(out) != "" && !someSummary().Match(out)
}

// makeIdle matches GNU make's line for a goal it had nothing to do for:
// "make: 'test' is up to date." (a file or folder named test exists and
// the Makefile does not mark the target .PHONY: `mkdir test/fixtures`
// made `make test` a no-op that exits 0, lazy pass 33) or "make: Nothing
// to be done for 'test'." (no recipe, nothing remade); older makes quote
// with a backquote.
var makeIdle = lazyregexp.New("(?m)^g?make(?:\\[\\d+\\])?: (?:[`'‘](.+?)['’] is up to date|Nothing to be done for [`'‘](.+?)['’])\\.\\s*$")

// MakeIdle names the first goal make says it ran no recipe for, "" for
// none.
func MakeIdle(out []byte) string {
	m := makeIdle.FindSubmatch(out)
	if m == nil {
		return ""
	}
	if len(m[1]) > 0 {
		return string(m[1])
	}
	return string(m[2])
}

// stripANSI drops colour escapes (ESC [ ... letter): a runner writing to
// a terminal colours its summary line, and the words are what is read.
func stripANSI(l string) string {
	if !strings.Contains(l, "\x1b[") {
		return l
	}
	var b strings.Builder
	for i := 0; i < len(l); i++ {
		if l[i] == 0x1b && i+1 < len(l) && l[i+1] == '[' {
			j := i + 2
			for j < len(l) && (l[j] < 0x40 || l[j] > 0x7e) {
				j++
			}
			i = j
			continue
		}
		b.WriteByte(l[i])
	}
	return b.String()
}

// goJSONOutput is the text of one `go test -json` (test2json) output
// event, trimmed: `{"Action":"output","Package":"m","Output":"ok  \tm\t0.01s
// [no tests to run]\n"}` says what the plain line says (helper 361: `go
// test -count=0 -json ./...` exited 0 over a failing suite, its "[no tests
// to run]" inside JSON). ok is false for any other line.
func goJSONOutput(l string) (string, bool) {
	if !strings.HasPrefix(l, "{") || !strings.Contains(l, `"Output"`) {
		return "", false
	}
	var ev struct{ Action, Output string }
	if json.Unmarshal([]byte(l), &ev) != nil || ev.Action != "output" {
		return "", false
	}
	return strings.TrimSpace(ev.Output), true
}
