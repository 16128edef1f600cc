//go:build !linux && !darwin

package ctime

import (
	"os"
	"time"
)

func of(fi os.FileInfo) time.Time { return fi.ModTime() }
