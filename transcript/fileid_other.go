//go:build !unix

package transcript

import "os"

// fileID is unknown off Unix: a replaced file is then judged by its bytes
// (ErrTampered).
func fileID(os.FileInfo) string { return "" }
