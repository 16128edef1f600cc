//go:build darwin

package ancestry

import (
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

const maxDepth = 64

// Chain returns the ancestors of the current process, parent first, up to
// (not including) launchd, from one `ps` run: macOS has no /proc.
func Chain() []Process {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "ps", "-axo", "pid=,ppid=,comm=,args=").Output()
	if err != nil {
		return nil
	}
	type row struct {
		ppid int
		p    Process
	}
	rows := map[int]row{}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		pid, err1 := strconv.Atoi(f[0])
		ppid, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil {
			continue
		}
		// comm is the executable path; args repeats it with the arguments.
		name := f[2]
		if i := strings.LastIndexByte(name, '/'); i >= 0 {
			name = name[i+1:]
		}
		rows[pid] = row{ppid: ppid, p: Process{PID: pid, Name: name, Args: strings.Join(f[3:], " ")}}
	}
	return walk(os.Getppid(), func(pid int) (Process, int, bool) {
		r, ok := rows[pid]
		return r.p, r.ppid, ok
	})
}

func walk(pid int, read func(int) (Process, int, bool)) []Process {
	var chain []Process
	for i := 0; i < maxDepth && pid > 1; i++ {
		p, ppid, ok := read(pid)
		if !ok {
			break
		}
		chain = append(chain, p)
		pid = ppid
	}
	return chain
}

// gone: start times are not read here, so no process is known gone.
func gone(int, uint64) bool { return false }

// Readable: the chain is read on macOS, but Gone is not, so a process
// that ended cannot be told from one that runs: no verdict rests on it.
func Readable() bool { return false }

// Self: the current process's session is not read here (no verdict rests
// on it).
func Self() Process { return Process{} }

// StdinPeer: not read here.
func StdinPeer() (int, bool) { return 0, false }

// Confined: no_new_privs and seccomp are not read here.
func Confined(int) (confined, ok bool) { return false, false }

// PIDNamespace: macOS has none.
func PIDNamespace() string { return "" }

// Blinded: /proc is no part of macOS.
func Blinded() bool { return false }

// TimeShifted: time namespaces are Linux's.
func TimeShifted() string { return "" }

// MountNamespace: not read here.
func MountNamespace() string { return "" }
