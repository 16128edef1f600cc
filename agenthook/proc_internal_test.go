package agenthook

import "github.com/sessiongate/sessiongate/internal/ancestry"

// proc is a process of a made-up chain: its start is its PID (a later
// PID started later), sid its session (0 unknown).
func proc(pid, sid int, name, args string) ancestry.Process {
	return ancestry.Process{PID: pid, Name: name, Args: args, Start: uint64(pid), Session: sid}
}
