//go:build !unix

package proccpu

import "time"

// Used is 0 where getrusage does not exist (Windows): the benchmarks that
// read it run on unix; this keeps their packages compiling and vetting for
// every target CI checks.
func Used() time.Duration { return 0 }
