//go:build !unix

package agenttest

import (
	"os"
	"os/exec"
)

func ownGroup(*exec.Cmd) {}

func signalGroup(cmd *exec.Cmd, sig os.Signal) error { return cmd.Process.Signal(sig) }
