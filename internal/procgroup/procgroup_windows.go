//go:build windows

package procgroup

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

type sysGroup struct{ job windows.Handle }

func (g *Group) prepare() {}

func (g *Group) started() error {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return fmt.Errorf("create job object: %w", err)
	}
	info := windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION{
		BasicLimitInformation: windows.JOBOBJECT_BASIC_LIMIT_INFORMATION{LimitFlags: windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE},
	}
	if _, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info))); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("set job limits: %w", err)
	}
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, uint32(g.cmd.Process.Pid))
	if err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("open process %d: %w", g.cmd.Process.Pid, err)
	}
	defer windows.CloseHandle(h)
	if err := windows.AssignProcessToJobObject(job, h); err != nil {
		windows.CloseHandle(job)
		return fmt.Errorf("assign process %d to its job: %w", g.cmd.Process.Pid, err)
	}
	g.sys.job = job
	return nil
}

func (g *Group) kill() error {
	if g.sys.job != 0 {
		return windows.TerminateJobObject(g.sys.job, 1)
	}
	if g.cmd.Process != nil {
		return g.cmd.Process.Kill()
	}
	return nil
}

func (g *Group) close() {
	if g.sys.job != 0 {
		windows.CloseHandle(g.sys.job)
		g.sys.job = 0
	}
}
