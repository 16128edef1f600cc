//go:build !linux && !darwin

package linttrust

import (
	"os"
	"time"
)

// ctime falls back to the modification time where the platform's change
// time is not read here (it can be set back: a weaker check).
func ctime(p string) (time.Time, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return time.Time{}, err
	}
	return fi.ModTime(), nil
}
