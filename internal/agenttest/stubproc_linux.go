package agenttest

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the stub killed when the test binary dies without
// running its cleanups (a panic, a timeout's exit), so no stub outlives it.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
