//go:build !linux

package agenttest

import "os/exec"

// dieWithParent: only Linux has a parent-death signal; elsewhere the
// test's cleanup kills the stub.
func dieWithParent(cmd *exec.Cmd) {}
