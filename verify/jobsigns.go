package verify

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/sessiongate/sessiongate/gitenv"
	"github.com/sessiongate/sessiongate/gitrepo"
)

// Code that runs in the job before verify owns the job: it can put its own
// `sessiongate` first on PATH, set gpg.program in the clone's config so
// any signature "verifies", or point origin at a repository whose main
// already holds its commits (a branch push is checked against
// origin/main). verify cannot prove a job clean, but a few signs are
// cheap to read and never honest in a fresh CI checkout: JobSigns reads
// them. The sound defence stays running verify first, or in a job of its
// own (docs/security.md).

// JobSigns are what JobSigns found: Fail ends the run (exit 2, an
// environment verify will not vouch for), Warn goes to the report.
type JobSigns struct {
	Fail []string
	Warn []string
}

// signatureKeys are the config keys that decide what `git verify-commit`
// accepts: set in the clone's own config, a fake gpg or an agent's
// allowed-signers file passes every signature.
var signatureKeys = []string{"gpg.program", "gpg.openpgp.program", "gpg.x509.program", "gpg.ssh.program", "gpg.ssh.allowedsignersfile", "gpg.format", "gpg.mintrustlevel"}

// programKeys are clone-config keys that run a program when git reads or
// checks out (verify --rerun adds a worktree): actions/checkout and GitLab
// runners never write them.
var programKeys = []string{"core.fsmonitor", "core.hookspath", "core.sshcommand", "core.gitproxy", "core.askpass", "diff.external", "uploadpack.packobjectshook"}

// ReadJobSigns reads the signs in CI only (GITHUB_ACTIONS or GITLAB_CI is
// true): on a person's machine the clone's config and PATH are theirs.
// requireSigned makes a signature key in the clone's config fatal.
func ReadJobSigns(ctx context.Context, repo *gitrepo.Repo, getenv func(string) string, requireSigned bool) JobSigns {
	var s JobSigns
	ci := getenv("GITHUB_ACTIONS") == "true" || getenv("GITLAB_CI") == "true"
	if !ci {
		return s
	}
	if msg := originMismatch(repo.OriginURL(), getenv); msg != "" {
		s.Fail = append(s.Fail, msg)
	}
	local := localConfig(ctx, repo)
	for _, k := range signatureKeys {
		v, ok := local[k]
		if !ok {
			continue
		}
		msg := fmt.Sprintf("%s is set in this clone's own config (.git/config: %s): a fresh CI checkout never sets it, so code that ran before verify did; it decides what git verify-commit accepts", k, v)
		if requireSigned {
			s.Fail = append(s.Fail, msg+" (--require-signed): run verify before any of the branch's code, or in a job of its own")
		} else {
			s.Warn = append(s.Warn, msg)
		}
	}
	for k, v := range local {
		if isProgramKey(k) {
			s.Warn = append(s.Warn, fmt.Sprintf("%s is set in this clone's own config (.git/config: %s): code that ran before verify wrote it, and git runs it", k, v))
		}
	}
	if w := pathShadow(repo.Root(), getenv("PATH")); w != "" {
		s.Warn = append(s.Warn, w)
	}
	return s
}

func isProgramKey(k string) bool {
	for _, p := range programKeys {
		if k == p {
			return true
		}
	}
	// A filter or merge driver runs on checkout and merge.
	return (strings.HasPrefix(k, "filter.") && (strings.HasSuffix(k, ".clean") || strings.HasSuffix(k, ".smudge") || strings.HasSuffix(k, ".process"))) ||
		(strings.HasPrefix(k, "merge.") && strings.HasSuffix(k, ".driver")) ||
		(strings.HasPrefix(k, "diff.") && (strings.HasSuffix(k, ".command") || strings.HasSuffix(k, ".textconv"))) ||
		strings.HasPrefix(k, "include.") || strings.HasPrefix(k, "includeif.")
}

// localConfig is the clone's own config file (not global, not system, not
// includes), lower-cased keys; empty when git cannot read it.
func localConfig(ctx context.Context, repo *gitrepo.Repo) map[string]string {
	cmd := gitenv.Command(ctx, repo.Root(), []string{"GIT_CONFIG_NOSYSTEM=1"}, "config", "--file", filepath.Join(repo.CommonDir(), "config"), "--list")
	out, err := cmd.Output()
	if err != nil {
		return nil
	}
	m := map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(l, "=")
		if ok {
			m[strings.ToLower(k)] = v
		}
	}
	return m
}

