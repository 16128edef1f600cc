// Package protect knows which files of a repository decide how a session
// is policed (the protocol, sessiongate's config, the agents' hook and MCP
// configs, the pre-commit configs) and how a change to them is seen: the
// paths and globs, matching a path against them, hashing what the work
// tree holds (with a stamp cache for the gate calls that ask again), and
// comparing that with the contents a person accepted. It needs no session
// and no store: session/ asks it, and records what it says.
package protect

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/sessiongate/sessiongate/internal/boundedread"
	"github.com/sessiongate/sessiongate/internal/shorten"
	"github.com/sessiongate/sessiongate/repopath"
)

// DefaultPaths are the files that decide how a session is policed,
// relative to the worktree root: the config, the agent hook configs, the
// MCP client configs and the pre-commit framework's configs. The protocol
// document is added by Paths. .git/hooks is outside the tree and is
// checked by `sessiongate doctor`, not here.
var DefaultPaths = []string{
	"sessiongate.yaml",
	".sessiongate.yaml",
	".claude/settings.json",
	".claude/settings.local.json",
	".cursor/hooks.json",
	".gemini/settings.json",
	".codex/hooks.json",
	".codex/config.toml", // a trusted project's config can turn hooks off
	".github/hooks/*.json",
	".mcp.json",
	".cursor/mcp.json",
	".vscode/mcp.json",
	".pre-commit-config.yaml",
	".pre-commit-hooks.yaml",
}

// DefaultProtocolPaths are protected when no protocol path is known.
var DefaultProtocolPaths = []string{"SESSION-PROTOCOL.md", ".agents/SESSION-PROTOCOL.md"}

// Paths returns the repository-relative paths and globs to protect: the
// protocol document (protocolPath, else configured, else both default
// locations), DefaultPaths and extra (the config's protected_paths). Every
// entry is anchored at the worktree root and uses slashes; `*` matches
// within one segment and `**` any number of segments ("ci/**",
// "**/x.yaml"). An absolute entry, or one that leaves the repository, is
// dropped.
func Paths(protocolPath, configured string, extra []string) []string {
	pathsMemo.Lock()
	defer pathsMemo.Unlock()
	m := &pathsMemo
	if m.out != nil && m.protocolPath == protocolPath && m.configured == configured && slices.Equal(m.extra, extra) {
		return slices.Clone(m.out) // a copy: callers append to it
	}
	out := paths(protocolPath, configured, extra)
	m.protocolPath, m.configured, m.extra, m.out = protocolPath, configured, slices.Clone(extra), slices.Clone(out)
	return out
}

// pathsMemo keeps Paths' last answer: every gate call asks it (the
// protected-file check, several times), each time cleaning and
// deduplicating the same sixteen entries (TestPathsMemo).
var pathsMemo struct {
	sync.Mutex
	protocolPath, configured string
	extra, out               []string
}

func paths(protocolPath, configured string, extra []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		p = strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "./")
		if p == "" || p == "." || path.IsAbs(p) || strings.HasPrefix(p, "../") || seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	switch {
	case protocolPath != "":
		add(protocolPath)
	case configured != "":
		add(configured)
	default:
		for _, p := range DefaultProtocolPaths {
			add(p)
		}
	}
	for _, p := range DefaultPaths {
		add(p)
	}
	for _, p := range extra {
		add(p)
	}
	return out
}

// Match reports whether rel, a path relative to the worktree root (slashes
// or the OS separator; "./" allowed), matches one of the root-anchored
// patterns. Matching is case-insensitive (macOS and Windows file systems
// are), so denying errs on the safe side. An absolute path or one that
// leaves the repository returns false.
func Match(patterns []string, rel string) bool {
	rel = filepath.ToSlash(rel)
	if rel == "" || path.IsAbs(rel) || filepath.IsAbs(rel) {
		return false
	}
	rel = path.Clean(rel)
	if rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	name := strings.ToLower(rel)
	for _, p := range patterns {
		if ok, _ := doublestar.Match(strings.ToLower(p), name); ok {
			return true
		}
	}
	return false
}

// Rel turns p (absolute, or relative to the worktree root) into a
// worktree-relative path, following symlinks so that a link to a protected
// file counts as that file, and reports whether it matches patterns. A
// path outside root returns ("", false).
func Rel(patterns []string, root, p string) (string, bool) {
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		realRoot = root
	}
	cands := []string{p}
	if real, err := filepath.EvalSymlinks(p); err == nil {
		cands = append(cands, real)
	} else if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		// A file about to be created: its folder may be a link.
		cands = append(cands, filepath.Join(dir, filepath.Base(p)))
	}
	first := ""
	for _, c := range cands {
		for _, r := range []string{root, realRoot} {
			rel, err := filepath.Rel(r, c)
			if err != nil || !filepath.IsLocal(rel) {
				continue
			}
			if first == "" {
				first = filepath.ToSlash(rel)
			}
			if Match(patterns, rel) {
				return filepath.ToSlash(rel), true
			}
		}
	}
	return first, false
}

// Below reports whether the folder rel (worktree-relative; "" or "." for
// the root) holds a file patterns protect: `rm -rf .claude` removes
// .claude/settings.json as surely as `rm .claude/settings.json`.
func Below(patterns []string, rel string) bool {
	dir := strings.ToLower(path.Clean(filepath.ToSlash(rel)))
	if dir == ".." || strings.HasPrefix(dir, "../") || path.IsAbs(dir) {
		return false
	}
	for _, p := range patterns {
		lp := strings.ToLower(p)
		// The part before the first glob character is where the pattern lives.
		if i := strings.IndexAny(lp, "*?[{"); i >= 0 {
			lp = lp[:i]
		}
		if dir == "." || strings.HasPrefix(lp, dir+"/") {
			return true
		}
	}
	return false
}

