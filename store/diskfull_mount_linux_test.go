package store

import "syscall"

// mountSmallTmpfs mounts a 1 MiB tmpfs at dir (needs CAP_SYS_ADMIN).
func mountSmallTmpfs(dir string) error {
	return syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m")
}

func unmount(dir string) { _ = syscall.Unmount(dir, 0) }
