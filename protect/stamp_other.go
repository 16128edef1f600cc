//go:build !linux

package protect

// Elsewhere the stamp cache is off: every call resolves and hashes.
func lstatStamp(string) (pathStamp, bool) { return pathStamp{}, false }

func lstatAbsent(string) bool { return false }
