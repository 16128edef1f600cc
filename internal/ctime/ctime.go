// Package ctime reads a file's change time (ctime): the kernel stamps it
// on every write, rename and chmod, and no user call sets it back (touch -d
// sets the modification time). The linter trust check, the gate's PATH and
// the personal excludes of the QA check judge "changed after the session
// started" by it. Where it is not read (Windows, other systems) the
// modification time stands in: a weaker check, which a user can set back.
package ctime

import (
	"os"
	"time"
)

// Of is the change time of p, following a symlink to what it points at.
func Of(p string) (time.Time, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return time.Time{}, err
	}
	return of(fi), nil
}

// OfLink is the change time of p itself, a symlink not followed.
func OfLink(p string) (time.Time, error) {
	fi, err := os.Lstat(p)
	if err != nil {
		return time.Time{}, err
	}
	return of(fi), nil
}
