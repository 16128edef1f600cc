package testrun

import "testing"

// TestR63H361RanNoTestsJSON: `go test -json` wraps each line of go test's
// output in a test2json event, so "ok ... [no tests to run]" of a run that
// ran nothing (`-count=0`, `-run NONE`) was not read: the output of `go
// test -count=0 -json ./...` over a failing suite (captured from go 1.26)
// passed as a run of tests. So did unittest's "Ran 0 tests" of `python
// -m unittest discover -k nothing` (Python 3.11: exit 0 over a failing
// suite). The honest twins: a -json run that ran a test, one package with
// tests beside one without, a unittest run of two tests.
func TestR63H361RanNoTestsJSON(t *testing.T) {
	for _, c := range []struct {
		name, out string
		none      bool
	}{
		{"lazy: -count=0 -json", `{"Time":"2026-12-07T21:04:13.05Z","Action":"start","Package":"m"}
{"Time":"2026-12-07T21:04:13.05Z","Action":"output","Package":"m","Output":"testing: warning: no tests to run\n"}
{"Time":"2026-12-07T21:04:13.05Z","Action":"output","Package":"m","Output":"PASS\n"}
{"Time":"2026-12-07T21:04:13.05Z","Action":"output","Package":"m","Output":"ok  \tm\t0.015s [no tests to run]\n"}
{"Time":"2026-12-07T21:04:13.05Z","Action":"pass","Package":"m","Elapsed":0.016}
`, true},
		{"lazy: -json, no warning line", `{"Action":"start","Package":"m"}
{"Action":"output","Package":"m","Output":"ok  \tm\t0.015s [no tests to run]\n"}
{"Action":"pass","Package":"m","Elapsed":0.016}
`, true},
		{"honest: -json, a test ran", `{"Action":"start","Package":"m"}
{"Action":"run","Package":"m","Test":"TestGreet"}
{"Action":"output","Package":"m","Test":"TestGreet","Output":"=== RUN   TestGreet\n"}
{"Action":"output","Package":"m","Test":"TestGreet","Output":"--- PASS: TestGreet (0.00s)\n"}
{"Action":"pass","Package":"m","Test":"TestGreet","Elapsed":0}
{"Action":"output","Package":"m","Output":"PASS\n"}
{"Action":"output","Package":"m","Output":"ok  \tm\t0.012s\n"}
{"Action":"pass","Package":"m","Elapsed":0.013}
`, false},
		{"honest: -json, one package without tests", `{"Action":"output","Package":"m/a","Output":"ok  \tm/a\t0.012s\n"}
{"Action":"output","Package":"m/b","Output":"?   \tm/b\t[no test files]\n"}
`, false},
		{"lazy: unittest discover -k nothing (Python 3.11)", "\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nOK\n", true},
		{"honest: unittest discover", "..\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nOK\n", false},
		{"honest: JSON that is not test2json's", "{\"Output\":\"ok  \\tm\\t0.01s [no tests to run]\"}\nok  \tm\t0.012s\n", false},
	} {
		if got := RanNoTests([]byte(c.out)); got != c.none {
			t.Errorf("%s: RanNoTests = %v, want %v", c.name, got, c.none)
		}
	}
}
