//go:build unix

// Package proccpu reads the CPU time a benchmark's process has used, its
// waited-for children included: the git processes a gate call or an MCP
// call starts are part of what it costs.
package proccpu

import (
	"syscall"
	"time"
)

// Used is the user+system CPU time of this process and of the children it
// waited for; 0 when the kernel does not say.
func Used() time.Duration {
	var d time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if err := syscall.Getrusage(who, &ru); err != nil {
			return 0
		}
		d += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	return d
}
