//go:build !unix

package pgtest

import (
	"errors"
	"os/exec"
)

type credential struct{}

func newCredential(uid, gid int) (*credential, error) {
	return nil, errors.New("running PostgreSQL as another user is only done on Unix")
}

func (c *credential) apply(cmd *exec.Cmd) {}
