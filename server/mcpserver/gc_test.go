package mcpserver_test

import (
	"os"
	"runtime/debug"
	"testing"

	"github.com/sessiongate/sessiongate/server/mcpserver"
)

func TestTuneGC(t *testing.T) {
	readGC := func() int { p := debug.SetGCPercent(-1); debug.SetGCPercent(p); return p }
	before, beforeLimit := readGC(), debug.SetMemoryLimit(-1)
	cases := []struct {
		name, gogc, memlimit string
		wantGC               int
		wantLimit            int64
	}{
		{"defaults", "", "", mcpserver.ServerGCPercent, mcpserver.ServerMemoryLimit},
		{"GOGC wins", "150", "", before, mcpserver.ServerMemoryLimit},
		{"GOMEMLIMIT wins", "", "1GiB", mcpserver.ServerGCPercent, beforeLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range map[string]string{"GOGC": c.gogc, "GOMEMLIMIT": c.memlimit} {
				t.Setenv(k, v) // restored after the test
				if v == "" {
					os.Unsetenv(k)
				}
			}
			restore := mcpserver.TuneGC()
			gotGC, gotLimit := readGC(), debug.SetMemoryLimit(-1)
			restore()
			if gotGC != c.wantGC || gotLimit != c.wantLimit {
				t.Fatalf("GC %d limit %d, want %d and %d", gotGC, gotLimit, c.wantGC, c.wantLimit)
			}
			if readGC() != before || debug.SetMemoryLimit(-1) != beforeLimit {
				t.Fatal("restore did not put the settings back")
			}
		})
	}
}
