//go:build unix

package pgtest

import (
	"os/exec"
	"syscall"
)

// credential is the user PostgreSQL runs as when the tests run as root
// (initdb refuses root).
type credential syscall.Credential

func newCredential(uid, gid int) (*credential, error) {
	return &credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

func (c *credential) apply(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: (*syscall.Credential)(c)}
}
