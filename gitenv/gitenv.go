// Package gitenv builds the environment of every git command sessiongate
// starts, so its gates read the objects and refs the repository holds and
// nothing the caller's environment or a replace ref substitutes. It needs
// no session: it reads an environment.
package gitenv

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// redirect are variables that make git read another repository, work tree,
// object store or history than the one found from the command's folder, or
// rewrite commits' parents and trees on the way out. In an agent's shell
// they reach sessiongate's hooks through git: GIT_REPLACE_REF_BASE naming
// the agent's replacements, GIT_GRAFT_FILE its grafts,
// GIT_ALTERNATE_OBJECT_DIRECTORIES an object store the clone does not
// have. git sets GIT_DIR for a linked worktree's hooks: every command runs
// in the work tree's top folder (cmd.Dir), where git finds the same git
// dir without it. GIT_INDEX_FILE stays: git sets it for a commit's hooks
// (`git commit -a` commits a temporary index), and outside a hook the
// command line drops it (cmd/sessiongate/root.go).
var redirect = []string{
	"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES",
	"GIT_REPLACE_REF_BASE", "GIT_GRAFT_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
}

// Fixed turns replace refs and grafts off: `git replace START FAKE` made
// the session's start read as a commit holding the weakened test script,
// and `git replace --graft` (or a .git/info/grafts line) took a hooks-off
// commit out of start..HEAD. GIT_NO_REPLACE_OBJECTS leaves grafts on, and
// git has no switch for them: a graft file no one can create (under the
// null device, which is no folder) stands in for the repository's. The
// null device itself is read as an empty graft file, and git 2.39 then
// prints its grafts-deprecated hint on every command's stderr, which a
// caller reading stderr as an error (merge-base's "not an ancestor")
// took for one.
var Fixed = []string{"GIT_NO_REPLACE_OBJECTS=1", "GIT_GRAFT_FILE=" + NoGrafts}

// NoGrafts is the graft file every git sessiongate starts reads: none.
var NoGrafts = filepath.Join(os.DevNull, "no-grafts")

// Env returns environ without the redirecting variables, then extra
// (variables sessiongate itself sets for this command, such as a temporary
// GIT_INDEX_FILE; they win over the caller's), then Fixed.
func Env(environ []string, extra ...string) []string {
	env := make([]string, 0, len(environ)+len(extra)+len(Fixed))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if slices.Contains(redirect, name) || slices.ContainsFunc(extra, func(e string) bool { return strings.HasPrefix(e, name+"=") }) {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, extra...)
	// core.useReplaceRefs=true (the repository's config, or git -c on the
	// commit, which a hook gets as GIT_CONFIG_PARAMETERS) turns replace
	// refs back on over GIT_NO_REPLACE_OBJECTS: the last -c wins over
	// both, so sessiongate's goes after the caller's.
	params := pinnedParams
	if i := slices.IndexFunc(env, func(kv string) bool { return strings.HasPrefix(kv, "GIT_CONFIG_PARAMETERS=") }); i >= 0 {
		params = strings.TrimPrefix(env[i], "GIT_CONFIG_PARAMETERS=") + " " + params
		env = slices.Delete(env, i, i+1)
	}
	env = append(env, "GIT_CONFIG_PARAMETERS="+params)
	return append(env, Fixed...)
}

// pinnedParams are the -c settings every git sessiongate starts takes
// after the caller's, as git passes them on:
//   - core.useReplaceRefs=false (above);
//   - log.showSignature=false: set from the agent's shell with a
//     gpg.program of its own, every `git log` sessiongate ran started that
//     program on a signed commit and printed what it wrote to stderr
//     ahead of the commit's formatted line, where gitrepo and the hooks
//     parse records and authors (sessiongate asks for signatures with
//     %G? and verify-commit, which this leaves on);
//   - core.fsmonitor=false: the monitor is a program the config names,
//     and its answer hides changed files from status (gitrepo's reads
//     pinned it already; this covers every other git).
//
// A command-line -c (gitrepo's, recordref's core.hooksPath) still wins.
const pinnedParams = "'core.usereplacerefs'='false' 'log.showsignature'='false' 'core.fsmonitor'='false'"

// FileConfigOnly is environ without the config git takes from the
// environment (GIT_CONFIG_COUNT and its GIT_CONFIG_KEY_<n>/VALUE_<n>
// pairs, GIT_CONFIG_PARAMETERS: `git -c`). Config the agent sets there
// holds for one process: `GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=filter.x.clean
// GIT_CONFIG_VALUE_0='sed s/hello/helo/' sessiongate run -- sh
// scripts/test.sh`, with `scripts/greet.sh filter=x` in
// .git/info/attributes, recorded as the tree the tests saw one that held
// the broken greet.sh its tests fail on, which the agent then committed
// (COMPLETE, clean). What a run saw is computed with the config files
// alone, as any later git reads them; the hooks keep the caller's config
// (Env), since the commit they check runs with it. The config files
// (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM) stay: they are not one process's.
func FileConfigOnly(environ []string) []string {
	return slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return name == "GIT_CONFIG_COUNT" || name == "GIT_CONFIG_PARAMETERS" ||
			strings.HasPrefix(name, "GIT_CONFIG_KEY_") || strings.HasPrefix(name, "GIT_CONFIG_VALUE_")
	})
}

// Command is exec.CommandContext(ctx, "git", args...) run in dir with
// Env(os.Environ(), extra...). dir must be a folder of the repository to
// read (the work tree's top for a hook): git finds the repository from
// it, not from GIT_DIR.
func Command(ctx context.Context, dir string, extra []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = Env(os.Environ(), extra...)
	return cmd
}

// Isolated is git run in dir with env as its whole environment, then
// Fixed: nothing of the caller's passes (no GIT_CONFIG_PARAMETERS, no
// GIT_SSH_COMMAND, no proxy). For a push that must reach the URL recorded
// at the session's start whatever the agent set since (recordref's pinned
// records push).
func Isolated(ctx context.Context, dir string, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clone(env), Fixed...)
	return cmd
}