// originMismatch says why origin is not the repository the CI job is for,
// "" when it is or the CI does not say. GitHub: GITHUB_SERVER_URL and
// GITHUB_REPOSITORY, which a step cannot override through $GITHUB_ENV;
// GitLab: CI_REPOSITORY_URL (the clone URL, clone_url of the runner
// included), else CI_PROJECT_URL.
func originMismatch(origin string, getenv func(string) string) string {
	var want []string
	var from string
	switch {
	case getenv("GITHUB_ACTIONS") == "true":
		srv, repo := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_REPOSITORY")
		if srv == "" || repo == "" {
			return ""
		}
		want = []string{strings.TrimRight(srv, "/") + "/" + repo}
		from = "GITHUB_SERVER_URL/GITHUB_REPOSITORY"
	case getenv("GITLAB_CI") == "true":
		for _, k := range []string{"CI_REPOSITORY_URL", "CI_PROJECT_URL"} {
			if v := getenv(k); v != "" {
				want = append(want, v)
			}
		}
		if len(want) == 0 {
			return ""
		}
		from = "CI_REPOSITORY_URL / CI_PROJECT_URL"
	default:
		return ""
	}
	got := normRemote(origin)
	for _, w := range want {
		if got != "" && got == normRemote(w) {
			return ""
		}
	}
	shown := origin
	if u, err := url.Parse(origin); err == nil && u.User != nil {
		u.User = nil // never print a token
		shown = u.String()
	}
	if shown == "" {
		shown = "(none)"
	}
	return fmt.Sprintf("origin is %s, not the repository this job is for (%s: %s): verify fetches the default branch and pull request heads from origin, and code that ran before it can point origin at a repository whose main already holds its commits. Run verify before any of the branch's code, or in a job of its own; a job that checks out another repository on purpose names the range and sets origin back (git remote set-url origin ...)",
		shown, from, normRemote(want[0]))
}

// normRemote reduces a remote URL to host/path, lower-cased: https and ssh
// forms, credentials, a port, ".git" and trailing slashes do not count.
func normRemote(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	var host, path string
	if u, err := url.Parse(s); err == nil && u.Scheme != "" && u.Host != "" {
		host, path = u.Hostname(), u.Path
	} else if at, rest, ok := strings.Cut(s, "@"); ok && !strings.Contains(at, "/") && strings.Contains(rest, ":") {
		host, path, _ = strings.Cut(rest, ":") // scp form: git@host:owner/repo.git
	} else {
		return strings.ToLower(strings.TrimSuffix(strings.TrimRight(s, "/"), ".git"))
	}
	path = strings.TrimSuffix(strings.Trim(path, "/"), ".git")
	return strings.ToLower(host + "/" + path)
}

// pathShadow says when `sessiongate` is not what verify itself is: the
// running binary lies inside the checkout (the branch's own build), or
// PATH names a folder inside the checkout (a step put the branch's
// programs first). "" when neither.
func pathShadow(root, pathEnv string) string {
	if root == "" {
		return ""
	}
	rootAbs, err := filepath.EvalSymlinks(root)
	if err != nil {
		return ""
	}
	inside := func(p string) bool {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		rel, err := filepath.Rel(rootAbs, p)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
	}
	var signs []string
	if exe, err := os.Executable(); err == nil && inside(exe) {
		signs = append(signs, "the sessiongate running ("+exe+") is inside the checkout: a build of the branch's own code checks the branch")
	}
	for _, d := range filepath.SplitList(pathEnv) {
		if d != "" && filepath.IsAbs(d) && inside(d) {
			signs = append(signs, "PATH names "+d+", inside the checkout: a step put the branch's programs on PATH (git and gpg are found there too)")
			break
		}
	}
	if len(signs) == 0 {
		return ""
	}
	return strings.Join(signs, "; ") + ": run a released sessiongate before any of the branch's code, or in a job of its own"
}
