package session

import (
	"reflect"
	"testing"

	"github.com/sessiongate/sessiongate/testcounts"
)

// TestStartRunDetail: what a start run recorded reads back the same,
// and a record of round 35 (counts alone) still reads.
func TestStartRunDetail(t *testing.T) {
	for _, r := range []startRun{
		{outcome: testcounts.Outcome{Passed: 3, NotRun: 1}, counted: true},
		{outcome: testcounts.Outcome{Passed: 3}, counted: true, passed: []string{"0a1b2c3d4e5f", "ffeeddccbbaa"}},
		{passed: []string{}},
		{},
	} {
		d := r.detail("k")
		if got := parseStartRun(d[len("k "):]); !reflect.DeepEqual(got, r) {
			t.Errorf("%q reads back as %+v, want %+v", d, got, r)
		}
	}
	if got := parseStartRun("4 2"); !got.counted || got.outcome != (testcounts.Outcome{Passed: 4, NotRun: 2}) || got.passed != nil {
		t.Errorf("round 35's record reads as %+v", got)
	}
}
