//go:build !linux && !darwin

package ancestry

// Chain is not implemented on Windows and other systems: no ancestors are
// known, so only the environment tells an agent there (docs/security.md).
func Chain() []Process { return nil }

func gone(int, uint64) bool { return false }

// Readable: processes are not read here.
func Readable() bool { return false }

// Self: the current process's session is not read here (no verdict rests
// on it).
func Self() Process { return Process{} }

// StdinPeer: not read here.
func StdinPeer() (int, bool) { return 0, false }

// Confined: no_new_privs and seccomp are not read here.
func Confined(int) (confined, ok bool) { return false, false }

// PIDNamespace: not read here.
func PIDNamespace() string { return "" }

// Blinded: processes are not read here.
func Blinded() bool { return false }

// TimeShifted: time namespaces are Linux's.
func TimeShifted() string { return "" }

// MountNamespace: not read here.
func MountNamespace() string { return "" }
