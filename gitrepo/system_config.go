package gitrepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/sessiongate/sessiongate/gitenv"
)

// Git reads one system config file, the one its build names
// (ETC_GITCONFIG, or GIT_CONFIG_SYSTEM): /etc/gitconfig for Debian's,
// Homebrew's under its prefix, Apple's inside Xcode. Without asking,
// gitrepo stamps every place a build keeps it (systemConfigs), and on Linux
// four of the six are macOS and Homebrew places this git never reads: five
// stats of every warm gate call that could not change what git says
// (TestValidateGateStats). A long-lived Repo asks git once which file it
// reads and stamps that one alone: the filter cache keeps git's answer under
// the stamps of exactly the files git reads, as before, so a write to a
// dropped place (which this git does not read) changes nothing git says and
// a write to the asked one still moves the key (TestSystemConfigAsked).

// systemPlace is git's answer for a Repo: the file, and the PATH it was
// asked under (another PATH may run another git build).
type systemPlace struct {
	mu    sync.Mutex
	asked bool
	path  string
	files []string // nil: unknown, every candidate place is read
}

// systemConfigFiles are the system config files to read or stamp: the one
// git named when it was asked under this PATH, else every candidate.
func (r *Repo) systemConfigFiles() []string {
	p := &r.systemPlace
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.files != nil && p.path == os.Getenv("PATH") {
		return p.files
	}
	return systemConfigs
}

// askSystemConfig asks git, once per Repo, which system config file it
// reads: `git config --system --edit` with echo as the editor prints the
// path its build computes (no file is created or locked for --system).
// Nothing is asked when the environment names the file or turns it off
// (configFiles reads the variables then), and an answer that is not one
// absolute path leaves every candidate place in the list.
func (r *Repo) askSystemConfig(ctx context.Context) {
	p := &r.systemPlace
	p.mu.Lock()
	if p.asked {
		p.mu.Unlock()
		return
	}
	p.asked = true
	p.mu.Unlock()
	if _, set := os.LookupEnv("GIT_CONFIG_SYSTEM"); set {
		return // even empty: git then reads no system file
	}
	if off, ok := gitBool(os.Getenv("GIT_CONFIG_NOSYSTEM")); off || !ok {
		return
	}
	path := os.Getenv("PATH")
	cmd := gitenv.Command(ctx, r.root, nil, "config", "--system", "--edit")
	cmd.Env = append(slices.DeleteFunc(cmd.Env, func(kv string) bool { return strings.HasPrefix(kv, "GIT_EDITOR=") }), "GIT_EDITOR=echo")
	b, err := cmd.Output()
	f := strings.TrimSuffix(string(b), "\n")
	if err != nil || !filepath.IsAbs(f) || strings.ContainsAny(f, "\n\x00") {
		return
	}
	p.mu.Lock()
	p.path, p.files = path, []string{f}
	p.mu.Unlock()
	// The list per environment was built from every candidate: built again.
	c := &r.configList
	c.mu.Lock()
	c.valid = false
	c.mu.Unlock()
}
