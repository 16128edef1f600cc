// Package filelock takes an exclusive lock on a file without waiting,
// one the kernel drops when the process ends however it ends (flock on
// Unix, LockFileEx on Windows): a holder killed by SIGKILL leaves nothing
// that says "held" behind it.
package filelock
