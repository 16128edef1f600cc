package ancestry

import (
	"os"
	"os/exec"
	"testing"
)

// TestGone (round 28, c3): a running process is not gone; one that exited
// is; a live PID with another start time (a reused PID) is; a key that
// cannot be read never is.
func TestGone(t *testing.T) {
	self, _, ok := read(os.Getpid())
	if !ok || self.Start == 0 {
		t.Fatalf("read own stat: %+v %v", self, ok)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		key  string
		want bool
	}{
		{self.Key(), false},
		{Process{PID: self.PID, Start: self.Start + 1}.Key(), true},
		{Process{PID: cmd.Process.Pid, Start: 12345}.Key(), true},
		{"", false},
		{"1:5", false},
		{"123:0", false},
		{"x:y", false},
	}
	for _, c := range cases {
		if got := Gone(c.key); got != c.want {
			t.Errorf("Gone(%q) = %v, want %v", c.key, got, c.want)
		}
	}
}
