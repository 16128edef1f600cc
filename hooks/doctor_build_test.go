package hooks

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestDoctorBuild(t *testing.T) {
	for _, c := range []struct {
		cgo    string
		status string
	}{{"0", OK}, {"1", Warn}} {
		bi := &debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "CGO_ENABLED", Value: c.cgo}}}
		if f := doctorBuild(bi); f.Status != c.status || c.status == Warn && !strings.Contains(f.Fix, "CGO_ENABLED=0 go install") {
			t.Errorf("CGO_ENABLED=%s: %+v, want status %s", c.cgo, f, c.status)
		}
	}
	if f := doctorBuild(nil); f.Status != Warn {
		t.Errorf("no build info: %+v", f)
	}
}
