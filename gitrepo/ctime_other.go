//go:build !linux

package gitrepo

import (
	"os"
	"time"
)

// changeTime falls back to the modification time where the change time is
// not read here (it can be set back: a weaker check).
func changeTime(p string) (time.Time, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}
