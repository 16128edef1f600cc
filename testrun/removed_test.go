package testrun

import (
	"slices"
	"testing"
)

// TestTestNames: the names a runner collects and those it skips.
func TestTestNames(t *testing.T) {
	tests := []struct {
		kind, src string
		collected []string
		skipped   []string
	}{
		{"go", "func TestA(t *testing.T) {}\nfunc Test(t *testing.T) {}\nfunc Test_b(t *testing.T) {}\nfunc Testc(t *testing.T) {}\nfunc testD(t *testing.T) {}\nfunc helper(t *testing.T) {}\nfunc BenchmarkE(b *testing.B) {}\n", []string{"TestA", "Test", "Test_b"}, []string{"Testc", "testD"}},
		{"py", "def test_a():\n    pass\n\n\nclass TestB:\n    def test_b(self):\n        pass\n\n    def _test_c(self):\n        pass\n\n\ndef helper():\n    pass\n", []string{"test_a", "test_b"}, []string{"_test_c"}},
		{"js", "test('adds', () => {})\nit(\"subtracts\", () => {})\nxit('later', () => {})\n", []string{"adds", "subtracts"}, []string{"later"}},
	}
	for _, tc := range tests {
		c, s := testNames(tc.kind, []byte(tc.src))
		if !slices.Equal(c, tc.collected) || !slices.Equal(s, tc.skipped) {
			t.Errorf("%s: collected %q skipped %q, want %q and %q", tc.kind, c, s, tc.collected, tc.skipped)
		}
	}
}
