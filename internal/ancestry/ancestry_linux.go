package ancestry

import (
	"bytes"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// maxDepth bounds the walk (a loop cannot happen in /proc, but a bound is
// cheap).
const maxDepth = 64

// Chain returns the ancestors of the current process, parent first, up to
// (not including) PID 1. Unreadable entries end the chain; a forged or
// hidden one ends it with a Process that says so.
func Chain() []Process {
	var out []Process
	pid, child := os.Getppid(), os.Getpid()
	for i := 0; i < maxDepth && pid > 1; i++ {
		p, ppid, st := readProc(pid)
		if st == procForged {
			out = append(out, Process{PID: pid, Name: "?", Forged: true})
		}
		if st == procAbsent && hidden(pid, child) {
			out = append(out, Process{PID: pid, Name: "(hidden)", Hidden: true})
		}
		if st != procOK {
			break
		}
		out = append(out, p)
		pid, child = ppid, pid
	}
	return out
}

// hidden reports whether pid, which /proc shows no entry for, still runs
// as child's parent, hidden by a /proc mounted with hidepid=2. A parent
// that ended is gone from /proc only after its children were given to
// another (the kernel re-parents them at exit, before the entry goes), so
// a child still naming it means it runs. Both must hold: the mount option
// is read from mountinfo (what the kernel writes; a seccomp filter the
// agent puts on the hook can fail opens, not write files).
func hidden(pid, child int) bool {
	var ppid int
	if child == os.Getpid() {
		ppid = os.Getppid()
	} else {
		_, pp, st := readProc(child)
		if st != procOK {
			return false
		}
		ppid = pp
	}
	return ppid == pid && procHidesPIDs()
}

// procHidesPIDs reports whether /proc is mounted with hidepid=2
// ("invisible" as newer kernels print it): the mountinfo line of /proc's
// own mount (its statx mount ID; else the last one mounted on /proc).
func procHidesPIDs() bool {
	b, st := readProcFile("/proc/self/mountinfo")
	if st != procOK {
		return false
	}
	id := ""
	var proc unix.Statx_t
	if unix.Statx(unix.AT_FDCWD, "/proc", 0, unix.STATX_MNT_ID, &proc) == nil && proc.Mask&unix.STATX_MNT_ID != 0 {
		id = strconv.FormatUint(proc.Mnt_id, 10)
	}
	hides := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		// ID parent major:minor root mountpoint options ... - fstype source superoptions
		if len(f) < 10 || f[4] != "/proc" || f[len(f)-3] != "proc" || id != "" && f[0] != id {
			continue
		}
		hides = false
		for _, o := range strings.Split(f[len(f)-1], ",") {
			if o == "hidepid=2" || o == "hidepid=invisible" {
				hides = true
			}
		}
	}
	return hides
}

// Self returns the current process (its session, for one).
func Self() Process {
	p, _, _ := read(os.Getpid())
	return p
}

func read(pid int) (Process, int, bool) {
	p, ppid, st := readProc(pid)
	return p, ppid, st == procOK
}

// What readProc made of a process's /proc entry.
const (
	procOK         = iota
	procAbsent     // no such process: /proc is the kernel's and has no entry for it
	procForged     // a file of /proc/PID is not the kernel's, or names another process
	procUnreadable // anything else
)

// procSuperMagic is procfs's statfs type (PROC_SUPER_MAGIC).
const procSuperMagic = 0x9fa0

// readProcFile reads a file of /proc when it is procfs's: a process in a
// mount namespace of its own (`unshare --user --map-root-user --mount`)
// can mount a made-up file over /proc/PID/stat, or a tmpfs over /proc,
// and have a process read as gone or as started long ago (helper 344).
// It opens without blocking (a FIFO mounted over one would hold the hook
// at open) and reads only procfs's files, which the kernel writes.
func readProcFile(name string) ([]byte, int) {
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, procAbsent
		}
		return nil, procUnreadable
	}
	defer f.Close()
	var fs syscall.Statfs_t
	if err := syscall.Fstatfs(int(f.Fd()), &fs); err != nil {
		return nil, procUnreadable
	}
	if fs.Type != procSuperMagic || !onProcMount(int(f.Fd())) {
		return nil, procForged
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, procUnreadable
	}
	return b, procOK
}

// onProcMount reports whether the open file fd is on /proc's own mount.
// fstatfs and the PID stat names do not tell a procfs file of another
// process bind-mounted over one of /proc/PID (its cmdline, whose text that
// process chose: "PID (claude) S ... START") from the kernel's own (helper
// 345); a bind mount is a mount of its own, with its own ID. A kernel
// that names no mount IDs (before 5.8) is not asked.
func onProcMount(fd int) bool {
	var file, proc unix.Statx_t
	if unix.Statx(fd, "", unix.AT_EMPTY_PATH, unix.STATX_MNT_ID, &file) != nil || file.Mask&unix.STATX_MNT_ID == 0 {
		return true
	}
	if unix.Statx(unix.AT_FDCWD, "/proc", 0, unix.STATX_MNT_ID, &proc) != nil || proc.Mask&unix.STATX_MNT_ID == 0 {
		return true
	}
	return file.Mnt_id == proc.Mnt_id
}

