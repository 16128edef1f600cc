//go:build !linux

package ancestry

// Chain is not implemented outside Linux: no ancestors are known.
func Chain() []Process { return nil }
