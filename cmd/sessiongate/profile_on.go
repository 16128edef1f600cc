//go:build sgprofile

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// startProfile, in a binary built with -tags sgprofile only, writes a CPU
// profile of this process to $SGPROF_CPU_DIR/<pid>.pprof: the
// bench's scenarios run the binary hundreds of times, and its per-call CPU
// is what CI's time is made of (docs/benchmarks.md, "CI time, round 31").
// Release builds carry none of it (profile_off.go).
func startProfile() func() {
	dir := os.Getenv("SGPROF_CPU_DIR")
	if dir == "" {
		return func() {}
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("%d.pprof", os.Getpid())))
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
