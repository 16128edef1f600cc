package gitrepo

import "sync"

// headFiles keeps CommittedSHA256's answers for one commit: a commit's
// tree never changes, so what a path held at that commit is answered once
// (the protected-file check asks it on every gate call). A new HEAD drops
// them.
type headFiles struct {
	mu     sync.Mutex
	commit string
	sha    map[string]string // path -> sha256 of its content at commit, "" when absent
}

// get returns the kept answers for every path at commit, ok false when one
// is missing.
func (c *headFiles) get(commit string, paths []string) (map[string]string, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.commit != commit {
		return nil, false
	}
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		sha, ok := c.sha[p]
		if !ok {
			return nil, false
		}
		out[p] = sha
	}
	return out, true
}

// put keeps answers read at commit.
func (c *headFiles) put(commit string, answers map[string]string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.commit != commit || len(c.sha) > 4096 {
		c.commit, c.sha = commit, map[string]string{}
	}
	for p, sha := range answers {
		c.sha[p] = sha
	}
}
