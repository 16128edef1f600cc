package nearcopy

import (
	"os"
	"path/filepath"
	"testing"
)

// TestSourceStripRealLogs: setting the protocol's lines aside makes no
// honest pair of neighbouring real logs a near copy that was none. With
// SESSIONGATE_LOGS_DIR (a folder of .md logs) and SESSIONGATE_PROTOCOL (the
// protocol they were written under); the fixtures' two logs and the
// 2025-12-22 protocol otherwise.
func TestSourceStripRealLogs(t *testing.T) {
	names := realLogs(t)
	proto := os.Getenv("SESSIONGATE_PROTOCOL")
	if proto == "" {
		proto = filepath.Join(filepath.Dir(names[0]), "SESSION-PROTOCOL_2025-12-22_3821367d2.md")
	}
	pb, err := os.ReadFile(proto)
	if err != nil {
		t.Skipf("no protocol to set aside: %v", err)
	}
	src := NewSource(string(pb))
	raw := make([]string, len(names))
	stripped := make([]string, len(names))
	for i, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		raw[i], stripped[i] = string(b), src.Strip(string(b))
	}
	const neighbours = 15
	pairs, before, after := 0, 0, 0
	for i := range names {
		a := New(stripped[i])
		for j := max(0, i-neighbours); j < len(names) && j <= i+neighbours; j++ {
			if i == j {
				continue
			}
			pairs++
			was := Is(raw[i], raw[j])
			now := a.NearCopyOf(stripped[j])
			if was {
				before++
			}
			if now {
				after++
			}
			if now && !was {
				t.Errorf("honest %s: a near copy of %s once the protocol's lines are set aside", filepath.Base(names[i]), filepath.Base(names[j]))
			}
		}
	}
	t.Logf("%d ordered pairs of neighbouring logs: %d near copies before, %d with the protocol's lines set aside", pairs, before, after)
}
