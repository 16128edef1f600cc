package gitrepo

// statPath is a path stat'ed again and again (HEAD's files on every gate
// call), with its NUL-terminated bytes made once for the system call.
type statPath struct {
	s string
	z []byte
}

func newStatPath(s string) statPath {
	return statPath{s: s, z: append([]byte(s), 0)}
}
