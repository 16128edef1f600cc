package session

import "github.com/sessiongate/sessiongate/internal/boundedread"

// maxWorkFile bounds a work-tree file the gate reads whole (a handoff, a
// session log, a file offered as evidence): far above any document a
// person writes, far below what would fill a hook's memory.
const maxWorkFile = 64 << 20

// readWorkFile reads rel, a file of the work tree at root, only when it
// is a regular file within maxWorkFile and, links followed, inside root:
// the agent writes these paths, and a FIFO there hung `session evidence`
// and `session advance` (pass 29), a link to /dev/zero or a sparse 64 GiB
// file filled memory. A refused read (boundedread.Refused) names the file
// and why; callers never take it for "unchanged".
func readWorkFile(root, rel string) ([]byte, error) {
	return boundedread.InRoot(root, rel, maxWorkFile)
}