// Change is a protected file whose content no person accepted.
type Change struct {
	Path    string   `json:"path"`
	SHA256  string   `json:"sha256"`           // content now ("" absent)
	Trusted []string `json:"trusted"`          // accepted contents ("" absent)
	Staged  bool     `json:"staged,omitempty"` // the change is the one staged for commit
	// Hidden says how git hides a difference between the work tree and
	// what it commits (skip-worktree, assume-unchanged, a clean filter).
	Hidden string `json:"hidden,omitempty"`
	// Unbacked: the content is accepted only by a database row that no
	// acceptance in git (nor HEAD) backs, as an agent's INSERT would be.
	Unbacked bool `json:"unbacked,omitempty"`
	// Unrecorded says why first use did not trust a committed protocol:
	// the records ref names other protocols only (session.unrecordedProtocols).
	Unrecorded string `json:"unrecorded,omitempty"`
}

func (c Change) String() string {
	if c.Hidden != "" {
		return fmt.Sprintf("%s: %s (what is committed may differ from the file; undo it with `git update-index --no-skip-worktree --no-assume-unchanged %s` or remove the filter)", c.Path, c.Hidden, c.Path)
	}
	where := ""
	if c.Staged {
		where = " (staged)"
	}
	if c.Unrecorded != "" {
		return fmt.Sprintf("%s%s (sha256 %s) is committed but no person accepted it: %s", c.Path, where, shortSHA(c.SHA256), c.Unrecorded)
	}
	if c.Unbacked {
		return fmt.Sprintf("%s%s (sha256 %s) is accepted only in the local database: no acceptance on the records ref backs it (written into the database by hand, or accepted before acceptances travelled in git)", c.Path, where, shortSHA(c.SHA256))
	}
	switch {
	case c.SHA256 == "":
		return fmt.Sprintf("%s%s was deleted", c.Path, where)
	case len(c.Trusted) == 0 || len(c.Trusted) == 1 && c.Trusted[0] == "":
		return fmt.Sprintf("%s%s was created (sha256 %s)", c.Path, where, shortSHA(c.SHA256))
	}
	var acc []string
	for _, t := range c.Trusted {
		if t == "" {
			acc = append(acc, "absent")
		} else {
			acc = append(acc, shortSHA(t))
		}
	}
	return fmt.Sprintf("%s%s changed (sha256 %s; accepted: %s)", c.Path, where, shortSHA(c.SHA256), strings.Join(acc, ", "))
}

// FirstUseMark tags, in a trusted map's values, a content whose rows are
// all first use (FirstUseMark + sha256): the session's back-trust takes
// those for a file HEAD lacks, as first use itself would after the
// database is deleted. No real content equals a marked one, and Diff
// leaves them out of a Change's Trusted.
const FirstUseMark = "\x00first_use\x00"

// State hashes the protected files of a worktree: every pattern (globs
// expanded on disk) and every path that has an accepted content, so a
// deleted file is seen. Unchanged paths are answered from the stamp cache
// (stamp.go).
func State(root string, patterns []string, trusted map[string][]string) map[string]string {
	state := map[string]string{}
	memo := newStampMemo(root)
	for _, p := range patterns {
		if !repopath.HasMeta(p) {
			state[p] = hashProtectedStamped(memo, p)
			continue
		}
		ms, err := globStamped(memo, p)
		if err != nil {
			continue // a link out of the repository: the literal paths still count
		}
		for _, m := range ms {
			state[m] = hashProtectedStamped(memo, m)
		}
	}
	for p := range trusted {
		if _, ok := state[p]; !ok {
			state[p] = hashProtectedStamped(memo, p)
		}
	}
	return state
}

// Hash is the sha256 of a protected file, "" when absent. A link out of
// the repository or a folder gets a value no content hashes to, so it
// never matches an accepted content.
func Hash(root, rel string) string {
	// Most protected paths do not exist: one lstat of the whole path says
	// so (the kernel follows the folders' links as resolveInside would;
	// only ENOENT, not ENOTDIR, is read as absent) instead of resolving
	// every component of the root and the path, about 20 lstats each,
	// on every gate call.
	if c, err := repopath.Clean(rel); err == nil {
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(c))); errors.Is(err, syscall.ENOENT) {
			return ""
		}
	}
	abs, ok, err := repopath.Resolve(root, rel)
	if err != nil {
		return "outside-repository"
	}
	if !ok {
		return ""
	}
	b, err := boundedread.File(abs, boundedread.DefaultLimit)
	if err != nil {
		return "unreadable"
	}
	return sha256Hex(b)
}

// Diff lists the entries of state whose content is not accepted. A path
// with no accepted content is accepted only while absent.
func Diff(state map[string]string, trusted map[string][]string) []Change {
	var out []Change
	for p, sha := range state {
		acc, known := trusted[p]
		if known && slices.Contains(acc, sha) || !known && sha == "" {
			continue
		}
		out = append(out, Change{Path: p, SHA256: sha, Trusted: slices.DeleteFunc(slices.Clone(acc), func(s string) bool { return strings.HasPrefix(s, FirstUseMark) })})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// shortSHA is session's: "unborn" for none, else shortened.
func shortSHA(s string) string {
	if s == "" {
		return "unborn"
	}
	return shorten.SHA(s)
}
