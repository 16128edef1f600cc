//go:build unix

package procgroup

import "syscall"

type sysGroup struct{}

func (g *Group) prepare() {
	if g.cmd.SysProcAttr == nil {
		g.cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	g.cmd.SysProcAttr.Setpgid = true
}

func (g *Group) kill() error {
	if g.cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-g.cmd.Process.Pid, syscall.SIGKILL)
}

func (g *Group) started() error { return nil }

func (g *Group) close() {}
