// Package procgroup runs a command so that a timeout ends it and every
// process it started: a gate's `sh -c "npm test"` leaves node and its
// workers behind when only sh is killed. On Unix the command leads a new
// process group and the group gets SIGKILL; on Windows it is put in a job
// object that is terminated (and closed with kill-on-close, so nothing it
// started outlives the gate).
package procgroup

import "os/exec"

// Group is one command's process tree.
type Group struct {
	cmd *exec.Cmd
	sys sysGroup
}

// New prepares cmd (before Start): cmd.Cancel, which exec.CommandContext
// calls when the context ends, then kills the whole tree.
func New(cmd *exec.Cmd) *Group {
	g := &Group{cmd: cmd}
	g.prepare()
	cmd.Cancel = g.kill
	return g
}

// Started must follow a successful cmd.Start: on Windows it puts the
// process in its job (a child started in between escapes; the window is
// the few microseconds before the first instruction of the new process).
func (g *Group) Started() error { return g.started() }

// Close releases what Started took; on Windows it kills whatever of the
// tree is still running. Call it after Wait.
func (g *Group) Close() { g.close() }

// Run is Start, Started, Wait and Close.
func Run(cmd *exec.Cmd) error {
	g := New(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	defer g.Close()
	if err := g.Started(); err != nil {
		_ = g.kill()
		_ = cmd.Wait()
		return err
	}
	return cmd.Wait()
}
