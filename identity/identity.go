// Package identity is who a session is recorded as run by, on which host,
// and which repository it is across clones (the normalized origin URL).
// It needs no session: the engine stamps a new session with it and the
// team index keys repositories by it, so both read one definition.
package identity

import (
	"context"
	"net/url"
	"os"
	"path"
	"strings"

	"github.com/sessiongate/sessiongate/internal/shorten"
)

// Identity (issue 13.3): a repository is known across clones by its
// normalized origin URL, and a session records who ran it and on which
// host, so a team database can filter by repository, person and machine.

// Repo is what a repository offers for identity; gitrepo.Repo has it.
type Repo interface {
	// Origin is the origin remote's URL as configured ("" without one).
	OriginURL() string
	// GitUser is user.name and user.email as git resolves them here
	// (includes and conditional includes honoured).
	GitUser(ctx context.Context) (name, email string)
}

// Environment variables that override the recorded identity.
const (
	EnvUser = "SESSIONGATE_USER" // "Name <email>", "email" or "name"
	EnvHost = "SESSIONGATE_HOST"
)

// WhoRuns returns who a new session in repo is recorded as run by and on
// which host: SESSIONGATE_USER, else git's user.name and user.email;
// SESSIONGATE_HOST, else the host name.
func WhoRuns(ctx context.Context, repo Repo) (name, email, host string) {
	if v := strings.TrimSpace(os.Getenv(EnvUser)); v != "" {
		name, email = ParseUser(v)
	} else if repo != nil {
		name, email = repo.GitUser(ctx)
	}
	host = strings.TrimSpace(os.Getenv(EnvHost))
	if host == "" {
		host, _ = os.Hostname()
	}
	return cut(name), cut(email), cut(host)
}

// ParseUser splits "Name <email>" (git's form); a value with an @ and no
// spaces is an email, anything else a name.
func ParseUser(v string) (name, email string) {
	v = strings.TrimSpace(v)
	if i := strings.LastIndex(v, "<"); i >= 0 && strings.HasSuffix(v, ">") {
		return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1 : len(v)-1])
	}
	if strings.Contains(v, "@") && !strings.ContainsAny(v, " \t") {
		return "", v
	}
	return v, ""
}

// cut bounds a recorded identity field (session.truncate's form).
func cut(s string) string { return shorten.Bytes(s, 200, "...") }

// Origin is repo's normalized origin URL, "" when it has none.
func Origin(repo Repo) string {
	if repo == nil {
		return ""
	}
	return NormalizeRemoteURL(repo.OriginURL())
}

// NormalizeRemoteURL reduces the forms of one remote to one string,
// host/path, so every clone of a project has the same identity:
//
//	git@github.com:o/r.git, https://github.com/o/r, ssh://git@github.com:22/o/r.git,
//	https://user:token@GitHub.com/o/r/  ->  github.com/o/r
//
// Users, passwords and ports are dropped (credentials never reach the
// store), the host is lower-cased, ".git" and trailing slashes go. A local
// path (or file:// URL) stays a cleaned path. "" stays "".
func NormalizeRemoteURL(raw string) string {
	s := strings.TrimSpace(raw)
	if s == "" {
		return ""
	}
	var host, p string
	switch {
	case strings.Contains(s, "://"):
		u, err := url.Parse(s)
		if err != nil {
			return ""
		}
		if u.Scheme == "file" {
			return trimRepoPath(path.Clean(u.Path))
		}
		host, p = u.Hostname(), u.Path
	case isSCPLike(s):
		// [user@]host:path, git's scp-like syntax.
		hostPart, rest, _ := strings.Cut(s, ":")
		if i := strings.LastIndex(hostPart, "@"); i >= 0 {
			hostPart = hostPart[i+1:]
		}
		host, p = hostPart, rest
	default:
		return trimRepoPath(path.Clean(s)) // a local path
	}
	p = strings.Trim(path.Clean("/"+p), "/")
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "" {
		return trimRepoPath(p)
	}
	return trimRepoPath(host + "/" + p)
}

// isSCPLike: a colon before any slash, and not a Windows drive letter.
func isSCPLike(s string) bool {
	colon := strings.Index(s, ":")
	slash := strings.Index(s, "/")
	return colon > 1 && (slash < 0 || colon < slash)
}

func trimRepoPath(p string) string {
	return strings.TrimSuffix(strings.TrimRight(p, "/"), ".git")
}