// procMounted reports whether /proc is procfs.
func procMounted() bool {
	var fs syscall.Statfs_t
	return syscall.Statfs("/proc", &fs) == nil && fs.Type == procSuperMagic
}

func readProc(pid int) (Process, int, int) {
	dir := "/proc/" + strconv.Itoa(pid) + "/"
	stat, st := readProcFile(dir + "stat")
	if st == procAbsent {
		// Absent only when /proc is the kernel's and has no directory for
		// the PID (one mounted over stands where a process is).
		if _, err := os.Lstat(dir); !os.IsNotExist(err) || !procMounted() {
			return Process{}, 0, procUnreadable
		}
	}
	if st != procOK {
		return Process{}, 0, st
	}
	// pid (comm) state ppid ...: comm may hold spaces and parentheses, so
	// split at the last ')'.
	i := bytes.LastIndexByte(stat, ')')
	j := bytes.IndexByte(stat, '(')
	if i < 0 || j < 0 || j > i {
		return Process{}, 0, procUnreadable
	}
	if strings.TrimSpace(string(stat[:j])) != strconv.Itoa(pid) {
		// procfs's stat of another process mounted over this one's.
		return Process{}, 0, procForged
	}
	fields := strings.Fields(string(stat[i+1:]))
	if len(fields) < 2 {
		return Process{}, 0, procUnreadable
	}
	ppid, err := strconv.Atoi(fields[1])
	if err != nil {
		return Process{}, 0, procUnreadable
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
	// Unreadable for another user's process; a link cannot be mounted
	// over (mount follows it), and Exe only ever makes a process skipped
	// (agenthook's nativeShim), which looks further up.
	p.Exe, _ = os.Readlink(dir + "exe")
	cmd, st := readProcFile(dir + "cmdline")
	if st == procForged {
		return Process{}, 0, procForged
	}
	if st == procOK {
		p.Args = strings.TrimSpace(string(bytes.ReplaceAll(cmd, []byte{0}, []byte{' '})))
		if len(cmd) > 0 && cmd[len(cmd)-1] == 0 {
			// The kernel's own NUL-ended list (a process that rewrote its
			// argv into one string has none): its words as they were.
			p.Argv = strings.Split(string(cmd[:len(cmd)-1]), "\x00")
		}
	}
	return p, ppid, procOK
}

// gone: /proc has no such pid, or its start time differs. A /proc entry
// that is not the kernel's says nothing.
func gone(pid int, start uint64) bool {
	p, _, st := readProc(pid)
	switch st {
	case procAbsent:
		return true
	case procOK:
		return p.Start != 0 && p.Start != start
	}
	return false
}

// Readable reports whether processes are read here: an empty chain then
// means the process runs under PID 1 (detached), not "unknown". A /proc
// that is not procfs (a tmpfs mounted over it) is not read.
func Readable() bool {
	_, err := os.Stat("/proc/self/stat")
	return err == nil && procMounted()
}

// Blinded reports whether this is a system whose processes are read
// (Linux) where this process cannot read them: /proc is not procfs (none
// is mounted, or another file system was mounted over it).
func Blinded() bool { return !Readable() }

// TimeShifted says why start times read here are not the ones other
// processes read ("" when they are): this process runs in a time
// namespace with a boottime offset (`unshare --time --boottime N`), and
// /proc/PID/stat's start times read shifted by it, so a running process
// reads as gone, or every process as started long ago (helper 344).
func TimeShifted() string {
	b, st := readProcFile("/proc/self/timens_offsets")
	if st == procAbsent {
		return "" // no time namespaces (Linux before 5.6)
	}
	if st != procOK {
		return "its time namespace's offsets are not read"
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 3 && f[0] == "boottime" && (f[1] != "0" || f[2] != "0") {
			return "it runs in a time namespace whose boot clock is shifted (" + f[1] + "s), where processes' start times read shifted"
		}
	}
	return ""
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
	st, rs := readProcFile(p)
	if rs != procOK {
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
	if !procMounted() {
		return ""
	}
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil || strings.ContainsAny(ns, " \t\n") {
		return ""
	}
	return ns
}

// MountNamespace names this process's mount namespace ("mnt:[N]", ""
// when unknown).
func MountNamespace() string {
	if !procMounted() {
		return ""
	}
	ns, err := os.Readlink("/proc/self/ns/mnt")
	if err != nil || strings.ContainsAny(ns, " \t\n") {
		return ""
	}
	return ns
}
