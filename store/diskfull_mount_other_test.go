//go:build !linux

package store

import "errors"

// mountSmallTmpfs: tmpfs mounts are a Linux test aid; elsewhere the full
// file system case skips and the file size limit cases cover the message.
func mountSmallTmpfs(string) error { return errors.New("tmpfs mounts are Linux only") }

func unmount(string) {}
