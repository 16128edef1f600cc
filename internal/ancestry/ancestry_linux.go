package ancestry

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// maxDepth bounds the walk (a loop cannot happen in /proc, but a bound is
// cheap).
const maxDepth = 64

// Chain returns the ancestors of the current process, parent first, up to
// (not including) PID 1. Unreadable entries end the chain.
func Chain() []Process {
	var out []Process
	pid := os.Getppid()
	for i := 0; i < maxDepth && pid > 1; i++ {
		p, ppid, ok := read(pid)
		if !ok {
			break
		}
		out = append(out, p)
		pid = ppid
	}
	return out
}

// Self returns the current process (its session, for one).
func Self() Process {
	p, _, _ := read(os.Getpid())
	return p
}

func read(pid int) (Process, int, bool) {
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	stat, err := os.ReadFile(dir + "stat")
	if err != nil {
		return Process{}, 0, false
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses, so
	// split at the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	j := bytes.IndexByte(stat, '(')
	if i < 0 || j < 0 || j > i {
		return Process{}, 0, false
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return Process{}, 0, false
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return Process{}, 0, false
	}
	p := Process{PID: pid, Name: string(stat[j+1 : i])}
	if len(fields) > 3 {
		if sid, err := strconv.Atoi(fields[3]); err == nil {
			p.Session = sid
			if sid == 0 {
				p.Session = SessionOutside
			}
		}
	}
	if len(fields) > 19 {
		// starttime, field 22 of stat (fields here start at field 3).
		p.Start, _ = strconv.ParseUint(fields[19], 10, 64)
	}
	if cmd, err := os.ReadFile(dir + "cmdline"); err == nil {
		p.Args = strings.TrimSpace(string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
	}
	return p, ppid, true
}

// gone: /proc has no such pid, or its start time differs.
func gone(pid int, start uint64) bool {
	p, _, ok := read(pid)
	if !ok {
		_, err := os.Stat("/proc/self/stat")
		return err == nil // /proc is there, the process is not
	}
	return p.Start != 0 && p.Start != start
}

// Readable reports whether processes are read here: an empty chain then
// means the process runs under PID 1 (detached), not "unknown".
func Readable() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil
}

// StdinPeer returns the process that made the Unix socket on the current
// process's stdin (SO_PEERCRED: for a socketpair, the process that called
// socketpair): ok is false when stdin is no Unix socket.
func StdinPeer() (pid int, ok bool) {
	cred, err := syscall.GetsockoptUcred(0, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil || cred.Pid <= 0 {
		return 0, false
	}
	return int(cred.Pid), true
}

// Confined reports whether process pid (0: the current one) runs under
// no_new_privs or a seccomp filter (/proc/PID/status NoNewPrivs,
// Seccomp): a sandbox put them there (Codex's for its tool calls), and a
// process cannot clear either, nor can its children. ok is false when the
// status was not read.
func Confined(pid int) (confined, ok bool) {
	p := "/proc/self/status"
	if pid > 0 {
		p = "/proc/" + strconv.Itoa(pid) + "/status"
	}
	st, err := os.ReadFile(p)
	if err != nil {
		return false, false
	}
	seen := 0
	for _, line := range strings.Split(string(st), "\n") {
		k, v, found := strings.Cut(line, ":")
		if !found || k != "NoNewPrivs" && k != "Seccomp" {
			continue
		}
		seen++
		if v = strings.TrimSpace(v); v != "0" {
			confined = true
		}
	}
	return confined, seen == 2
}

// PIDNamespace names this process's PID namespace ("pid:[N]", "" when
// unknown). A process in another one is not seen in this one's /proc: to
// a reader in a namespace of its own (`unshare --user --pid --fork
// --mount-proc`, allowed to any user where user namespaces are), every
// process outside it reads as Gone (helper 343).
func PIDNamespace() string {
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil || strings.ContainsAny(ns, " \t\n") {
		return ""
	}
	return ns
}
