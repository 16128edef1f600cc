package testrun

import "testing"

// TestRanNoTestsShapes: zero summaries of the round-17 runners (captured
// from the real rspec 3.12, PHPUnit 9.6 and node 20 on an emptied suite)
// are runs of no test; a run beside them that tested something is not.
func TestRanNoTestsShapes(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		want      bool
	}{
		{"rspec pattern none", "\nFinished in 0.00047 seconds (files took 0.42291 seconds to load)\n0 examples, 0 failures\n\n", true},
		{"rspec ran one", "Finished in 0.01 seconds\n1 example, 0 failures\n", false},
		{"phpunit empty folder", "PHPUnit 9.6.7 by Sebastian Bergmann and contributors.\n\nNo tests executed!\n", true},
		{"phpunit ran one", "PHPUnit 9.6.7\n\n.\n\nOK (1 test, 1 assertion)\n", false},
		{"minitest zero", "Run options: --seed 1\n\n# Running:\n\nFinished in 0.0001s\n\n0 runs, 0 assertions, 0 failures, 0 errors, 0 skips\n", true},
		{"minitest ran", "1 runs, 1 assertions, 0 failures, 0 errors, 0 skips\n", false},
		{"exunit zero", "Finished in 0.01 seconds\n0 tests, 0 failures\n", true},
		{"exunit ran", "Finished in 0.02 seconds\n1 test, 0 failures\n", false},
		{"node test zero", "# tests 0\n# suites 0\n# pass 0\n# fail 0\n", true},
		{"monorepo: one suite empty, one ran", "# tests 0\n# pass 0\nok  \texample.com/svc\t0.01s\n", false},
		{"monorepo: node zero, rspec ran", "# tests 0\n3 examples, 0 failures\n", false},
		{"a line merely saying it", "echo: 0 examples, 0 failures were expected", false},
	} {
		if got := RanNoTests([]byte(tc.out)); got != tc.want {
			t.Errorf("%s: RanNoTests = %v, want %v", tc.name, got, tc.want)
		}
	}
}
