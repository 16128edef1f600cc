package gitrepo

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// filterCache keeps cleanFilters' last answer (a `git config` process) for
// a long-lived Repo: the MCP server and `serve` ask it on every gate call
// (HiddenFiles, from the protected-file check). The answer is a function
// of the config files git reads and of the environment, so it is kept
// under the stamp (size, modification and change times, inode, mode,
// following links) of every file git could read config from, present or
// not, and the environment's git and home variables. It is kept only when
// the stamps read the same before and after git ran, every file's change
// time is at least racyWindow old (two writes within one clock tick share
// a stamp), and no file includes another (include.path and includeIf name
// files this list does not stamp).
type filterCache struct {
	mu     sync.Mutex
	valid  bool
	key    string
	answer map[string]string
	hits   int // for tests
	// unmentioned counts the answers no config mentioned a filter for (tests).
	unmentioned int
}

// configFiles are the files git reads its config from for r, in the order
// git reads them (the system file at each place git builds keep it), and ok
// false when GIT_CONFIG_NOSYSTEM is not a boolean.
func (r *Repo) configFiles() (files []string, ok bool) {
	nosystem, ok := gitBool(os.Getenv("GIT_CONFIG_NOSYSTEM"))
	if !ok {
		return nil, false
	}
	if !nosystem {
		if p := os.Getenv("GIT_CONFIG_SYSTEM"); p != "" {
			files = append(files, p)
		} else {
			files = append(files, r.systemConfigFiles()...) // as ConfigMentions reads them
		}
	}
	if p := os.Getenv("GIT_CONFIG_GLOBAL"); p != "" {
		files = append(files, p)
	} else {
		home := os.Getenv("HOME")
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" && home != "" {
			xdg = filepath.Join(home, ".config")
		}
		if xdg != "" {
			files = append(files, filepath.Join(xdg, "git", "config"))
		}
		if home != "" {
			files = append(files, filepath.Join(home, ".gitconfig"))
		}
	}
	files = append(files, filepath.Join(r.commonDir, "config"), filepath.Join(r.gitDir, "config.worktree"))
	if filepath.Clean(r.commonDir) != filepath.Clean(r.gitDir) { // a linked worktree: the main one's too
		files = append(files, filepath.Join(r.commonDir, "config.worktree"))
	}
	return files, true
}

// configList keeps configFiles' answer for the environment it was built
// from (configEnv holds every variable it reads; the folders are the
// Repo's): a gate call built the same ten paths again on every call.
type configList struct {
	mu    sync.Mutex
	valid bool
	env   string
	files []string // shared: callers only read it
	ok    bool
}

// configFilesFor is configFiles for env, the environment now (configEnv).
func (r *Repo) configFilesFor(env string) ([]string, bool) {
	c := &r.configList
	c.mu.Lock()
	if c.valid && c.env == env {
		files, ok := c.files, c.ok
		c.mu.Unlock()
		return files, ok
	}
	c.mu.Unlock()
	files, ok := r.configFiles()
	if configEnv() == env { // kept only for the environment it was read in
		c.mu.Lock()
		c.valid, c.env, c.files, c.ok = true, env, files, ok
		c.mu.Unlock()
	}
	return files, ok
}

// configEnv is the part of the environment that changes what git config
// says: GIT_* (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT and its pairs, GIT_DIR
// ...), HOME and XDG_CONFIG_HOME, and PATH (which git runs, and so which
// system file it reads: system_config.go).
func configEnv() string {
	var b strings.Builder
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "GIT_") || strings.HasPrefix(kv, "HOME=") || strings.HasPrefix(kv, "XDG_CONFIG_HOME=") || strings.HasPrefix(kv, "PATH=") {
			b.WriteString(kv)
			b.WriteByte(0)
		}
	}
	return b.String()
}

// cleanFilters lists the filter drivers with a clean or process command,
// by name, Git LFS's own left out; from the cache when no config file or
// variable moved since git last said.
func (r *Repo) cleanFilters(ctx context.Context) (map[string]string, error) {
	c := &r.filterCache
	env := configEnv()
	files, cacheable := r.configFilesFor(env)
	key := ""
	if cacheable {
		st, ok := configStamp(files, time.Now(), false)
		key, cacheable = env+"\x01"+st, ok
	}
	// The stamps first: a file's stat is one syscall where reading it is
	// four, and the answer, whether from reading the files or from git, is
	// the same while no stamp moves (a call stats them once, issue 29).
	if cacheable {
		c.mu.Lock()
		if c.valid && c.key == key {
			c.hits++
			answer := maps.Clone(c.answer)
			c.mu.Unlock()
			// A second call answered from the stamps: a long-lived Repo
			// (the MCP server, serve), worth one git process to stamp
			// only the system file this git reads (system_config.go).
			r.askSystemConfig(ctx)
			return answer, nil
		}
		c.mu.Unlock()
	}
	// No config git reads names a filter or includes another file: none is
	// configured, and no `git config` process need say so (one in every
	// hook, issue 29). Any mention (Git LFS's own driver too) asks git.
	// Kept under the stamps read before the files were: a write after
	// them moves a stamp, and one within the racy window is never kept.
	if !r.ConfigMentions(os.Getenv, "filter", "include") {
		c.mu.Lock()
		c.unmentioned++
		if cacheable {
			c.valid, c.key, c.answer = true, key, nil
		}
		c.mu.Unlock()
		return nil, nil
	}
	answer, err := r.cleanFiltersFromGit(ctx)
	if err != nil || !cacheable {
		return answer, err
	}
	// Keep it only if nothing moved while git ran, and no file includes another.
	if st, ok := configStamp(files, time.Now(), true); ok && configEnv()+"\x01"+st == key {
		c.mu.Lock()
		c.valid, c.key, c.answer = true, key, maps.Clone(answer)
		c.mu.Unlock()
	}
	return answer, nil
}
