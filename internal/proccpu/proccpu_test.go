package proccpu_test

import (
	"os"
	"os/exec"
	"testing"

	"github.com/sessiongate/sessiongate/internal/proccpu"
	"github.com/sessiongate/sessiongate/internal/tmpleak"
)

func TestMain(m *testing.M) { os.Exit(tmpleak.Run(m.Run)) }

// TestUsedCountsChildren: a waited-for child's CPU is in the figure (the
// reason the helper exists: gate calls start git processes).
func TestUsedCountsChildren(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("sh not found")
		}
		t.Skip("sh not found")
	}
	before := proccpu.Used()
	// A child that burns some CPU, then is waited for.
	if out, err := exec.Command(sh, "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done").CombinedOutput(); err != nil {
		t.Fatalf("run the child: %v %s", err, out)
	}
	if after := proccpu.Used(); after <= before {
		t.Fatalf("Used did not grow over a waited-for child: %v then %v", before, after)
	}
}
