//go:build !unix

package gitrepo

import "os"

// mapIndex reads the index at path (mapped on unix systems).
func mapIndex(path string) ([]byte, func(), error) {
	b, err := os.ReadFile(path)
	return b, func() {}, err
}
