package gitrepo

import (
	"bytes"
	"cmp"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/sessiongate/sessiongate/internal/boundedread"
)

// ConfigMentions reports whether any configuration git reads for the
// repository may mention one of words (lower case; any mention counts):
// the system, global, repository and worktree files, and what git passes
// in the environment (git -c, GIT_CONFIG_KEY_<n>). Fast paths that skip a
// git process use it to make sure no setting changes what git would do. A
// file it cannot read, or a value git would refuse, counts as a mention.
func (r *Repo) ConfigMentions(getenv func(string) string, words ...string) bool {
	mentions := func(b []byte) bool {
		low := bytes.ToLower(b)
		for _, w := range words {
			if bytes.Contains(low, []byte(w)) {
				return true
			}
		}
		return false
	}
	env := getenv("GIT_CONFIG_PARAMETERS")
	if c := getenv("GIT_CONFIG_COUNT"); c != "" {
		n, err := strconv.Atoi(c)
		if err != nil || n < 0 || n > 1000 {
			return true
		}
		for i := range n {
			env += "\n" + getenv("GIT_CONFIG_KEY_"+strconv.Itoa(i))
		}
	}
	if mentions([]byte(env)) {
		return true
	}
	var files []string
	nosystem, ok := gitBool(getenv("GIT_CONFIG_NOSYSTEM"))
	if !ok {
		return true
	}
	if !nosystem {
		if f := getenv("GIT_CONFIG_SYSTEM"); f != "" {
			files = append(files, f)
		} else {
			files = append(files, r.systemConfigFiles()...)
		}
	}
	if g := getenv("GIT_CONFIG_GLOBAL"); g != "" {
		files = append(files, g)
	} else {
		home := getenv("HOME")
		if home == "" {
			return true
		}
		files = append(files, filepath.Join(cmp.Or(getenv("XDG_CONFIG_HOME"), filepath.Join(home, ".config")), "git", "config"),
			filepath.Join(home, ".gitconfig"))
	}
	files = append(files, filepath.Join(r.commonDir, "config"), filepath.Join(r.gitDir, "config.worktree"))
	for _, f := range files {
		b, err := boundedread.File(f, boundedread.DefaultLimit)
		if os.IsNotExist(err) || f == os.DevNull {
			continue
		}
		if err != nil || mentions(b) {
			return true
		}
	}
	return false
}

// systemConfigs are where git builds keep their system configuration:
// the prefix differs by build (Debian's /etc, Homebrew's and Linuxbrew's,
// Apple's command line tools and Xcode; not a relocatable build's), and a
// process asking git which one it reads would cost what a fast path saves.
// Reading a file this git does not read can only turn a fast path off,
// never on.
var systemConfigs = []string{
	"/etc/gitconfig",
	"/usr/local/etc/gitconfig",
	"/opt/homebrew/etc/gitconfig",
	"/home/linuxbrew/.linuxbrew/etc/gitconfig",
	"/Library/Developer/CommandLineTools/usr/share/git-core/gitconfig",
	"/Applications/Xcode.app/Contents/Developer/usr/share/git-core/gitconfig",
}

// systemAttributes are the system gitattributes files of the same builds.
var systemAttributes = []string{
	"/etc/gitattributes",
	"/usr/local/etc/gitattributes",
	"/opt/homebrew/etc/gitattributes",
	"/home/linuxbrew/.linuxbrew/etc/gitattributes",
	"/Library/Developer/CommandLineTools/usr/share/git-core/gitattributes",
	"/Applications/Xcode.app/Contents/Developer/usr/share/git-core/gitattributes",
}

// gitBool reads an environment boolean as git does (git_env_bool): unset
// or empty is false, and so are "false", "no", "off" and 0; ok is false
// for a value git would refuse.
func gitBool(v string) (b, ok bool) {
	switch strings.ToLower(v) {
	case "", "false", "no", "off":
		return false, true
	case "true", "yes", "on":
		return true, true
	}
	n, err := strconv.ParseInt(v, 0, 64)
	return n != 0, err == nil
}
